// SPDX-License-Identifier: MIT
#include <thai/thbrk.h>
#include <thai/thwbrk.h>
