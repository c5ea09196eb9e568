// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CLinuxShim.h"
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <fcntl.h>
#include <unistd.h>
#include <errno.h>
#include <sys/syscall.h>
#include <sys/prctl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>
#include <linux/input.h>

const unsigned long CLinuxShim_FBIOGET_VSCREENINFO = FBIOGET_VSCREENINFO;
const unsigned long CLinuxShim_FBIOPUT_VSCREENINFO = FBIOPUT_VSCREENINFO;
const unsigned long CLinuxShim_FBIOGET_FSCREENINFO = FBIOGET_FSCREENINFO;
const unsigned long CLinuxShim_FBIOPAN_DISPLAY = FBIOPAN_DISPLAY;
const unsigned long CLinuxShim_FBIOBLANK = FBIOBLANK;
const unsigned long CLinuxShim_FBIO_WAITFORVSYNC = FBIO_WAITFORVSYNC;
const unsigned long CLinuxShim_KDSETMODE = KDSETMODE;
const unsigned long CLinuxShim_KDGETMODE = KDGETMODE;
const unsigned long CLinuxShim_VT_GETSTATE = VT_GETSTATE;
const unsigned long CLinuxShim_VT_SETMODE = VT_SETMODE;
const unsigned long CLinuxShim_VT_RELDISP = VT_RELDISP;
const unsigned long CLinuxShim_EVIOCGRAB = EVIOCGRAB;
unsigned long CLinuxShim_EVIOCGNAME(unsigned length) { return EVIOCGNAME(length); }
unsigned long CLinuxShim_EVIOCGBIT(unsigned type, unsigned length) { return EVIOCGBIT(type, length); }
unsigned long CLinuxShim_EVIOCGABS(unsigned axis) { return EVIOCGABS(axis); }
unsigned long CLinuxShim_EVIOCGPROP(unsigned length) { return EVIOCGPROP(length); }


int CLinuxShim_accept4(int fd, int flags) { return accept4(fd, NULL, NULL, flags); }
int CLinuxShim_pipe2(int fds[2], int flags) { return pipe2(fds, flags); }
int CLinuxShim_set_dumpable(int on) { return prctl(PR_SET_DUMPABLE, (unsigned long)on, 0UL, 0UL, 0UL); }
int CLinuxShim_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0UL, 0UL, 0UL, 0UL); }
int CLinuxShim_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}
void CLinuxShim_rewrite_byte(volatile uint8_t *byte) { *byte = *byte; }
