// SPDX-License-Identifier: MIT
/* flipfloor: the least a splash can do per frame, to put the CPU targets beside a floor.
 *
 *   flipfloor SECONDS FPS      FPS 0: the mode's refresh rate
 *
 * On DRM it sets the first connected connector's mode (the one the console shows, else the
 * preferred one) with one of two dumb buffers
 * filled grey (the whole screen, as a splash's first frame), then animates a 48x48 box (a bar that turns, drawn with a few hundred stores) and
 * page-flips every frame, each at the next 1/FPS boundary (a timer: QEMU's DRM drivers complete
 * a flip at once, so waiting for its event alone would not pace), waiting for the flip's event
 * (on vkms, which has a vblank, the event comes at the next vblank: at FPS 0 it flips at every one).
 * Without DRM it draws the same box into /dev/fb0 (no flip, as vesafb has none) at FPS, or 75
 * when FPS is 0. No rasterizer, no text, no event loop beyond poll(): what is left is the
 * kernel's work per frame, the wake-ups and a minimal draw. The benchmark's guest measures it
 * like the others (scanpoll count); see docs/performance.md, "Against Plymouth". C, static, libdrm. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/fb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

struct buffer { uint32_t handle, fb, pitch; uint8_t *mem; uint64_t size; };

static uint64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static void sleep_until(uint64_t ns) {
    struct timespec t = { .tv_sec = (time_t)(ns / 1000000000u), .tv_nsec = (long)(ns % 1000000000u) };
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &t, NULL)) {}
}

/* Frame n of the box at (x, y): a dark square with a bright bar from its centre, turned by n. */
static void draw_box(uint8_t *mem, uint32_t pitch, uint32_t x, uint32_t y, uint32_t n) {
    static const int8_t dx[16] = { 0, 8, 15, 19, 20, 19, 15, 8, 0, -8, -15, -19, -20, -19, -15, -8 };
    static const int8_t dy[16] = { -20, -19, -15, -8, 0, 8, 15, 19, 20, 19, 15, 8, 0, -8, -15, -19 };
    for (uint32_t r = 0; r < 48; r++) {
        uint32_t *row = (uint32_t *)(mem + (size_t)(y + r) * pitch) + x;
        for (uint32_t c = 0; c < 48; c++) row[c] = 0x202020;
    }
    for (int s = 0; s <= 16; s++) {
        int px = 24 + dx[n % 16] * s / 16, py = 24 + dy[n % 16] * s / 16;
        ((uint32_t *)(mem + (size_t)(y + (uint32_t)py) * pitch))[x + (uint32_t)px] = 0xffffff;
    }
}

static int fbdev(double seconds, int fps) {
    int fd = open("/dev/fb0", O_RDWR | O_CLOEXEC);
    struct fb_var_screeninfo v; struct fb_fix_screeninfo f;
    if (fd < 0 || ioctl(fd, FBIOGET_VSCREENINFO, &v) || ioctl(fd, FBIOGET_FSCREENINFO, &f) || v.bits_per_pixel != 32) {
        perror("flipfloor: /dev/fb0 (32 bpp)");
        return 2;
    }
    uint8_t *mem = mmap(NULL, f.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mem == MAP_FAILED) { perror("flipfloor: mmap"); return 2; }
    uint8_t *page = mem + (size_t)v.yoffset * f.line_length;
    memset(page, 0x20, (size_t)f.line_length * v.yres);
    uint64_t interval = 1000000000u / (uint64_t)(fps ? fps : 75), t = now_ns(), end = t + (uint64_t)(seconds * 1e9);
    for (uint32_t n = 0; t < end; n++, t += interval) {
        sleep_until(t);
        draw_box(page, f.line_length, v.xres / 2 - 24, v.yres / 2 - 24, n);
    }
    return 0;
}

static int make_buffer(int fd, uint32_t w, uint32_t h, struct buffer *b) {
    struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c)) return -1;
    b->handle = c.handle; b->pitch = c.pitch; b->size = c.size;
    if (drmModeAddFB(fd, w, h, 24, 32, b->pitch, b->handle, &b->fb)) return -1;
    struct drm_mode_map_dumb m = { .handle = b->handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m)) return -1;
    b->mem = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
    if (b->mem == MAP_FAILED) return -1;
    memset(b->mem, 0x20, b->size); /* a grey backdrop: the first frame fills the screen, as a splash's does */
    return 0;
}

static void flipped(int fd, unsigned seq, unsigned sec, unsigned usec, void *pending) {
    (void)fd; (void)seq; (void)sec; (void)usec;
    *(int *)pending = 0;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: flipfloor SECONDS FPS (0: every refresh)\n"); return 64; }
    double seconds = atof(argv[1]);
    int fps = atoi(argv[2]);
    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (fd < 0) return fbdev(seconds, fps);
    drmModeRes *res = drmModeGetResources(fd);
    drmModeConnector *con = NULL;
    for (int i = 0; res && i < res->count_connectors && !con; i++) {
        con = drmModeGetConnector(fd, res->connectors[i]);
        if (con && (con->connection != DRM_MODE_CONNECTED || !con->count_modes)) { drmModeFreeConnector(con); con = NULL; }
    }
    if (!con) { fprintf(stderr, "flipfloor: no connected connector\n"); return 2; }
    drmModeModeInfo mode = con->modes[0];
    for (int i = 0; i < con->count_modes; i++) if (con->modes[i].type & DRM_MODE_TYPE_PREFERRED) { mode = con->modes[i]; break; }
    drmModeEncoder *enc = drmModeGetEncoder(fd, con->encoder_id ? con->encoder_id : con->encoders[0]);
    uint32_t crtc = enc && enc->crtc_id ? enc->crtc_id : res->crtcs[0];
    /* the mode the console already shows, when there is one (it follows the kernel's video=, as
     * vkms's 640x480 in the benchmark: its preferred mode is 1024x768) */
    drmModeCrtc *cur = enc && enc->crtc_id ? drmModeGetCrtc(fd, enc->crtc_id) : NULL;
    if (cur && cur->mode_valid) mode = cur->mode;
    struct buffer b[2];
    for (int i = 0; i < 2; i++)
        if (make_buffer(fd, mode.hdisplay, mode.vdisplay, &b[i])) { perror("flipfloor: dumb buffer"); return 2; }
    if (drmModeSetCrtc(fd, crtc, b[0].fb, 0, 0, &con->connector_id, 1, &mode)) { perror("flipfloor: SetCrtc"); return 2; }
    drmEventContext ev = { .version = 2, .page_flip_handler = flipped };
    uint32_t x = mode.hdisplay / 2 - 24, y = mode.vdisplay / 2 - 24;
    if (!fps) fps = mode.vrefresh ? (int)mode.vrefresh : 60;
    uint64_t interval = 1000000000u / (uint64_t)fps, t = now_ns(), end = t + (uint64_t)(seconds * 1e9);
    for (uint32_t n = 1; now_ns() < end; n++) {
        sleep_until(t += interval);
        struct buffer *back = &b[n % 2];
        draw_box(back->mem, back->pitch, x, y, n);
        int pending = 1;
        if (drmModePageFlip(fd, crtc, back->fb, DRM_MODE_PAGE_FLIP_EVENT, &pending)) { perror("flipfloor: PageFlip"); return 2; }
        while (pending) {
            struct pollfd p = { .fd = fd, .events = POLLIN };
            if (poll(&p, 1, 1000) > 0) drmHandleEvent(fd, &ev);
        }
    }
    return 0;
}
