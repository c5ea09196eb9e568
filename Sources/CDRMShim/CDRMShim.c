// SPDX-License-Identifier: MIT
#include "CDRMShim.h"
#include <drm.h>         /* libdrm-dev; the include path comes from pkg-config through CDRM */
#include <drm_fourcc.h>

const unsigned long CDRMShim_DRM_IOCTL_MODE_CREATE_DUMB = DRM_IOCTL_MODE_CREATE_DUMB;
const unsigned long CDRMShim_DRM_IOCTL_MODE_MAP_DUMB = DRM_IOCTL_MODE_MAP_DUMB;
const unsigned long CDRMShim_DRM_IOCTL_MODE_DESTROY_DUMB = DRM_IOCTL_MODE_DESTROY_DUMB;

const uint32_t CDRMShim_DRM_FORMAT_ARGB8888 = DRM_FORMAT_ARGB8888;
const uint32_t CDRMShim_DRM_FORMAT_XRGB8888 = DRM_FORMAT_XRGB8888;
const uint32_t CDRMShim_DRM_FORMAT_ABGR8888 = DRM_FORMAT_ABGR8888;
const uint32_t CDRMShim_DRM_FORMAT_XBGR8888 = DRM_FORMAT_XBGR8888;
const uint32_t CDRMShim_DRM_FORMAT_RGB888 = DRM_FORMAT_RGB888;
const uint32_t CDRMShim_DRM_FORMAT_BGR888 = DRM_FORMAT_BGR888;
const uint32_t CDRMShim_DRM_FORMAT_RGB565 = DRM_FORMAT_RGB565;
const uint32_t CDRMShim_DRM_FORMAT_BGR565 = DRM_FORMAT_BGR565;
