// SPDX-License-Identifier: MIT
/* cputime PROGRAM [ARGS...]: runs PROGRAM and, once it has ended, prints "CPU_US N" on stderr: the
   user and system CPU it used, in microseconds (wait4's rusage; the kernel's total is exact to the
   nanosecond, where bash's `time` rounds to milliseconds). Exits with PROGRAM's status. */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: cputime PROGRAM [ARGS...]\n"); return 64; }
    pid_t child = fork();
    if (child < 0) { perror("cputime: fork"); return 71; }
    if (child == 0) { execvp(argv[1], argv + 1); perror("cputime: exec"); _exit(127); }
    int status;
    struct rusage usage;
    if (wait4(child, &status, 0, &usage) < 0) { perror("cputime: wait4"); return 71; }
    long long us = (long long)(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000LL
                   + usage.ru_utime.tv_usec + usage.ru_stime.tv_usec;
    fprintf(stderr, "CPU_US %lld\n", us);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
