#ifndef CLINUXSHIM_H
#define CLINUXSHIM_H
// Linux ioctl request numbers that Swift cannot import because the kernel headers build them with
// function-like macros (_IOR/_IOW/_IOWR). Nothing else belongs here.
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
#endif
