// SPDX-License-Identifier: MIT
#include <zlib.h>
