// SPDX-License-Identifier: MIT
/* vkmscrc: vkms's per-vblank CRCs read in the guest, and the floor they are compared with.
 *
 *   vkmscrc capture NAME SETTLE SECONDS [CARD]
 *       Opens /sys/kernel/debug/dri/CARD/crtc-0/crc (CARD 0 by default): writes "auto" to control
 *       and opens data, retrying while the CRTC is off (the kernel answers EIO until a program has
 *       set a mode). Drops what comes in the first SETTLE seconds, then reads SECONDS of entries and
 *       prints one summary line:
 *         CRC NAME entries N span S gaps G changes C distinct D intervals I1:n1,I2:n2,... first F
 *       N entries over S vblanks (last frame - first + 1; G vblanks missing, the kernel's
 *       128-entry queue overflowed), C of them with a CRC other than the previous entry's, D distinct
 *       CRCs, and how many vblanks lay between consecutive changes (4:70: seventy changes came 4
 *       vblanks after the one before). With CRC_LOG set, every entry kept ("FRAME CRC" in hex)
 *       goes to that file too.
 *   vkmscrc floor SECONDS [WxH]
 *       The plain C floor: sets WxH (default: the preferred mode) on the first connected connector
 *       with two dumb buffers and flips at every vblank: each flip's event (vkms completes a flip at
 *       the vblank) draws the next frame of a small turning bar into the other buffer and queues its
 *       flip at once. No timer, no rasterizer: what an emulated CPU leaves of 60 changes a second.
 *   vkmscrc status SOCKET COUNT TEXT...
 *       COUNT `status` requests on the daemon's control socket, one every ~0.3 s, the texts taken
 *       in turn, each posted at another point of a refresh (offset i * 0.618 of the period, modulo
 *       1: spread over the whole frame): after a vblank (drmWaitVBlank), a sleep to that offset,
 *       then a query of the last vblank's count and time stamp, then the request. Prints, per
 *       request, once its `ok` came back:
 *         SENT I VBLANK VBLANK_NS SEND_NS
 *       the vblank before the request and when it was, and when the request was written
 *       (CLOCK_MONOTONIC, as DRM stamps vblanks): the host finds the vblank whose CRC first shows
 *       the new text.
 *
 * The data file gives one entry per read(2): "0x%08x" vblank count, " 0x%08x" per CRC value
 * (vkms has one), "\n" and a NUL (drm_debugfs_crc.c's LINE_LEN). C, libdrm. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static double now_s(void) { return (double)now_ns() / 1e9; }

#define MAX_ENTRIES 4096
static uint32_t frames[MAX_ENTRIES], crcs[MAX_ENTRIES];

static int capture(const char *name, double settle, double seconds, int card) {
    char dir[128], path[160];
    snprintf(dir, sizeof dir, "/sys/kernel/debug/dri/%d/crtc-0/crc", card);
    snprintf(path, sizeof path, "%s/control", dir);
    int ctl = open(path, O_WRONLY);
    if (ctl < 0 || write(ctl, "auto", 4) != 4) { fprintf(stderr, "vkmscrc: %s: %s\n", path, strerror(errno)); return 2; }
    close(ctl);
    snprintf(path, sizeof path, "%s/data", dir);
    int fd = -1;
    double start = now_s();
    while ((fd = open(path, O_RDONLY | O_NONBLOCK)) < 0) { /* EIO while no mode is set */
        if (errno != EIO || now_s() - start > 20) { fprintf(stderr, "vkmscrc: %s: %s\n", path, strerror(errno)); return 2; }
        usleep(10000);
    }
    FILE *log = getenv("CRC_LOG") ? fopen(getenv("CRC_LOG"), "w") : NULL;
    double begin = now_s() + settle, end = begin + seconds;
    int n = 0;
    char buf[256];
    for (double t = now_s(); t < end && n < MAX_ENTRIES; t = now_s()) {
        struct pollfd p = { .fd = fd, .events = POLLIN };
        int ms = (int)((end - t) * 1000) + 1;
        if (poll(&p, 1, ms) <= 0) continue;
        ssize_t r = read(fd, buf, sizeof buf - 1);
        if (r < 0 && (errno == EAGAIN || errno == EINTR)) continue;
        if (r <= 0) { fprintf(stderr, "vkmscrc: read %s: %s\n", path, r ? strerror(errno) : "end of file"); break; }
        buf[r] = 0;
        unsigned frame, crc;
        if (sscanf(buf, "%x %x", &frame, &crc) != 2) { fprintf(stderr, "vkmscrc: bad entry '%s'\n", buf); continue; }
        if (now_s() < begin) continue;
        if (log) fprintf(log, "%u %08x\n", frame, crc);
        frames[n] = frame; crcs[n] = crc; n++;
    }
    close(fd);
    if (log) fclose(log);
    if (!n) { printf("CRC %s entries 0\n", name); return 1; }
    /* Changes, the vblanks between them, distinct values (a small table: n is a few hundred). */
    int changes = 0, distinct = 0, hist_n = 0;
    uint32_t hist_k[64], hist_v[64], last_change = frames[0];
    int have_change = 0;
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i && !seen; j++) seen = crcs[j] == crcs[i];
        distinct += !seen;
        if (i == 0 || crcs[i] == crcs[i - 1]) continue;
        changes++;
        if (have_change) {
            uint32_t d = frames[i] - last_change;
            int k = 0;
            while (k < hist_n && hist_k[k] != d) k++;
            if (k == hist_n && hist_n < 64) { hist_k[hist_n] = d; hist_v[hist_n++] = 0; }
            if (k < 64) hist_v[k]++;
        }
        have_change = 1;
        last_change = frames[i];
    }
    uint32_t span = frames[n - 1] - frames[0] + 1;
    printf("CRC %s entries %d span %u gaps %u changes %d distinct %d intervals ", name, n, span, span - (uint32_t)n, changes, distinct);
    for (int a = 0; a < hist_n; a++) /* sorted by interval */
        for (int b = a + 1; b < hist_n; b++)
            if (hist_k[b] < hist_k[a]) {
                uint32_t k = hist_k[a], v = hist_v[a];
                hist_k[a] = hist_k[b]; hist_v[a] = hist_v[b]; hist_k[b] = k; hist_v[b] = v;
            }
    for (int a = 0; a < hist_n; a++) printf("%s%u:%u", a ? "," : "", hist_k[a], hist_v[a]);
    printf("%s first %08x\n", hist_n ? "" : "-", crcs[0]);
    return 0;
}

struct buffer { uint32_t handle, fb, pitch; uint8_t *mem; uint64_t size; };

static int make_buffer(int fd, uint32_t w, uint32_t h, struct buffer *b) {
    struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
    if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c)) return -1;
    b->handle = c.handle; b->pitch = c.pitch; b->size = c.size;
    if (drmModeAddFB(fd, w, h, 24, 32, b->pitch, b->handle, &b->fb)) return -1;
    struct drm_mode_map_dumb m = { .handle = b->handle };
    if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m)) return -1;
    b->mem = mmap(NULL, b->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)m.offset);
    if (b->mem == MAP_FAILED) return -1;
    memset(b->mem, 0x20, b->size);
    return 0;
}

/* Frame n: a dark 48x48 square with a bright bar from its centre, turned by n (16 steps: every
 * frame differs from the one before). */
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

static void flipped(int fd, unsigned seq, unsigned sec, unsigned usec, void *pending) {
    (void)fd; (void)seq; (void)sec; (void)usec;
    *(int *)pending = 0;
}

static int floor_loop(double seconds, const char *size) {
    int fd = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (fd < 0) { perror("vkmscrc: /dev/dri/card0"); return 2; }
    drmModeRes *res = drmModeGetResources(fd);
    drmModeConnector *con = NULL;
    for (int i = 0; res && i < res->count_connectors && !con; i++) {
        con = drmModeGetConnector(fd, res->connectors[i]);
        if (con && (con->connection != DRM_MODE_CONNECTED || !con->count_modes)) { drmModeFreeConnector(con); con = NULL; }
    }
    if (!con) { fprintf(stderr, "vkmscrc: no connected connector\n"); return 2; }
    unsigned w = 0, h = 0;
    if (size) sscanf(size, "%ux%u", &w, &h);
    drmModeModeInfo mode = con->modes[0];
    for (int i = 0; i < con->count_modes; i++) {
        const drmModeModeInfo *m = &con->modes[i];
        if (size ? (m->hdisplay == w && m->vdisplay == h) : (m->type & DRM_MODE_TYPE_PREFERRED) != 0) { mode = *m; break; }
    }
    drmModeEncoder *enc = drmModeGetEncoder(fd, con->encoder_id ? con->encoder_id : con->encoders[0]);
    uint32_t crtc = enc && enc->crtc_id ? enc->crtc_id : res->crtcs[0];
    struct buffer b[2];
    for (int i = 0; i < 2; i++)
        if (make_buffer(fd, mode.hdisplay, mode.vdisplay, &b[i])) { perror("vkmscrc: dumb buffer"); return 2; }
    if (drmModeSetCrtc(fd, crtc, b[0].fb, 0, 0, &con->connector_id, 1, &mode)) { perror("vkmscrc: SetCrtc"); return 2; }
    printf("FLOOR mode %ux%u@%u\n", mode.hdisplay, mode.vdisplay, mode.vrefresh);
    fflush(stdout);
    drmEventContext ev = { .version = 2, .page_flip_handler = flipped };
    uint32_t x = mode.hdisplay / 2 - 24, y = mode.vdisplay / 2 - 24, n = 1;
    double end = now_s() + seconds;
    for (; now_s() < end; n++) {
        struct buffer *back = &b[n % 2];
        draw_box(back->mem, back->pitch, x, y, n);
        int pending = 1;
        if (drmModePageFlip(fd, crtc, back->fb, DRM_MODE_PAGE_FLIP_EVENT, &pending)) { perror("vkmscrc: PageFlip"); return 2; }
        while (pending) {
            struct pollfd p = { .fd = fd, .events = POLLIN };
            if (poll(&p, 1, 1000) > 0) drmHandleEvent(fd, &ev);
            else { fprintf(stderr, "vkmscrc: no flip event within 1 s\n"); return 2; }
        }
    }
    printf("FLOOR flips %u in %.2f s\n", n - 1, seconds);
    return 0;
}

/* The last vblank (RELATIVE 0: a query) or the next one (RELATIVE 1: a wait): count and stamp. */
static int vblank(int fd, unsigned ahead, unsigned *seq, int64_t *ns) {
    drmVBlank v = { .request = { .type = DRM_VBLANK_RELATIVE, .sequence = ahead } };
    if (drmWaitVBlank(fd, &v)) return -1;
    *seq = v.reply.sequence;
    *ns = (int64_t)v.reply.tval_sec * 1000000000 + (int64_t)v.reply.tval_usec * 1000;
    return 0;
}

static int status_loop(const char *socket_path, int count, char **texts, int ntexts) {
    int card = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
    if (card < 0) { perror("vkmscrc: /dev/dri/card0"); return 2; }
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_un a = { .sun_family = AF_UNIX };
    snprintf(a.sun_path, sizeof a.sun_path, "%s", socket_path);
    if (s < 0 || connect(s, (struct sockaddr *)&a, sizeof a)) { perror("vkmscrc: connect"); return 2; }
    FILE *replies = fdopen(dup(s), "r");
    unsigned seq0, seq1;
    int64_t t0, t1;
    if (vblank(card, 1, &seq0, &t0) || vblank(card, 1, &seq1, &t1) || seq1 <= seq0) { perror("vkmscrc: drmWaitVBlank"); return 2; }
    int64_t period = (t1 - t0) / (int64_t)(seq1 - seq0);
    printf("STATUS period %lld ns\n", (long long)period);
    for (int i = 0; i < count; i++) {
        unsigned seq;
        int64_t vb;
        if (vblank(card, 1, &seq, &vb)) { perror("vkmscrc: drmWaitVBlank"); return 2; }
        double frac = (double)i * 0.6180339887;
        frac -= (double)(int64_t)frac;
        int64_t at = vb + (int64_t)(frac * (double)period);
        struct timespec until = { .tv_sec = at / 1000000000, .tv_nsec = at % 1000000000 };
        clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL);
        if (vblank(card, 0, &seq, &vb)) { perror("vkmscrc: drmWaitVBlank"); return 2; }
        char line[256];
        int n = snprintf(line, sizeof line, "status \"%s\"\n", texts[i % ntexts]);
        int64_t sent = now_ns();
        if (write(s, line, (size_t)n) != n) { perror("vkmscrc: write"); return 2; }
        char reply[256];
        if (!fgets(reply, sizeof reply, replies) || strncmp(reply, "ok", 2)) {
            fprintf(stderr, "vkmscrc: reply to %s: %s", line, reply);
            return 2;
        }
        printf("SENT %d %u %lld %lld\n", i, seq, (long long)vb, (long long)sent);
        fflush(stdout);
        usleep(300000);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc >= 5 && !strcmp(argv[1], "capture"))
        return capture(argv[2], atof(argv[3]), atof(argv[4]), argc > 5 ? atoi(argv[5]) : 0);
    if (argc >= 3 && !strcmp(argv[1], "floor"))
        return floor_loop(atof(argv[2]), argc > 3 ? argv[3] : NULL);
    if (argc >= 5 && !strcmp(argv[1], "status"))
        return status_loop(argv[2], atoi(argv[3]), argv + 4, argc - 4);
    fprintf(stderr, "usage: vkmscrc capture NAME SETTLE SECONDS [CARD] | vkmscrc floor SECONDS [WxH] | vkmscrc status SOCKET COUNT TEXT...\n");
    return 64;
}
