// SPDX-License-Identifier: MIT
#ifndef CLINUXSHIM_H
#define CLINUXSHIM_H
// Linux constants that Swift cannot import because the kernel headers build them with
// function-like macros: ioctl request numbers (_IOR/_IOW/_IOWR); DRM's are CDRMShim's, so that
// only the display links libdrm. Nothing else belongs here, except <linux/fb.h> itself (Swift
// imports its structs, fb_var_screeninfo and fb_fix_screeninfo, and plain constants such as
// FB_VISUAL_TRUECOLOR as they are), the libc headers and GNU functions Glibc's Swift module leaves
// out, and a volatile store, each noted below.
#include <stdint.h>
#include <linux/fb.h>
// timerfd and eventfd (the frame pacer's timer and wake-up): Glibc's Swift module leaves these
// headers out; their functions and constants import as they are.
#include <sys/timerfd.h>
#include <sys/eventfd.h>
// epoll (the event loop's wait): Glibc's Swift module leaves it out too.
#include <sys/epoll.h>
// The auxiliary vector (getauxval: is there a program interpreter?): a static daemon reads the
// account files itself.
#include <sys/auxv.h>
// accept4 and pipe2 are GNU extensions Glibc's Swift module does not declare: a descriptor made
// with its flags set atomically stays out of a child another thread spawns meanwhile.
int CLinuxShim_accept4(int fd, int flags);
int CLinuxShim_pipe2(int fds[2], int flags);
// prctl is variadic, which Swift cannot call: PR_SET_DUMPABLE and PR_GET_DUMPABLE (no core dump
// while a passphrase is in memory).
int CLinuxShim_set_dumpable(int on);
int CLinuxShim_get_dumpable(void);
// pidfd_open (Linux 5.3) through syscall(2), which is variadic: a descriptor that polls readable
// when another process (not a child) ends. -1 with ENOSYS where the headers or kernel lack it.
int CLinuxShim_pidfd_open(int pid);
// A volatile store, which Swift lacks: writes a byte of mapped scanout memory back to itself so
// that fbdev's deferred I/O sees its page written again (Display/FBDev/DeferredIOPages.swift).
void CLinuxShim_rewrite_byte(volatile uint8_t *byte);
extern const unsigned long CLinuxShim_FBIOGET_VSCREENINFO;
extern const unsigned long CLinuxShim_FBIOPUT_VSCREENINFO;
extern const unsigned long CLinuxShim_FBIOGET_FSCREENINFO;
extern const unsigned long CLinuxShim_FBIOPAN_DISPLAY;
extern const unsigned long CLinuxShim_FBIOBLANK;
extern const unsigned long CLinuxShim_FBIO_WAITFORVSYNC;
extern const unsigned long CLinuxShim_KDSETMODE;
extern const unsigned long CLinuxShim_KDGETMODE;
extern const unsigned long CLinuxShim_VT_GETSTATE;
extern const unsigned long CLinuxShim_VT_SETMODE;
extern const unsigned long CLinuxShim_VT_RELDISP;

// evdev (<linux/input.h>): the name, capability bits, axis ranges and properties of an input
// device take their buffer length or code in the request number, so these are functions.
extern const unsigned long CLinuxShim_EVIOCGRAB;
unsigned long CLinuxShim_EVIOCGNAME(unsigned length);
unsigned long CLinuxShim_EVIOCGBIT(unsigned type, unsigned length);
unsigned long CLinuxShim_EVIOCGABS(unsigned axis);
unsigned long CLinuxShim_EVIOCGPROP(unsigned length);

#endif
