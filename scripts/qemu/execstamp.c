// SPDX-License-Identifier: MIT
/* execstamp PROGRAM [ARGS...]: runs PROGRAM with SPLASHHUD_EXEC_NS set to CLOCK_MONOTONIC at the
   exec (splashhudd's start-up line then gives the wall time from exec to main), after printing
   whether the kernel's random pool was ready at that moment ("POOL ready" or "POOL not-ready"). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: execstamp PROGRAM [ARGS...]\n"); return 64; }
    unsigned char probe;
    int ready = !(getrandom(&probe, 1, GRND_NONBLOCK) < 0 && errno == EAGAIN);
    printf("POOL %s\n", ready ? "ready" : "not-ready");
    fflush(stdout);
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    char stamp[32];
    snprintf(stamp, sizeof stamp, "%lld", (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec);
    setenv("SPLASHHUD_EXEC_NS", stamp, 1);
    execv(argv[1], argv + 1);
    perror("execstamp: execv");
    return 127;
}
