// SPDX-License-Identifier: MIT
/* drmapp: the program that comes after the splash, in its simplest form (HandoverEndToEndTests).
 *
 *   drmapp draw SECONDS [CARD]
 *       Opens CARD (/dev/dri/card0), which makes it DRM master when no one else is (the splash
 *       gave master up with `deactivate`), and shows one full-screen dumb buffer of solid
 *       #336699 on the CRTC that drives the first connected connector, in that CRTC's current
 *       mode (the splash's: no mode change). Prints "DREW WxH", holds the picture SECONDS, exits:
 *       its framebuffer goes with it.
 *   drmapp hang SECONDS [CARD]
 *       Opens CARD and becomes master the same way, draws nothing, holds it SECONDS and exits:
 *       an app that hangs before its first frame, then crashes.
 * Exits 1 with the failing call on standard error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static int fail(const char *what) {
    fprintf(stderr, "drmapp: %s: %s\n", what, strerror(errno));
    return 1;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: drmapp draw|hang SECONDS [CARD]\n");
        return 64;
    }
    int seconds = atoi(argv[2]);
    const char *card = argc > 3 ? argv[3] : "/dev/dri/card0";
    int fd = open(card, O_RDWR | O_CLOEXEC);
    if (fd < 0) return fail(card);
    if (drmIsMaster(fd) != 1 && drmSetMaster(fd) != 0) return fail("drmSetMaster (the splash still holds master)");
    printf("MASTER\n");
    fflush(stdout);
    if (strcmp(argv[1], "hang") == 0) {
        sleep((unsigned)seconds);
        return 0;
    }
    drmModeRes *res = drmModeGetResources(fd);
    if (!res) return fail("drmModeGetResources");
    drmModeConnector *conn = NULL;
    for (int i = 0; i < res->count_connectors && !conn; i++) {
        drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
        if (c && c->connection == DRM_MODE_CONNECTED && c->encoder_id) conn = c;
        else drmModeFreeConnector(c);
    }
    if (!conn) return fail("no connected connector with an encoder");
    drmModeEncoder *enc = drmModeGetEncoder(fd, conn->encoder_id);
    if (!enc || !enc->crtc_id) return fail("the connector's encoder has no CRTC");
    drmModeCrtc *crtc = drmModeGetCrtc(fd, enc->crtc_id);
    if (!crtc || !crtc->mode_valid) return fail("the CRTC has no mode");
    struct drm_mode_create_dumb create = {.width = crtc->mode.hdisplay, .height = crtc->mode.vdisplay, .bpp = 32};
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create)) return fail("DRM_IOCTL_MODE_CREATE_DUMB");
    uint32_t fb;
    if (drmModeAddFB(fd, create.width, create.height, 24, 32, create.pitch, create.handle, &fb)) return fail("drmModeAddFB");
    struct drm_mode_map_dumb map = {.handle = create.handle};
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) return fail("DRM_IOCTL_MODE_MAP_DUMB");
    uint8_t *pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)map.offset);
    if (pixels == MAP_FAILED) return fail("mmap");
    for (uint32_t y = 0; y < create.height; y++) {
        uint32_t *row = (uint32_t *)(pixels + (size_t)y * create.pitch);
        for (uint32_t x = 0; x < create.width; x++) row[x] = 0x00336699;
    }
    uint32_t connector = conn->connector_id;
    if (drmModeSetCrtc(fd, crtc->crtc_id, fb, 0, 0, &connector, 1, &crtc->mode)) return fail("drmModeSetCrtc");
    printf("DREW %ux%u\n", create.width, create.height);
    fflush(stdout);
    sleep((unsigned)seconds);
    return 0;
}
