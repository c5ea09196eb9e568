// SPDX-License-Identifier: MIT
#include <cairo.h>
#include <cairo-ft.h>
