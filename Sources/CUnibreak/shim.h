// SPDX-License-Identifier: MIT
#include <stddef.h>
#include <linebreak.h>
