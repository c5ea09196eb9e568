// SPDX-License-Identifier: MIT
#ifndef CDRMSHIM_H
#define CDRMSHIM_H
// The DRM constants Swift cannot import because libdrm's headers build them with function-like
// macros: the dumb-buffer ioctl numbers (DRM_IOWR) and the fourcc codes (fourcc_code). Apart from
// CLinuxShim so that only the display links libdrm (the client, the bridge and the system layer
// do not).
#include <stdint.h>
// DRM dumb buffers, for drmIoctl.
extern const unsigned long CDRMShim_DRM_IOCTL_MODE_CREATE_DUMB;
extern const unsigned long CDRMShim_DRM_IOCTL_MODE_MAP_DUMB;
extern const unsigned long CDRMShim_DRM_IOCTL_MODE_DESTROY_DUMB;

extern const uint32_t CDRMShim_DRM_FORMAT_ARGB8888;
extern const uint32_t CDRMShim_DRM_FORMAT_XRGB8888;
extern const uint32_t CDRMShim_DRM_FORMAT_ABGR8888;
extern const uint32_t CDRMShim_DRM_FORMAT_XBGR8888;
extern const uint32_t CDRMShim_DRM_FORMAT_RGB888;
extern const uint32_t CDRMShim_DRM_FORMAT_BGR888;
extern const uint32_t CDRMShim_DRM_FORMAT_RGB565;
extern const uint32_t CDRMShim_DRM_FORMAT_BGR565;
#endif
