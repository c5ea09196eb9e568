#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest side of scripts/bench/spinner-profile.py: where a spinner's CPU goes on vkms.
# For each subject (flipfloor at the refresh, SplashHUD's spinner with two buffers, with one) it
# starts the program, lets it settle, then over three windows of PROF_SECONDS: the CPU split from
# /proc/PID/stat with nothing watching; a perf profile (cpu-clock samples in the process, user and
# kernel, symbols from the unstripped daemon and /proc/kallsyms); its system calls (perf trace -s:
# counts and times). Each result goes to the host over ttyS0 as "PROF ..." lines.
# Environment: PROF_SPLASHHUDD, PROF_SPLASHHUD, PROF_FLOOR, PROF_PERF, PROF_SECONDS (8), PROF_FREQ (250),
# PROF_BASE_SPLASHHUDD (another build's daemon, run as splashhud-base; optional).
set -u
SECONDS_=${PROF_SECONDS:-8}
FREQ=${PROF_FREQ:-250}
PERF=$PROF_PERF
HUDD=$PROF_SPLASHHUDD
HUD=$PROF_SPLASHHUD
SOCK=/run/prof.sock
say() { echo "PROF $*" > /dev/ttyS0; }
mkdir -p /run /tmp/prof
mount -t tmpfs tmpfs /tmp/prof 2>/dev/null
mountpoint -q /sys/kernel/tracing || mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
echo 0 > /proc/sys/kernel/kptr_restrict
echo -1 > /proc/sys/kernel/perf_event_paranoid
say "machine kernel=$(uname -r) hz=$(getconf CLK_TCK 2>/dev/null || echo 100) $(grep -o 'video=[^ ]*' /proc/cmdline) preferred=$(cat /sys/class/drm/card0-*/modes 2>/dev/null | head -n 1)"
printf '@0 show\n' > /run/spin.script
printf '[output]\nbuffers = 1\n' > /run/single.conf

ticks() { # pid: utime stime (fields 14 and 15, after the command's name)
    sed 's/.*) //' /proc/$1/stat | awk '{print $12, $13}'
}

profile() { # label pid
    label=$1; pid=$2
    sleep 2
    # The ticks with nothing watching (perf's sampling and tracing cost the process's CPU too)
    before=$(ticks $pid)
    sleep "$SECONDS_"
    after=$(ticks $pid)
    say "$label ticks before=$before after=$after seconds=$SECONDS_"
    "$PERF" record -q -F "$FREQ" -e cpu-clock -g -p "$pid" -o /tmp/prof/$label.data -- sleep "$SECONDS_" > /dev/null 2>&1
    "$PERF" report -i /tmp/prof/$label.data --stdio --no-children --sort sym -g none --percent-limit 0.3 2>/dev/null \
        | grep -v '^#' | grep -v '^$' | while IFS= read -r line; do say "$label sym $line"; done
    "$PERF" report -i /tmp/prof/$label.data --stdio --no-children --sort dso -g none 2>/dev/null \
        | grep -v '^#' | grep -v '^$' | while IFS= read -r line; do say "$label dso $line"; done
    "$PERF" trace -s -p "$pid" -- sleep "$SECONDS_" 2> /tmp/prof/$label.trace > /dev/null
    grep -E '^\s+[a-z_0-9]+\s+[0-9]+' /tmp/prof/$label.trace | while IFS= read -r line; do say "$label syscall $line"; done
    rm -f /tmp/prof/$label.data
}

# flipfloor at the refresh: a C loop page-flipping two dumb buffers at each vblank
# (for an hour: killed once profiled; perf report's time, long on a loaded host, must not end it)
$PROF_FLOOR 3600 0 < /dev/null > /dev/console 2>&1 &
floor=$!
profile floor $floor
kill $floor 2>/dev/null; wait $floor 2>/dev/null

spinner() { # label extra-daemon-words
    $HUDD --display drm --console auto --input none --socket $SOCK --log-level error --script /run/spin.script $2 < /dev/tty1 > /dev/console 2>&1 &
    hud=$!
    profile $1 $hud
    $HUD quit --socket $SOCK > /dev/null 2>&1 || kill $hud
    wait $hud 2>/dev/null
}
spinner splashhud ""
if [ -n "${PROF_BASE_SPLASHHUDD:-}" ]; then
    # Another build's daemon (--base-bin-dir), two buffers, in the same boot, right after
    HUDD=$PROF_BASE_SPLASHHUDD spinner splashhud-base ""
fi
spinner splashhud-single "--profile /run/single.conf"
say "done"
