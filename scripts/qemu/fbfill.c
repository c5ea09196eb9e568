// SPDX-License-Identifier: MIT
/*
 * fbfill: the vmtest harness's smoke-test guest program.
 *
 * Opens /dev/fb0, prints its variable and fixed screen info as one "fbinfo:" line (the host parses
 * it), probes FBIOPAN_DISPLAY and FBIO_WAITFORVSYNC, switches the VT to graphics mode so fbcon's
 * cursor cannot draw over the pattern, fills the known pattern (see pattern_rgb, mirrored in
 * vmtest.py's expected_pattern), asks the host for a screendump with "SHOT pattern" on /dev/ttyS1
 * and exits 0. Any failure exits non-zero with the failing call and errno on stderr.
 *
 * FBIO_WAITFORVSYNC is timed, three times: DRM's fbdev emulation returns 0 without waiting when
 * the CRTC has no vblank interrupt, so only the durations say whether there is a vsync
 * (vsync_us=A,B,C; vsync_waits=yes when each took at least half a 60 Hz frame).
 *
 * The pan probe, when the virtual screen holds two pages (drm_kms_helper.drm_fbdev_overalloc=200):
 * page 0 is filled magenta and page 1 with the pattern, the display is panned to y = yres and the
 * host is asked for "SHOT pan1". The host then says which page the screen showed (vmtest.py
 * selftest's pan=... word): the pattern means panning works, magenta that the driver ignores the
 * offset, anything else that it pans to memory the pattern never reached. The fbinfo line carries
 * what the guest itself can see: pan1=<errno word> and the yoffset read back (pan1_yoffset).
 * Then it pans back to 0 and draws the pattern there, as without the probe.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fb.h>
#include <linux/kd.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#ifndef FBIO_WAITFORVSYNC
#define FBIO_WAITFORVSYNC _IOW('F', 0x20, uint32_t)
#endif

/* errno as a single word for the fbinfo line. */
static const char *errno_word(int e) {
    static char other[16];
    switch (e) {
    case 0: return "ok";
    case EINVAL: return "EINVAL";
    case ENOTTY: return "ENOTTY";
    case EFAULT: return "EFAULT";
    case EBUSY: return "EBUSY";
    case ENODEV: return "ENODEV";
    case ENOSYS: return "ENOSYS";
    case EOPNOTSUPP: return "EOPNOTSUPP";
    default: snprintf(other, sizeof other, "errno%d", e); return other;
    }
}

static long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000000L + t.tv_nsec / 1000L;
}

static int fail(const char *what) {
    fprintf(stderr, "fbfill: %s failed: %s (errno %d)\n", what, strerror(errno), errno);
    return 2;
}

/* The pattern, in 8-bit RGB: a grey gradient band across the middle (value = x * 255 / (w - 1)),
 * otherwise four quadrants: red top-left, green top-right, blue bottom-left, white bottom-right.
 * Keep in sync with expected_pattern() in vmtest.py. */
static void pattern_rgb(uint32_t x, uint32_t y, uint32_t w, uint32_t h, uint8_t rgb[3]) {
    uint32_t band = h / 16;
    if (y >= h / 2 - band && y < h / 2 + band) {
        uint8_t v = (uint8_t)((x * 255u) / (w - 1u));
        rgb[0] = rgb[1] = rgb[2] = v;
        return;
    }
    int right = x >= w / 2, bottom = y >= h / 2;
    static const uint8_t colours[4][3] = {{255, 0, 0}, {0, 255, 0}, {0, 0, 255}, {255, 255, 255}};
    memcpy(rgb, colours[bottom * 2 + right], 3);
}

/* Scales an 8-bit channel to the bitfield's length by truncation and shifts it into place. */
static uint32_t pack_channel(uint8_t value, const struct fb_bitfield *f) {
    if (f->length == 0) return 0;
    uint32_t v = f->length >= 8 ? ((uint32_t)value << (f->length - 8)) : ((uint32_t)value >> (8 - f->length));
    return v << f->offset;
}

/* Talks the line protocol on /dev/ttyS1: sends "SHOT name\n", waits for the host's "OK\n". */
static int request_shot(const char *name) {
    int fd = open("/dev/ttyS1", O_RDWR | O_NOCTTY);
    if (fd < 0) return fail("open /dev/ttyS1");
    char line[128];
    int n = snprintf(line, sizeof line, "SHOT %s\n", name);
    if (write(fd, line, (size_t)n) != n) return fail("write /dev/ttyS1");
    size_t got = 0;
    while (got < sizeof line - 1) {
        ssize_t r = read(fd, line + got, 1);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return fail("read /dev/ttyS1");
        if (line[got] == '\n') break;
        got++;
    }
    line[got] = 0;
    close(fd);
    if (strncmp(line, "OK", 2) != 0) {
        fprintf(stderr, "fbfill: host answered '%s' to SHOT %s\n", line, name);
        return 3;
    }
    return 0;
}

/* Fills the screen-sized page at `page` (its first row) with the pattern, or with `solid`. */
static void fill(uint8_t *page, const struct fb_var_screeninfo *var, const struct fb_fix_screeninfo *fix,
                 uint32_t bytes_pp, const uint8_t *solid) {
    for (uint32_t y = 0; y < var->yres; y++) {
        uint8_t *row = page + (size_t)y * fix->line_length;
        for (uint32_t x = 0; x < var->xres; x++) {
            uint8_t rgb[3];
            if (solid) memcpy(rgb, solid, 3);
            else pattern_rgb(x, y, var->xres, var->yres, rgb);
            uint32_t px = pack_channel(rgb[0], &var->red) | pack_channel(rgb[1], &var->green) |
                          pack_channel(rgb[2], &var->blue) | pack_channel(255, &var->transp);
            /* The framebuffer is in the CPU's byte order. */
            switch (bytes_pp) {
            case 2: { uint16_t v = (uint16_t)px; memcpy(row + x * 2u, &v, 2); break; }
            case 3: row[x * 3u] = (uint8_t)px; row[x * 3u + 1u] = (uint8_t)(px >> 8); row[x * 3u + 2u] = (uint8_t)(px >> 16); break;
            default: memcpy(row + x * 4u, &px, 4); break;
            }
        }
    }
}

/* Waits FBFILL_SETTLE_MS (default 200) for DRM emulation's damage worker (see main). */
static void settle(void) {
    const char *settle = getenv("FBFILL_SETTLE_MS");
    long settle_ms = settle ? atol(settle) : 200;
    struct timespec ts = {settle_ms / 1000, (settle_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

int main(int argc, char **argv) {
    const char *device = argc > 1 ? argv[1] : "/dev/fb0";
    int fd = open(device, O_RDWR);
    if (fd < 0) return fail("open framebuffer");
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0) return fail("FBIOGET_VSCREENINFO");
    if (ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) return fail("FBIOGET_FSCREENINFO");

    /* Graphics mode on the VT: fbcon stops drawing (cursor blink, messages) on the framebuffer. */
    int tty = open("/dev/tty0", O_RDWR);
    if (tty < 0 || ioctl(tty, KDSETMODE, KD_GRAPHICS) < 0) fprintf(stderr, "fbfill: KD_GRAPHICS: %s\n", strerror(errno));
    ioctl(fd, FBIOBLANK, FB_BLANK_UNBLANK);

    struct fb_var_screeninfo pan = var;
    pan.xoffset = 0;
    pan.yoffset = 0;
    int pan_rc = ioctl(fd, FBIOPAN_DISPLAY, &pan);
    int pan_errno = pan_rc < 0 ? errno : 0;
    /* Three timed waits: a 0 return proves nothing (see the header), a wait of half a frame does. */
    uint32_t crtc = 0;
    long vs_us[3] = {-1, -1, -1};
    int vs_errno = 0, vs_waits = 1;
    for (int i = 0; i < 3 && vs_errno == 0; i++) {
        long t0 = now_us();
        if (ioctl(fd, FBIO_WAITFORVSYNC, &crtc) < 0) vs_errno = errno;
        vs_us[i] = now_us() - t0;
        if (vs_errno != 0 || vs_us[i] < 16667 / 2) vs_waits = 0;
    }

    if (fix.visual != FB_VISUAL_TRUECOLOR && fix.visual != FB_VISUAL_DIRECTCOLOR) {
        fprintf(stderr, "fbfill: visual %u is not truecolor\n", fix.visual);
        return 4;
    }
    uint32_t bytes_pp = (var.bits_per_pixel + 7u) / 8u;
    if (bytes_pp < 2 || bytes_pp > 4) {
        fprintf(stderr, "fbfill: %u bits per pixel is not supported\n", var.bits_per_pixel);
        return 4;
    }
    size_t map_len = fix.smem_len;
    uint8_t *fb = mmap(NULL, map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (fb == MAP_FAILED) return fail("mmap framebuffer");

    /* The pan probe (see the header): only where a second page fits in the virtual screen and memory. */
    const char *pan1 = "none";
    long pan1_yoffset = -1;
    int rc = 0;
    if (fix.ypanstep != 0 && var.yres % fix.ypanstep == 0 && var.yres_virtual >= 2u * var.yres &&
        (size_t)2u * var.yres * fix.line_length <= map_len) {
        uint8_t magenta[3] = {255, 0, 255};
        fill(fb, &var, &fix, bytes_pp, magenta);
        fill(fb + (size_t)var.yres * fix.line_length, &var, &fix, bytes_pp, NULL);
        msync(fb, map_len, MS_SYNC);
        struct fb_var_screeninfo page1 = var;
        page1.xoffset = 0;
        page1.yoffset = var.yres;
        pan1 = ioctl(fd, FBIOPAN_DISPLAY, &page1) < 0 ? errno_word(errno) : "ok";
        struct fb_var_screeninfo after;
        if (ioctl(fd, FBIOGET_VSCREENINFO, &after) == 0) pan1_yoffset = after.yoffset;
        settle();
        rc = request_shot("pan1 stable");
        if (ioctl(fd, FBIOPAN_DISPLAY, &pan) < 0) fprintf(stderr, "fbfill: pan back to 0: %s\n", strerror(errno));
    }

    char id[17] = {0};
    memcpy(id, fix.id, 16);
    for (char *c = id; *c; c++) if (*c == ' ') *c = '_';
    printf("fbinfo: id=%s xres=%u yres=%u xres_virtual=%u yres_virtual=%u xoffset=%u yoffset=%u "
           "bpp=%u grayscale=%u red=%u/%u green=%u/%u blue=%u/%u transp=%u/%u nonstd=%u "
           "line_length=%u smem_len=%u type=%u visual=%u ypanstep=%u ywrapstep=%u accel=%u "
           "pan_display=%s waitforvsync=%s vsync_us=%ld,%ld,%ld vsync_waits=%s pan1=%s pan1_yoffset=%ld\n",
           id, var.xres, var.yres, var.xres_virtual, var.yres_virtual, var.xoffset, var.yoffset,
           var.bits_per_pixel, var.grayscale, var.red.offset, var.red.length, var.green.offset,
           var.green.length, var.blue.offset, var.blue.length, var.transp.offset, var.transp.length,
           var.nonstd, fix.line_length, fix.smem_len, fix.type, fix.visual, fix.ypanstep, fix.ywrapstep,
           fix.accel, errno_word(pan_errno), errno_word(vs_errno), vs_us[0], vs_us[1], vs_us[2],
           vs_waits ? "yes" : "no", pan1, pan1_yoffset);
    fflush(stdout);
    if (rc != 0) return rc;

    fill(fb + (size_t)var.yoffset * fix.line_length + (size_t)var.xoffset * bytes_pp, &var, &fix, bytes_pp, NULL);
    /* DRM's fbdev emulation (bochs, virtio-gpu, cirrus) draws into a shadow buffer; deferred I/O
     * hands the damage to a worker that copies it to the scanout about 50 ms later. msync runs the
     * deferred-I/O step at once but nothing waits for the copy, so a short settle time follows.
     * FBFILL_FLUSH=pan|msync|both|none and FBFILL_SETTLE_MS=N vary this to see what a driver needs. */
    const char *flush = getenv("FBFILL_FLUSH");
    if (!flush) flush = "both";
    if (!strcmp(flush, "pan") || !strcmp(flush, "both")) ioctl(fd, FBIOPAN_DISPLAY, &pan);
    if (!strcmp(flush, "msync") || !strcmp(flush, "both")) msync(fb, map_len, MS_SYNC);
    settle();

    /* "stable": the host dumps until two dumps agree (see the flush comment above). */
    const char *stable = getenv("FBFILL_STABLE");
    rc = request_shot(stable && !strcmp(stable, "0") ? "pattern" : "pattern stable");
    munmap(fb, map_len);
    if (tty >= 0) ioctl(tty, KDSETMODE, KD_TEXT);
    close(fd);
    return rc;
}
