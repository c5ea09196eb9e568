// SPDX-License-Identifier: MIT
#include <hb.h>
#include <hb-ft.h>
#include <hb-ot.h>
