// SPDX-License-Identifier: MIT
/*
 * scanpoll: the guest side of scripts/bench/against-plymouth.py. It watches what the display
 * really scans out, from inside the guest, and times processes.
 *
 * Built static on the host: gcc -O2 -static -I/usr/include/libdrm scanpoll.c -ldrm -o scanpoll
 *
 *   scanpoll first TIMEOUT_S CMD [ARG...]
 *       Samples the scanout (the baseline: the cleared console), forks and execs CMD, and polls the
 *       scanout until it differs from the baseline in at least MIN_CHANGED sampled pixels: the first
 *       visible frame. Prints "first_ms=T start_exit_ms=T2" (T2: when CMD itself exited).
 *   scanpoll count SECONDS PID
 *       For SECONDS, counts the changes of the scanout's content (a new picture in the buffer the
 *       CRTC scans out, or in /dev/fb0) and the CPU ticks PID used (utime and stime from
 *       /proc/PID/stat), and its time on the CPU by the scheduler's clock (/proc/PID/schedstat,
 *       ns: ticks are sampled at HZ, which aliases with an animation's frame rate). It first spends CALIBRATE_MS finding the box that changes (the spinner), then
 *       polls only that box, every pixel, about every millisecond; with nothing changing it polls
 *       the whole screen (sampled) every 10 ms. Prints one key=value line.
 *   scanpoll time N CMD [ARG...]
 *       Runs CMD N times one after the other; prints each wall time from fork to exit (ms) and
 *       the median.
 *   scanpoll prompt TTY TEXT CMD [ARG...]
 *       A passphrase prompt: samples the scanout, forks CMD (a client asking for a passphrase) with
 *       its stdout on a pipe, polls until at least PROMPT_CHANGED sampled pixels differ (the prompt
 *       is on screen: far more than a spinner's turn changes), types TEXT into TTY (TIOCSTI: the
 *       tty's input queue, where the keyboard's bytes land after the kernel's keymap) one key
 *       every KEY_GAP_MS, timing each key to its bullet: the first scanout in which BULLET_CHANGED
 *       pixels of the prompt's box (where the prompt changed the screen) differ from the picture
 *       before the key, leaving out the box's pixels that changed by themselves over a second
 *       before the first key (an animation beside the prompt). Then Enter, timed to CMD's answer on its stdout. Prints "prompt_ms=T
 *       answer_ms=T2 answer_ok=1 key_median_ms=K key_p99_ms=K99 key_box_moving_px=M keys=N
 *       key_ms=K1,K2,...".
 *
 * DRM: opens /dev/dri/card0, drops the DRM master it may have got by being first (so the splash
 * under test can take it), reads the CRTC's current framebuffer (drmModeGetCrtc, drmModeGetFB: as
 * root this gives a GEM handle to another client's buffer) and maps it with MAP_DUMB. A page flip
 * changes the fb id; each new id is mapped once. fbdev (vesafb): mmaps /dev/fb0.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fb.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#define MIN_CHANGED 40     /* sampled pixels that must differ for "a frame is visible" */
#define PROMPT_CHANGED 800 /* ... for "a prompt is on screen" */
#define SAMPLE_X 2         /* full-screen sampling stride */
#define SAMPLE_Y 3
#define CALIBRATE_MS 1000
#define BULLET_CHANGED 4   /* pixels of the prompt's box that must differ for "the bullet is drawn" */
#define KEY_GAP_MS 150     /* between two keys: each key's frame stands alone */
#define MAX_KEYS 64
#define MAX_FBS 16

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void sleep_ms(double ms) {
    struct timespec ts = { (time_t)(ms / 1000), (long)((ms - (time_t)(ms / 1000) * 1000) * 1e6) };
    nanosleep(&ts, NULL);
}

/* ---- the scanout ---- */

struct mapped { uint32_t fb_id; uint8_t *mem; size_t size; uint32_t w, h, pitch, bpp; };

static int drm_fd = -1, fb_fd = -1;
static uint32_t crtc_id;
static int refresh_hz; /* the CRTC's mode (DRM), 0 when unknown */
static struct mapped fbs[MAX_FBS];
static int nfbs;
static struct mapped fbdev;

static int open_scanout(void) {
    drm_fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (drm_fd >= 0) {
        drmDropMaster(drm_fd); /* the first opener becomes master; the splash under test needs it */
        drmModeRes *res = drmModeGetResources(drm_fd);
        if (!res) { perror("scanpoll: drmModeGetResources"); return -1; }
        for (int i = 0; i < res->count_crtcs && !crtc_id; i++) {
            drmModeCrtc *c = drmModeGetCrtc(drm_fd, res->crtcs[i]);
            if (c && c->buffer_id) { crtc_id = c->crtc_id; refresh_hz = c->mode_valid ? (int)c->mode.vrefresh : 0; }
            drmModeFreeCrtc(c);
        }
        if (!crtc_id && res->count_crtcs) crtc_id = res->crtcs[0];
        drmModeFreeResources(res);
        return 0;
    }
    fb_fd = open("/dev/fb0", O_RDWR | O_CLOEXEC);
    if (fb_fd < 0) { perror("scanpoll: no /dev/dri/card0 nor /dev/fb0"); return -1; }
    struct fb_var_screeninfo v; struct fb_fix_screeninfo f;
    if (ioctl(fb_fd, FBIOGET_VSCREENINFO, &v) || ioctl(fb_fd, FBIOGET_FSCREENINFO, &f)) { perror("scanpoll: fb ioctl"); return -1; }
    fbdev.w = v.xres; fbdev.h = v.yres; fbdev.pitch = f.line_length; fbdev.bpp = v.bits_per_pixel;
    fbdev.size = f.smem_len;
    fbdev.mem = mmap(NULL, fbdev.size, PROT_READ, MAP_SHARED, fb_fd, 0);
    if (fbdev.mem == MAP_FAILED) { perror("scanpoll: mmap fb0"); return -1; }
    return 0;
}

/* The buffer on screen now (NULL while the CRTC shows none, or it cannot be mapped). */
static struct mapped *current(void) {
    if (fb_fd >= 0) return &fbdev;
    drmModeCrtc *c = drmModeGetCrtc(drm_fd, crtc_id);
    if (!c) return NULL;
    uint32_t id = c->buffer_id;
    if (c->mode_valid) refresh_hz = c->mode.vrefresh;
    drmModeFreeCrtc(c);
    if (!id) return NULL;
    for (int i = 0; i < nfbs; i++) if (fbs[i].fb_id == id) return &fbs[i];
    drmModeFB *fb = drmModeGetFB(drm_fd, id);
    if (!fb) return NULL;
    struct mapped m = { .fb_id = id, .w = fb->width, .h = fb->height, .pitch = fb->pitch, .bpp = fb->bpp };
    struct drm_mode_map_dumb map = { .handle = fb->handle };
    int ok = fb->handle && drmIoctl(drm_fd, DRM_IOCTL_MODE_MAP_DUMB, &map) == 0;
    if (ok) {
        m.size = (size_t)m.pitch * m.h;
        m.mem = mmap(NULL, m.size, PROT_READ, MAP_SHARED, drm_fd, map.offset);
        ok = m.mem != MAP_FAILED;
    }
    if (fb->handle) { struct drm_gem_close cl = { .handle = fb->handle }; drmIoctl(drm_fd, DRM_IOCTL_GEM_CLOSE, &cl); }
    drmModeFreeFB(fb);
    if (!ok) return NULL;
    if (nfbs == MAX_FBS) { munmap(fbs[0].mem, fbs[0].size); memmove(fbs, fbs + 1, sizeof fbs[0] * (MAX_FBS - 1)); nfbs--; }
    fbs[nfbs] = m;
    return &fbs[nfbs++];
}

static inline uint32_t pixel(const struct mapped *m, uint32_t x, uint32_t y) {
    const uint8_t *p = m->mem + (size_t)y * m->pitch + (size_t)x * (m->bpp / 8);
    switch (m->bpp) {
    case 32: return *(const volatile uint32_t *)p & 0xffffff;
    case 24: return p[0] | p[1] << 8 | p[2] << 16;
    default: return *(const volatile uint16_t *)p;
    }
}

/* Samples the whole screen into out (stride SAMPLE_X x SAMPLE_Y); returns the sample count. */
static size_t sample(const struct mapped *m, uint32_t *out, size_t cap) {
    size_t n = 0;
    for (uint32_t y = 0; y < m->h; y += SAMPLE_Y)
        for (uint32_t x = 0; x < m->w && n < cap; x += SAMPLE_X) out[n++] = pixel(m, x, y);
    return n;
}

static uint64_t hash_box(const struct mapped *m, uint32_t x0, uint32_t y0, uint32_t x1, uint32_t y1) {
    uint64_t h = 1469598103934665603ULL;
    for (uint32_t y = y0; y < y1 && y < m->h; y++)
        for (uint32_t x = x0; x < x1 && x < m->w; x++) h = (h ^ pixel(m, x, y)) * 1099511628211ULL;
    return h;
}

/* ---- /proc ---- */

/* Reads /proc/PID/NAME into buf (NUL-terminated); -1 when it cannot. */
static int read_proc(int pid, const char *name, char *buf, size_t size) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/%s", pid, name);
    int fd = open(path, O_RDONLY);
    if (fd < 0) return -1;
    ssize_t n = read(fd, buf, size - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    return 0;
}

static int proc_ticks(int pid, long *ut, long *st) {
    char buf[1024];
    if (read_proc(pid, "stat", buf, sizeof buf)) return -1;
    char *p = strrchr(buf, ')'); /* comm may hold spaces */
    if (!p) return -1;
    /* after ")": state(3) ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime(14) stime(15) */
    return sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %ld %ld", ut, st) == 2 ? 0 : -1;
}

/* Nanoseconds PID has run on the CPU (the first field of /proc/PID/schedstat), -1 without it. */
static long long proc_runtime_ns(int pid) {
    char buf[128];
    long long ns;
    return read_proc(pid, "schedstat", buf, sizeof buf) == 0 && sscanf(buf, "%lld", &ns) == 1 ? ns : -1;
}

static pid_t spawn(char **argv) {
    pid_t pid = fork();
    if (pid == 0) {
        execvp(argv[0], argv);
        perror("scanpoll: exec");
        _exit(127);
    }
    return pid;
}

/* ---- commands ---- */

static int cmd_first(double timeout_s, char **argv) {
    if (open_scanout()) return 2;
    static uint32_t base[1 << 22], cur[1 << 22];
    struct mapped *m = current();
    size_t nbase = m ? sample(m, base, 1 << 22) : 0;
    uint32_t base_id = m ? m->fb_id : 0;
    double t0 = now_ms();
    pid_t child = spawn(argv);
    double first = -1, child_exit = -1;
    int status = 0;
    while (now_ms() - t0 < timeout_s * 1e3) {
        if (child_exit < 0 && waitpid(child, &status, WNOHANG) == child) child_exit = now_ms() - t0;
        m = current();
        if (m) {
            size_t n = sample(m, cur, 1 << 22), changed = 0;
            if (n != nbase) changed = MIN_CHANGED; /* another mode: something new is on screen */
            else for (size_t i = 0; i < n && changed < MIN_CHANGED; i++) changed += cur[i] != base[i];
            if (changed >= MIN_CHANGED) { first = now_ms() - t0; break; }
        }
        sleep_ms(0.5);
    }
    if (child_exit < 0) {
        double t = now_ms();
        while (now_ms() - t < 30e3) {
            if (waitpid(child, &status, WNOHANG) == child) { child_exit = now_ms() - t0; break; }
            sleep_ms(1);
        }
    }
    printf("first_ms=%.1f start_exit_ms=%.1f start_status=%d fb_changed=%d\n", first, child_exit,
           WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), m ? m->fb_id != base_id : -1);
    return first < 0;
}

static int cmd_count(double seconds, int pid) {
    if (open_scanout()) return 2;
    static uint32_t a[1 << 22], b[1 << 22];
    /* calibration: the box of pixels that change */
    uint32_t x0 = UINT32_MAX, y0 = UINT32_MAX, x1 = 0, y1 = 0, w = 0, h = 0;
    struct mapped *m = current();
    if (m) sample(m, a, 1 << 22);
    double c0 = now_ms();
    while (m && now_ms() - c0 < CALIBRATE_MS) {
        sleep_ms(20);
        struct mapped *n = current();
        if (!n) continue;
        if (n->w != m->w || n->h != m->h) { m = n; sample(m, a, 1 << 22); continue; }
        m = n; w = m->w; h = m->h;
        size_t cnt = sample(m, b, 1 << 22), i = 0;
        for (uint32_t y = 0; y < h; y += SAMPLE_Y)
            for (uint32_t x = 0; x < w && i < cnt; x += SAMPLE_X, i++)
                if (a[i] != b[i]) {
                    if (x < x0) x0 = x;
                    if (y < y0) y0 = y;
                    if (x > x1) x1 = x;
                    if (y > y1) y1 = y;
                }
        memcpy(a, b, cnt * sizeof *a);
    }
    int boxed = x0 != UINT32_MAX;
    if (boxed) { /* pad by the sampling stride */
        x0 = x0 > SAMPLE_X ? x0 - SAMPLE_X : 0; y0 = y0 > SAMPLE_Y ? y0 - SAMPLE_Y : 0;
        x1 = x1 + SAMPLE_X + 1 < w ? x1 + SAMPLE_X + 1 : w; y1 = y1 + SAMPLE_Y + 1 < h ? y1 + SAMPLE_Y + 1 : h;
    }
    long u0 = -1, s0 = -1, u1 = -1, s1 = -1, pu0 = 0, ps0 = 0, pu1 = 0, ps1 = 0;
    proc_ticks(pid, &u0, &s0);
    long long run0 = proc_runtime_ns(pid);
    proc_ticks(getpid(), &pu0, &ps0);
    double t0 = now_ms(), t = t0, last_change = -1, first_change = -1;
    uint64_t last = 0;
    long changes = 0, polls = 0, fb_switches = 0;
    uint32_t last_id = 0;
    int have = 0;
    while ((t = now_ms()) - t0 < seconds * 1e3) {
        m = current();
        if (m) {
            uint64_t hv;
            if (boxed) hv = hash_box(m, x0, y0, x1, y1);
            else { size_t n = sample(m, b, 1 << 22); hv = 1469598103934665603ULL; for (size_t i = 0; i < n; i++) hv = (hv ^ b[i]) * 1099511628211ULL; }
            if (have && m->fb_id != last_id) fb_switches++;
            if (have && hv != last) { changes++; if (first_change < 0) first_change = t - t0; last_change = t - t0; }
            last = hv; last_id = m->fb_id; have = 1;
        }
        polls++;
        sleep_ms(boxed ? 1 : 10);
    }
    double elapsed = now_ms() - t0;
    proc_ticks(pid, &u1, &s1);
    long long run1 = proc_runtime_ns(pid);
    proc_ticks(getpid(), &pu1, &ps1);
    long hz = sysconf(_SC_CLK_TCK);
    printf("seconds=%.3f utime=%ld stime=%ld changes=%ld fps=%.2f polls=%ld poll_ms=%.2f fb_switches=%ld box=%s%u,%u-%u,%u poller_ticks=%ld hz=%ld alive=%d refresh=%d cpu_ms=%.1f size=%ux%u\n",
           elapsed / 1e3, u1 - u0, s1 - s0, changes, changes / (elapsed / 1e3), polls, elapsed / (polls ? polls : 1),
           fb_switches, boxed ? "" : "none:", boxed ? x0 : 0, boxed ? y0 : 0, boxed ? x1 : w, boxed ? y1 : h,
           (pu1 - pu0) + (ps1 - ps0), hz, u1 >= 0, refresh_hz, run0 >= 0 && run1 >= run0 ? (run1 - run0) / 1e6 : -1.0, w, h);
    (void)first_change; (void)last_change;
    return u1 < 0;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static int cmd_time(int n, char **argv) {
    double ms[256];
    int bad = 0;
    if (n > 256) n = 256;
    printf("samples_ms=");
    for (int i = 0; i < n; i++) {
        double t0 = now_ms();
        pid_t pid = spawn(argv);
        int status = 0;
        waitpid(pid, &status, 0);
        ms[i] = now_ms() - t0;
        if (!WIFEXITED(status) || WEXITSTATUS(status)) bad++;
        printf("%s%.1f", i ? "," : "", ms[i]);
        fflush(stdout);
    }
    qsort(ms, n, sizeof ms[0], cmp_double);
    printf(" median_ms=%.1f failed=%d\n", n % 2 ? ms[n / 2] : (ms[n / 2 - 1] + ms[n / 2]) / 2, bad);
    return bad != 0;
}

/* The box, in pixels, where the scanout differs from `base` (sampled as sample() samples). */
static int changed_box(const struct mapped *m, const uint32_t *base, size_t n, uint32_t box[4]) {
    size_t i = 0;
    int any = 0;
    box[0] = m->w; box[1] = m->h; box[2] = 0; box[3] = 0;
    for (uint32_t y = 0; y < m->h; y += SAMPLE_Y)
        for (uint32_t x = 0; x < m->w && i < n; x += SAMPLE_X, i++)
            if (pixel(m, x, y) != base[i]) {
                any = 1;
                if (x < box[0]) box[0] = x;
                if (y < box[1]) box[1] = y;
                if (x + SAMPLE_X > box[2]) box[2] = x + SAMPLE_X;
                if (y + SAMPLE_Y > box[3]) box[3] = y + SAMPLE_Y;
            }
    return any;
}

/* Every pixel of the box, row by row. */
static size_t copy_box(const struct mapped *m, const uint32_t box[4], uint32_t *out, size_t cap) {
    size_t n = 0;
    for (uint32_t y = box[1]; y < box[3] && y < m->h; y++)
        for (uint32_t x = box[0]; x < box[2] && x < m->w && n < cap; x++) out[n++] = pixel(m, x, y);
    return n;
}

/* Marks in `moving` the box's pixels that change by themselves (an animation: Plymouth's
 * throbber turns beside its prompt) over `ms` with no key pressed; returns how many. */
static size_t mark_moving(const uint32_t box[4], const uint32_t *before, size_t n, uint32_t *scratch, uint8_t *moving, double ms) {
    size_t count = 0;
    memset(moving, 0, n);
    double t0 = now_ms();
    while (now_ms() - t0 < ms) {
        struct mapped *c = current();
        size_t k = c ? copy_box(c, box, scratch, n) : 0;
        for (size_t i = 0; i < k; i++)
            if (!moving[i] && scratch[i] != before[i]) { moving[i] = 1; count++; }
        sleep_ms(1);
    }
    return count;
}

/* The ms from now to the first scanout whose box differs from `before` in BULLET_CHANGED pixels
 * that do not move by themselves (-1 after `limit_ms`). */
static double time_to_change(const uint32_t box[4], const uint32_t *before, size_t n, uint32_t *scratch,
                             const uint8_t *moving, double limit_ms) {
    double t0 = now_ms();
    while (now_ms() - t0 < limit_ms) {
        struct mapped *c = current();
        if (c) {
            size_t k = copy_box(c, box, scratch, n), diff = 0;
            for (size_t i = 0; i < k; i++) diff += !moving[i] && scratch[i] != before[i];
            if (diff >= BULLET_CHANGED) return now_ms() - t0;
        }
        sleep_ms(0.25);
    }
    return -1;
}

static int cmd_prompt(const char *tty, const char *text, char **argv) {
    if (open_scanout()) return 2;
    static uint32_t base[1 << 22], now[1 << 22];
    struct mapped *m = current();
    size_t n = m ? sample(m, base, 1 << 22) : 0;
    int ttyfd = open(tty, O_RDWR | O_NOCTTY), out[2];
    if (ttyfd < 0 || pipe(out)) { printf("error=%s\n", strerror(errno)); return 1; }
    double t0 = now_ms(), shown = -1;
    pid_t pid = fork();
    if (pid == 0) { dup2(out[1], 1); close(out[0]); close(out[1]); execvp(argv[0], argv); _exit(127); }
    close(out[1]);
    while (now_ms() - t0 < 30e3) {
        struct mapped *c = current();
        if (c && c->w == m->w && c->h == m->h) {
            size_t k = sample(c, now, 1 << 22), diff = 0;
            for (size_t i = 0; i < k && i < n; i++) diff += now[i] != base[i];
            if (diff >= PROMPT_CHANGED) { shown = now_ms() - t0; break; }
        }
        sleep_ms(1);
    }
    sleep_ms(300);
    static uint32_t before[1 << 22], scratch[1 << 22];
    uint32_t box[4];
    struct mapped *c = current();
    double keys[MAX_KEYS];
    int nkeys = 0;
    /* What moves in the box with no key pressed (an animation) is left out of the comparison. */
    static uint8_t moving[1 << 22];
    size_t animated = 0;
    int have_box = shown >= 0 && c && changed_box(c, base, n, box);
    if (have_box) {
        size_t k = copy_box(c, box, before, 1 << 22);
        animated = mark_moving(box, before, k, scratch, moving, 1000);
    }
    if (have_box) {
        for (const char *p = text; *p; p++) {
            c = current();
            size_t k = c ? copy_box(c, box, before, 1 << 22) : 0;
            ioctl(ttyfd, TIOCSTI, p);
            double t = k ? time_to_change(box, before, k, scratch, moving, 5e3) : -1;
            if (nkeys < MAX_KEYS) keys[nkeys++] = t;
            sleep_ms(KEY_GAP_MS);
        }
    } else {
        for (const char *p = text; *p; p++) ioctl(ttyfd, TIOCSTI, p);
    }
    sleep_ms(500);
    double t1 = now_ms();
    ioctl(ttyfd, TIOCSTI, "\r");
    char got[256];
    size_t len = 0;
    ssize_t r;
    while ((r = read(out[0], got + len, sizeof got - 1 - len)) > 0) len += r;
    double answered = now_ms() - t1;
    got[len] = 0;
    waitpid(pid, NULL, 0);
    printf("prompt_ms=%.1f answer_ms=%.1f answer_ok=%d", shown, answered, !strcmp(got, text));
    double sorted[MAX_KEYS];
    int good = 0;
    for (int i = 0; i < nkeys; i++) if (keys[i] >= 0) sorted[good++] = keys[i];
    if (good) {
        qsort(sorted, good, sizeof sorted[0], cmp_double);
        int p99 = (int)(0.99 * (good - 1) + 0.5);
        printf(" key_median_ms=%.1f key_p99_ms=%.1f", good % 2 ? sorted[good / 2] : (sorted[good / 2 - 1] + sorted[good / 2]) / 2, sorted[p99]);
    }
    printf(" key_box_moving_px=%zu keys=%d key_ms=", animated, nkeys);
    for (int i = 0; i < nkeys; i++) printf("%s%.1f", i ? "," : "", keys[i]);
    printf("\n");
    return shown < 0;
}

int main(int argc, char **argv) {
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGPIPE, SIG_IGN);
    if (argc >= 4 && !strcmp(argv[1], "first")) return cmd_first(atof(argv[2]), argv + 3);
    if (argc == 4 && !strcmp(argv[1], "count")) return cmd_count(atof(argv[2]), atoi(argv[3]));
    if (argc >= 4 && !strcmp(argv[1], "time")) return cmd_time(atoi(argv[2]), argv + 3);
    if (argc >= 5 && !strcmp(argv[1], "prompt")) return cmd_prompt(argv[2], argv[3], argv + 4);
    fprintf(stderr, "usage: scanpoll first TIMEOUT_S CMD [ARG...] | count SECONDS PID | time N CMD [ARG...] | prompt TTY TEXT CMD [ARG...]\n");
    return 64;
}
