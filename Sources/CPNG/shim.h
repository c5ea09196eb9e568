// SPDX-License-Identifier: MIT
#include <png.h>
