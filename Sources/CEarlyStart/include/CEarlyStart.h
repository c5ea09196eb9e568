// SPDX-License-Identifier: MIT
#ifndef CEARLYSTART_H
#define CEARLYSTART_H
// The daemon and the client must not wait for the kernel's random pool. The Swift runtime seeds
// its hashing before main with syscall(SYS_getrandom, …, 0), which in early boot blocks until the
// pool is initialised: over a second in a VM without virtio-rng, longer on some boards, for
// every process. CEarlyStart's syscall() takes the place of libc's in these two programs and
// changes that one call only: while the pool is not ready, a getrandom that would block gets the
// kernel's best-effort bytes (GRND_INSECURE, Linux 5.6+) at once; once it is ready, or for any
// other call, nothing differs. Nothing in these programs needs secret randomness (the seed only
// spreads hash-table buckets).

/// 1 when a call found the pool not ready and was answered with best-effort bytes.
int CEarlyStart_answeredBeforePoolReady(void);
#endif
