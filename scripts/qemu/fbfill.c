/*
 * fbfill: the vmtest harness's smoke-test guest program.
 *
 * Opens /dev/fb0, prints its variable and fixed screen info as one "fbinfo:" line (the host parses
 * it), probes FBIOPAN_DISPLAY and FBIO_WAITFORVSYNC, switches the VT to graphics mode so fbcon's
 * cursor cannot draw over the pattern, fills the known pattern (see pattern_rgb, mirrored in
 * vmtest.py's expected_pattern), asks the host for a screendump with "SHOT pattern" on /dev/ttyS1
 * and exits 0. Any failure exits non-zero with the failing call and errno on stderr.
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
    uint32_t crtc = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int vs_rc = ioctl(fd, FBIO_WAITFORVSYNC, &crtc);
    int vs_errno = vs_rc < 0 ? errno : 0;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long vs_us = (long)((t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000L);

    char id[17] = {0};
    memcpy(id, fix.id, 16);
    for (char *c = id; *c; c++) if (*c == ' ') *c = '_';
    printf("fbinfo: id=%s xres=%u yres=%u xres_virtual=%u yres_virtual=%u xoffset=%u yoffset=%u "
           "bpp=%u grayscale=%u red=%u/%u green=%u/%u blue=%u/%u transp=%u/%u nonstd=%u "
           "line_length=%u smem_len=%u type=%u visual=%u ypanstep=%u ywrapstep=%u accel=%u "
           "pan_display=%s waitforvsync=%s vsync_us=%ld\n",
           id, var.xres, var.yres, var.xres_virtual, var.yres_virtual, var.xoffset, var.yoffset,
           var.bits_per_pixel, var.grayscale, var.red.offset, var.red.length, var.green.offset,
           var.green.length, var.blue.offset, var.blue.length, var.transp.offset, var.transp.length,
           var.nonstd, fix.line_length, fix.smem_len, fix.type, fix.visual, fix.ypanstep, fix.ywrapstep,
           fix.accel, errno_word(pan_errno), errno_word(vs_errno), vs_us);
    fflush(stdout);

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

    uint8_t *base = fb + (size_t)var.yoffset * fix.line_length + (size_t)var.xoffset * bytes_pp;
    for (uint32_t y = 0; y < var.yres; y++) {
        uint8_t *row = base + (size_t)y * fix.line_length;
        for (uint32_t x = 0; x < var.xres; x++) {
            uint8_t rgb[3];
            pattern_rgb(x, y, var.xres, var.yres, rgb);
            uint32_t px = pack_channel(rgb[0], &var.red) | pack_channel(rgb[1], &var.green) |
                          pack_channel(rgb[2], &var.blue) | pack_channel(255, &var.transp);
            /* The framebuffer is in the CPU's byte order. */
            switch (bytes_pp) {
            case 2: { uint16_t v = (uint16_t)px; memcpy(row + x * 2u, &v, 2); break; }
            case 3: row[x * 3u] = (uint8_t)px; row[x * 3u + 1u] = (uint8_t)(px >> 8); row[x * 3u + 2u] = (uint8_t)(px >> 16); break;
            default: memcpy(row + x * 4u, &px, 4); break;
            }
        }
    }
    /* DRM's fbdev emulation (bochs, virtio-gpu, cirrus) draws into a shadow buffer; deferred I/O
     * hands the damage to a worker that copies it to the scanout about 50 ms later. msync runs the
     * deferred-I/O step at once but nothing waits for the copy, so a short settle time follows.
     * FBFILL_FLUSH=pan|msync|both|none and FBFILL_SETTLE_MS=N vary this to see what a driver needs. */
    const char *flush = getenv("FBFILL_FLUSH");
    if (!flush) flush = "both";
    if (!strcmp(flush, "pan") || !strcmp(flush, "both")) ioctl(fd, FBIOPAN_DISPLAY, &pan);
    if (!strcmp(flush, "msync") || !strcmp(flush, "both")) msync(fb, map_len, MS_SYNC);
    const char *settle = getenv("FBFILL_SETTLE_MS");
    long settle_ms = settle ? atol(settle) : 200;
    struct timespec ts = {settle_ms / 1000, (settle_ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);

    /* "stable": the host dumps until two dumps agree (see the flush comment above). */
    const char *stable = getenv("FBFILL_STABLE");
    int rc = request_shot(stable && !strcmp(stable, "0") ? "pattern" : "pattern stable");
    munmap(fb, map_len);
    if (tty >= 0) ioctl(tty, KDSETMODE, KD_TEXT);
    close(fd);
    return rc;
}
