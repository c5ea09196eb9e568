// SPDX-License-Identifier: MIT
#include "CGetOpt.h"
#include <pthread.h>

static pthread_mutex_t scan_lock = PTHREAD_MUTEX_INITIALIZER;

int CGetOpt_scan(int argc, char **argv, const char *shortopts, const struct option *longopts,
                 CGetOpt_Match *matches, int capacity, int *operands) {
    pthread_mutex_lock(&scan_lock);
    int count = 0;
    optind = 0;  /* 0, not 1: glibc reinitialises its whole state (a new argv) */
    opterr = 0;  /* the caller words the errors */
    for (;;) {
        int code = getopt_long(argc, argv, shortopts, longopts, NULL);
        if (code == -1 || count == capacity) break;
        matches[count].code = code;
        matches[count].failed = optopt;
        matches[count].argument = optarg;
        matches[count].word = optind > 0 && optind <= argc ? argv[optind - 1] : NULL;
        count++;
    }
    *operands = optind;
    pthread_mutex_unlock(&scan_lock);
    return count;
}
