// SPDX-License-Identifier: MIT
#include <fribidi.h>
