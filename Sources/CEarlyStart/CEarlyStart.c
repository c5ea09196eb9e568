#define _GNU_SOURCE
#include "CEarlyStart.h"
#include <dlfcn.h>
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

typedef long (*syscall_fn)(long, ...);

/* libc's syscall(), found once: ours is first in the lookup order, so RTLD_NEXT is libc's. */
static syscall_fn libc_syscall(void) {
    static syscall_fn found;
    if (!found) found = (syscall_fn)dlsym(RTLD_NEXT, "syscall");
    return found;
}

/* Defined in the executable, so the dynamic linker binds libswiftCore's syscall() here (and the
   static linker, with -static-stdlib). Every call goes on to libc's with the same arguments,
   but for a getrandom that would wait for the pool. */
long syscall(long number, ...) {
    va_list ap;
    va_start(ap, number);
    long a[6];
    for (int i = 0; i < 6; i++) a[i] = va_arg(ap, long);
    va_end(ap);
    syscall_fn real = libc_syscall();
    if (number == SYS_getrandom && (a[2] & (GRND_NONBLOCK | GRND_INSECURE | GRND_RANDOM)) == 0) {
        long r = real(number, a[0], a[1], a[2] | GRND_NONBLOCK);
        if (r >= 0 || errno != EAGAIN) return r;
        r = real(number, a[0], a[1], GRND_INSECURE);
        if (r >= 0) { early = 1; return r; }
        /* Before Linux 5.6 there is no best effort: wait, as asked. */
    }
    return real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
}
#endif

int CEarlyStart_answeredBeforePoolReady(void) { return early; }
