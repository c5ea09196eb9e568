// SPDX-License-Identifier: MIT
#ifndef CGETOPT_H
#define CGETOPT_H
// glibc's getopt_long keeps its state (optind, optarg, optopt) in process-wide globals, which
// Swift 6 cannot touch safely. CGetOpt_scan runs one whole scan under a lock and hands back
// what each call returned, so the Swift side (CommandLineOptions) sees values only.
#include <getopt.h>

/// One getopt_long return: `code` is the option's `val` (or '?' for an unknown option, ':' for a
/// missing argument, with `failed` the val getopt put in optopt, 0 for an unknown long option),
/// `argument` is optarg, and `word` the command-line word the call ended on (the one at fault).
typedef struct {
    int code;
    int failed;
    const char *argument;
    const char *word;
} CGetOpt_Match;

/// Scans argv (permuted in place, as GNU getopt does: operands end up at the back) and stores up
/// to `capacity` matches. Returns the number of matches; `*operands` is the first operand's index.
int CGetOpt_scan(int argc, char **argv, const char *shortopts, const struct option *longopts,
                 CGetOpt_Match *matches, int capacity, int *operands);
#endif
