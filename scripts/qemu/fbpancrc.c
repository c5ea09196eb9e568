// SPDX-License-Identifier: MIT
/* fbpancrc: does FBIOPAN_DISPLAY change what vkms shows? vkms has no QEMU display device (no
 * screendump), so this reads its per-vblank CRCs instead (see vkmscrc.c for the data file).
 *
 *   fbpancrc [FB [CARD]]      (defaults /dev/fb0, 0; needs drm_kms_helper.drm_fbdev_overalloc=200)
 *
 * Page 0 is filled magenta and page 1 with a pattern (quadrants), then: the CRC with page 0 shown
 * (M), the CRC after panning to y = yres (P), and, after page 0 is filled with the same pattern and
 * the display panned back to 0, the CRC again (Q). P == Q != M proves that the pan showed page 1,
 * bit for bit as page 0 would have shown it. Each pan and three FBIO_WAITFORVSYNC are timed (a
 * pan that is an atomic commit waits for the flip to complete at the vblank). Prints one line:
 *   fbpancrc: id=ID xres=W yres=H yres_virtual=V pan1=ok yoffset=N crc_page0=M crc_pan1=P
 *             crc_pattern_page0=Q shows=page1|page0|other pan_us=A,B vsync_us=X,Y,Z
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

static long now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (long)t.tv_sec * 1000000L + t.tv_nsec / 1000L;
}

/* 32 bpp only (vkms's fbdev is XRGB8888). pattern: quadrants red, green, blue, white. */
static void fill(uint8_t *page, uint32_t w, uint32_t h, uint32_t pitch, int pattern) {
    static const uint32_t quad[4] = {0xffff0000u, 0xff00ff00u, 0xff0000ffu, 0xffffffffu};
    for (uint32_t y = 0; y < h; y++) {
        uint32_t *row = (uint32_t *)(page + (size_t)y * pitch);
        for (uint32_t x = 0; x < w; x++)
            row[x] = pattern ? quad[(y >= h / 2) * 2 + (x >= w / 2)] : 0xffff00ffu;
    }
}

/* The CRC of the newest entry that arrives at least `wait_ms` from now (later vblanks only). */
static int latest_crc(int fd, int wait_ms, uint32_t *crc) {
    long end = now_us() + wait_ms * 1000L;
    char buf[64];
    int got = 0;
    while (now_us() < end || !got) {
        ssize_t n = read(fd, buf, sizeof buf - 1);
        if (n > 0) {
            buf[n] = 0;
            unsigned frame, value;
            if (sscanf(buf, "0x%x 0x%x", &frame, &value) == 2) { *crc = value; got = now_us() >= end; }
        } else if (n < 0 && errno != EAGAIN) {
            return -1;
        } else {
            usleep(2000);
        }
        if (now_us() > end + 5000000L) return -1;
    }
    return 0;
}

int main(int argc, char **argv) {
    const char *device = argc > 1 ? argv[1] : "/dev/fb0";
    int card = argc > 2 ? atoi(argv[2]) : 0;
    int fd = open(device, O_RDWR);
    struct fb_var_screeninfo var;
    struct fb_fix_screeninfo fix;
    if (fd < 0 || ioctl(fd, FBIOGET_VSCREENINFO, &var) < 0 || ioctl(fd, FBIOGET_FSCREENINFO, &fix) < 0) {
        fprintf(stderr, "fbpancrc: %s: %s\n", device, strerror(errno));
        return 2;
    }
    char id[17] = {0};
    memcpy(id, fix.id, 16);
    if (var.bits_per_pixel != 32 || var.yres_virtual < 2 * var.yres || fix.ypanstep == 0) {
        printf("fbpancrc: id=%s bpp=%u yres=%u yres_virtual=%u ypanstep=%u: no second page to pan to\n",
               id, var.bits_per_pixel, var.yres, var.yres_virtual, fix.ypanstep);
        return 3;
    }
    int tty = open("/dev/tty0", O_RDWR);
    if (tty < 0 || ioctl(tty, KDSETMODE, KD_GRAPHICS) < 0) fprintf(stderr, "fbpancrc: KD_GRAPHICS: %s\n", strerror(errno));
    uint8_t *fb = mmap(NULL, fix.smem_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (fb == MAP_FAILED) { fprintf(stderr, "fbpancrc: mmap: %s\n", strerror(errno)); return 2; }

    char path[128];
    snprintf(path, sizeof path, "/sys/kernel/debug/dri/%d/crtc-0/crc/control", card);
    int ctl = open(path, O_WRONLY);
    if (ctl < 0 || write(ctl, "auto", 4) != 4) { fprintf(stderr, "fbpancrc: %s: %s\n", path, strerror(errno)); return 2; }
    close(ctl);
    snprintf(path, sizeof path, "/sys/kernel/debug/dri/%d/crtc-0/crc/data", card);
    int crcfd = -1;
    for (int i = 0; i < 2000 && (crcfd = open(path, O_RDONLY | O_NONBLOCK)) < 0 && errno == EIO; i++) usleep(10000);
    if (crcfd < 0) { fprintf(stderr, "fbpancrc: %s: %s\n", path, strerror(errno)); return 2; }

    uint8_t *page1 = fb + (size_t)var.yres * fix.line_length;
    fill(fb, var.xres, var.yres, fix.line_length, 0);
    fill(page1, var.xres, var.yres, fix.line_length, 1);
    msync(fb, fix.smem_len, MS_SYNC);
    uint32_t m = 0, p = 0, q = 0;
    if (latest_crc(crcfd, 300, &m) < 0) { fprintf(stderr, "fbpancrc: no CRC\n"); return 2; }

    struct fb_var_screeninfo pan = var;
    pan.xoffset = 0;
    pan.yoffset = var.yres;
    long t0 = now_us();
    int pan_errno = ioctl(fd, FBIOPAN_DISPLAY, &pan) < 0 ? errno : 0;
    long pan1_us = now_us() - t0;
    struct fb_var_screeninfo after;
    ioctl(fd, FBIOGET_VSCREENINFO, &after);
    if (latest_crc(crcfd, 300, &p) < 0) { fprintf(stderr, "fbpancrc: no CRC\n"); return 2; }

    fill(fb, var.xres, var.yres, fix.line_length, 1);
    msync(fb, fix.smem_len, MS_SYNC);
    pan.yoffset = 0;
    t0 = now_us();
    ioctl(fd, FBIOPAN_DISPLAY, &pan);
    long pan0_us = now_us() - t0;
    if (latest_crc(crcfd, 300, &q) < 0) { fprintf(stderr, "fbpancrc: no CRC\n"); return 2; }

    long vs[3];
    uint32_t crtc = 0;
    int vs_errno = 0;
    for (int i = 0; i < 3; i++) {
        t0 = now_us();
        if (ioctl(fd, FBIO_WAITFORVSYNC, &crtc) < 0) vs_errno = errno;
        vs[i] = now_us() - t0;
    }
    const char *shows = p == q && p != m ? "page1" : p == m ? "page0" : "other";
    printf("fbpancrc: id=%s xres=%u yres=%u yres_virtual=%u pan1=%s yoffset=%u crc_page0=%08x crc_pan1=%08x "
           "crc_pattern_page0=%08x shows=%s pan_us=%ld,%ld vsync=%s vsync_us=%ld,%ld,%ld\n",
           id, var.xres, var.yres, var.yres_virtual, pan_errno ? strerror(pan_errno) : "ok", after.yoffset,
           m, p, q, shows, pan1_us, pan0_us, vs_errno ? strerror(vs_errno) : "ok", vs[0], vs[1], vs[2]);
    fflush(stdout);
    if (tty >= 0) ioctl(tty, KDSETMODE, KD_TEXT);
    return 0;
}
