// SPDX-License-Identifier: MIT
#define _GNU_SOURCE
#include "CEarlyStart.h"
#include <errno.h>
#include <stdarg.h>
#include <sys/random.h>
#include <sys/syscall.h>

#ifndef GRND_INSECURE
#define GRND_INSECURE 0x0004
#endif

static volatile int early;

/* Under ThreadSanitizer or AddressSanitizer (the test binaries, which link the daemon's and the
   client's modules) the sanitizer's runtime owns the process's interception, and a syscall() of
   ours would run instrumented where it has no thread state: they keep libc's. */
#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define CEARLYSTART_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define CEARLYSTART_SANITIZED 1
#endif

#ifndef CEARLYSTART_SANITIZED

/* The kernel's entry, as libc's syscall() makes it, without going through libc: in a fully static
   executable (the client, see scripts/install.sh) there is no libc syscall() to hand over to, ours
   having taken its place at link time. Linux returns -errno in [-4095, -1]. */
#if defined(__x86_64__)
static long raw_syscall(long n, long a, long b, long c, long d, long e, long f) {
    register long r10 __asm__("r10") = d, r8 __asm__("r8") = e, r9 __asm__("r9") = f;
    long r;
    __asm__ volatile("syscall" : "=a"(r) : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return r;
}
#elif defined(__aarch64__)
static long raw_syscall(long n, long a, long b, long c, long d, long e, long f) {
    register long x8 __asm__("x8") = n, x0 __asm__("x0") = a, x1 __asm__("x1") = b,
        x2 __asm__("x2") = c, x3 __asm__("x3") = d, x4 __asm__("x4") = e, x5 __asm__("x5") = f;
    __asm__ volatile("svc 0" : "+r"(x0) : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5) : "memory");
    return x0;
}
#elif defined(__arm__) && defined(__ARM_EABI__)
/* EABI: the number in r7, which Thumb code keeps as its frame pointer: moved in and out by hand. */
static long raw_syscall(long n, long a, long b, long c, long d, long e, long f) {
    register long r0 __asm__("r0") = a, r1 __asm__("r1") = b, r2 __asm__("r2") = c,
        r3 __asm__("r3") = d, r4 __asm__("r4") = e, r5 __asm__("r5") = f;
    long saved;
    __asm__ volatile("mov %1, r7\n\tmov r7, %2\n\tsvc 0\n\tmov r7, %1"
                     : "+r"(r0), "=&r"(saved) : "r"(n), "r"(r1), "r"(r2), "r"(r3), "r"(r4), "r"(r5)
                     : "memory");
    return r0;
}
#else
#define CEARLYSTART_NO_RAW_SYSCALL 1
#endif

#ifndef CEARLYSTART_NO_RAW_SYSCALL
static long kernel(long n, long a, long b, long c, long d, long e, long f) {
    long r = raw_syscall(n, a, b, c, d, e, f);
    if (r < 0 && r > -4096) { errno = (int)-r; return -1; }
    return r;
}

/* Defined in the executable, so the dynamic linker binds libswiftCore's syscall() here (and the
   static linker, with -static-stdlib or a static executable). Every call goes to the kernel with
   the same arguments, but for a getrandom that would wait for the pool. */
long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    if (number == SYS_getrandom && (a[2] & (GRND_NONBLOCK | GRND_INSECURE | GRND_RANDOM)) == 0) {
        long r = kernel(number, a[0], a[1], a[2] | GRND_NONBLOCK, 0, 0, 0);
        if (r >= 0 || errno != EAGAIN) return r;
        r = kernel(number, a[0], a[1], GRND_INSECURE, 0, 0, 0);
        if (r >= 0) { early = 1; return r; }
        /* Before Linux 5.6 there is no best effort: wait, as asked. */
    }
    return kernel(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
#endif
#endif

int CEarlyStart_answeredBeforePoolReady(void) { return early; }
