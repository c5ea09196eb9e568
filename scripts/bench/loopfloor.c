// SPDX-License-Identifier: MIT
/* loopfloor: the least an event loop can do per frame, beside splashhudd under user-mode QEMU
 * (scripts/bench/tcg-frame.sh).
 *
 *   loopfloor FPS
 *
 * Each frame: timerfd_settime at the next 1/FPS boundary (absolute), epoll_wait for it, and a
 * 48x48 bar drawn into a 1280x800 buffer in memory (flipfloor's box, without a screen): the two
 * syscalls a frame splashhudd makes on the memory display, and a minimal draw. Runs until killed.
 * C, static. Built with -DLOOPFLOOR_WORK='"FILE"', FILE's `frame_work` replaces the bar
 * (scripts/bench/tcg-footprint.py's variants: the same loop, other work a frame). */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/timerfd.h>
#include <time.h>

#ifdef LOOPFLOOR_WORK
#include LOOPFLOOR_WORK
#else
enum { WIDTH = 1280, HEIGHT = 800, BOX = 48 };
static uint32_t pixels[WIDTH * HEIGHT];

/* The bar turns a step a frame: one row of the box lit, the rest grey. */
static void frame_work(unsigned frame) {
    uint32_t *box = pixels + (HEIGHT - BOX) / 2 * WIDTH + (WIDTH - BOX) / 2;
    for (int y = 0; y < BOX; y++)
        for (int x = 0; x < BOX; x++)
            box[y * WIDTH + x] = (unsigned)y == frame % BOX ? 0xFFFFFFFF : 0xFF404040;
}
#endif

static int64_t now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int main(int argc, char **argv) {
    int fps = argc > 1 ? atoi(argv[1]) : 60;
    if (fps <= 0) fps = 60;
    int ep = epoll_create1(EPOLL_CLOEXEC);
    int timer = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
    struct epoll_event watch = { .events = EPOLLIN, .data.fd = timer }, ready[64];
    if (ep < 0 || timer < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, timer, &watch)) return 2;
    int64_t interval = 1000000000 / fps, next = now_ns();
    for (unsigned frame = 0;; frame++) {
        next += interval;
        struct itimerspec at = { .it_value = { .tv_sec = next / 1000000000, .tv_nsec = next % 1000000000 } };
        timerfd_settime(timer, TFD_TIMER_ABSTIME, &at, NULL);
        epoll_wait(ep, ready, 64, -1);
        frame_work(frame);
    }
}
