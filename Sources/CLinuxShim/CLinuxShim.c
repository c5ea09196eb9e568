#include "CLinuxShim.h"
#include <sys/ioctl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <linux/vt.h>

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
