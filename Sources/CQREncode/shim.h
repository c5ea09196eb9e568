// SPDX-License-Identifier: MIT
#include <errno.h>
#include <qrencode.h>

/// errno as libqrencode left it (EINVAL, ENOMEM, ERANGE: the data does not fit a version 40 code).
static inline int CQREncode_errno(void) { return errno; }
