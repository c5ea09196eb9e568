#!/bin/sh
# SPDX-License-Identifier: MIT
# The guest side of scripts/bench/against-plymouth.py, run by scripts/qemu/vmtest.py's /init (busybox
# sh, as root, in the initramfs). Plymouth and SplashHUD take turns on the same screen in the same
# boot: RUNS rounds of "plymouth splashhud" (the order alternates every round). Every figure is a
# "BENCH subject=S run=N what=W key=value ..." line on the console, which the host parses.
#
# Environment (set by the host script): BENCH_RUNS, BENCH_SCANPOLL, BENCH_SPLASHHUDD, BENCH_SPLASHHUD,
# BENCH_HUD_DISPLAY (drm|fbdev), BENCH_HUD_CAP (a rate to also run SplashHUD capped at, or empty),
# BENCH_HUD_CAP_HOW (option: the daemon's --max-fps N; command: `set max-fps N` in its script),
# (on DRM SplashHUD also runs single-buffered: a profile with `buffers = 1`),
# BENCH_SECONDS (10),
# BENCH_SAMPLES (round trips per run), BENCH_SHOTS (1: screenshots in the first round; 0 on vkms,
# which has no QEMU display device to take them from),
# BENCH_FLOOR (flipfloor: the least a splash can do per frame, run at the refresh rate and at
# BENCH_HUD_CAP; empty: not run), BENCH_VKMS_CRC (1: vkms's CRC capture on, below).
set -u
RUNS=${BENCH_RUNS:-3}
SECONDS_=${BENCH_SECONDS:-10}
SAMPLES=${BENCH_SAMPLES:-7}
# Typed at each prompt, one key every 150 ms, each timed to its bullet (20 keys a run).
PASSPHRASE=s3cret-passphrase-26
POLL=$BENCH_SCANPOLL
HUDD=$BENCH_SPLASHHUDD
HUD=$BENCH_SPLASHHUD
SOCK=/run/splashhud/control
export SPLASHHUD_SOCKET=$SOCK
mkdir -p /run/plymouth /run/splashhud /run/bench /var/lib/plymouth /var/log /tmp /dev/pts
# plymouthd --attach-to-session needs a pseudo-terminal (Debian's initramfs mounts devpts too)
mount -t devpts devpts /dev/pts
# With no udev (plymouth.ignore-udev) Plymouth 22 tries its renderers with no device named; after
# the DRM plugin fails it hands /dev/dri/card0 to the frame-buffer plugin as well, and falls back to
# the text splash. With udev it would name /dev/fb0: on a screen without DRM, leave the DRM plugin out.
[ -e /dev/dri/card0 ] || rm -f /usr/lib/x86_64-linux-gnu/plymouth/renderers/drm.so

# straight to the serial port: plymouthd --attach-to-session redirects /dev/console to its pty
say() { echo "BENCH $*" > /dev/ttyS0; }

# One descriptor on the control port for the whole run: the host's "OK" is lost when it arrives
# while nobody has ttyS1 open, as it did between `echo > /dev/ttyS1` and a later `head` (the
# guest then waited for it until the harness's timeout).
exec 3<>/dev/ttyS1
shot() { # SHOT NAME: the host saves the screen as NAME.png
    [ "${BENCH_SHOTS:-1}" = 1 ] || return 0
    echo "SHOT $1" >&3  # not "stable": the spinner never is
    read -r _ <&3
}

console_blank() { # the baseline: an empty text console without a cursor
    echo 0 > /sys/class/graphics/fbcon/cursor_blink 2>/dev/null
    printf '\033[2J\033[H\033[?25l' > /dev/tty1
    sleep 1
}

memory() { # subject run pid
    hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$3/status)
    rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$3/status)
    pd=$(sed -n 's/^Private_Dirty:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$3/smaps_rollup)
    anon=$(sed -n 's/^Anonymous:[[:space:]]*\([0-9]*\) kB/\1/p' /proc/$3/smaps_rollup)
    say "subject=$1 run=$2 what=memory vmhwm_kb=$hwm vmrss_kb=$rss private_dirty_kb=$pd anonymous_kb=$anon"
}

gone() { # pid: waits at most 5 s for it to end, then kills it
    local n=0
    while kill -0 "$1" 2>/dev/null && [ $n -lt 100 ]; do sleep 0.05; n=$((n+1)); done
    kill -0 "$1" 2>/dev/null && { echo "bench: $1 did not end, killing it"; kill -9 "$1"; sleep 0.2; }
}

# --- the start scripts, timed by scanpoll from their fork/exec ---------------------------------------
cat > /run/bench/start-plymouth <<'EOF'
#!/bin/sh
# as Debian's initramfs does it (scripts/init-premount/plymouth)
/usr/sbin/plymouthd --mode=boot --attach-to-session --pid-file=/run/plymouth/pid
exec /usr/bin/plymouth --show-splash
EOF
cat > /run/bench/start-splashhud <<EOF
#!/bin/sh
# the daemon shows the spinner from its script at once (no client needed)
$HUDD --display $BENCH_HUD_DISPLAY --console auto --input none --socket $SOCK --log-level error --script \$BENCH_SCRIPT \$BENCH_EXTRA < /dev/tty1 > /dev/console 2>&1 &
echo \$! > /run/bench/splashhud.pid
EOF
cat > /run/bench/start-floor <<EOF
#!/bin/sh
${BENCH_FLOOR:-false} \$BENCH_FLOOR_SECONDS \$BENCH_FLOOR_FPS < /dev/null > /dev/console 2>&1 &
echo \$! > /run/bench/floor.pid
EOF
echo "@0 show" > /run/bench/spin.script
printf '@0 set max-fps %s\n@0 show\n' "${BENCH_HUD_CAP:-15}" > /run/bench/spin-capped.script
# One scanout buffer: drawn on screen, no page flip (as Plymouth draws; frames may tear)
printf '[output]\nbuffers = 1\n' > /run/bench/single-buffered.conf
chmod +x /run/bench/start-plymouth /run/bench/start-splashhud /run/bench/start-floor

started() { # label run start-script pid-file: scanpoll times the start from its fork/exec; sets
    # pid to what the start script wrote (empty, and said, when it wrote nothing)
    rm -f "$4"
    say "subject=$1 run=$2 what=first $($POLL first 60 "$3")"
    pid=$(cat "$4" 2>/dev/null)
    [ -n "$pid" ] || say "subject=$1 run=$2 what=error no-pid"
}

one_plymouth() { # run
    r=$1
    console_blank
    started plymouth $r /run/bench/start-plymouth /run/plymouth/pid
    [ -n "$pid" ] || return
    sleep 1
    [ "$r" = 1 ] && shot "plymouth-spinner"
    say "subject=plymouth run=$r what=anim $($POLL count $SECONDS_ $pid)"
    say "subject=plymouth run=$r what=roundtrip $($POLL time $SAMPLES /usr/bin/plymouth display-message "--text=Installing 3 of 7")"
    [ "$r" = 1 ] && shot "plymouth-message"
    say "subject=plymouth run=$r what=prompt $($POLL prompt /dev/tty1 $PASSPHRASE /usr/bin/plymouth ask-for-password --prompt=Disk)"
    # Plymouth has no still state while it shows the splash: the two-step spinner always turns.
    # For reference: what it costs once deactivated (nothing drawn, DRM master dropped).
    /usr/bin/plymouth deactivate
    sleep 1
    say "subject=plymouth run=$r what=static-deactivated $($POLL count 5 $pid)"
    memory plymouth $r $pid
    /usr/bin/plymouth quit
    gone $pid
}

one_splashhud() { # run label extra-daemon-words script
    r=$1; label=$2
    console_blank
    export BENCH_EXTRA="$3" BENCH_SCRIPT="$4"
    started $label $r /run/bench/start-splashhud /run/bench/splashhud.pid
    [ -n "$pid" ] || return
    sleep 1
    [ "$r" = 1 ] && shot "$label-spinner"
    say "subject=$label run=$r what=anim $($POLL count $SECONDS_ $pid)"
    say "subject=$label run=$r what=roundtrip $($POLL time $SAMPLES $HUD status Installing 3 of 7)"
    [ "$r" = 1 ] && shot "$label-message"
    # a still HUD: the ring at a fixed value (no spinner), after its transition
    $HUD progress 0.5 Installing 3 of 7
    sleep 1.5
    [ "$r" = 1 ] && shot "$label-static"
    [ "$label" = splashhud ] && say "subject=$label run=$r what=prompt $($POLL prompt /dev/tty1 $PASSPHRASE $HUD ask-password Disk)"
    say "subject=$label run=$r what=static $($POLL count 5 $pid)"
    memory $label $r $pid
    $HUD quit
    gone $pid
}

one_floor() { # run label fps (0: the refresh rate)
    r=$1; label=$2
    console_blank
    export BENCH_FLOOR_FPS=$3 BENCH_FLOOR_SECONDS=$((SECONDS_ + 4))
    started $label $r /run/bench/start-floor /run/bench/floor.pid
    [ -n "$pid" ] || return
    sleep 1
    say "subject=$label run=$r what=anim $($POLL count $SECONDS_ $pid)"
    memory $label $r $pid
    kill $pid 2>/dev/null
    gone $pid
}

floors() { # run
    [ -n "${BENCH_FLOOR:-}" ] || return 0
    one_floor $1 floor 0
    [ -n "${BENCH_HUD_CAP:-}" ] && one_floor $1 floor-capped "$BENCH_HUD_CAP"
    return 0
}

say "machine kernel=$(uname -r) cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1 | tr ' ' _) hz=$(getconf CLK_TCK 2>/dev/null || echo 100)"
if [ -e /dev/dri/card0 ]; then
    # mode: the connectors' first listed (preferred) mode; video: what the kernel line asks for
    # instead (vkms: video=Virtual-1:640x480@60), which the programs' first connected mode is not
    mode=$(cat /sys/class/drm/card0-*/modes 2>/dev/null | head -n 1)
    video=$(tr ' ' '\n' < /proc/cmdline | sed -n 's/^video=//p' | head -n 1)
    say "display dri=$(ls /sys/class/drm | tr '\n' ,) mode=$mode${video:+ video=$video}"
fi
[ -e /sys/class/graphics/fb0/name ] && say "display fb0=$(tr ' ' _ < /sys/class/graphics/fb0/name) size=$(cat /sys/class/graphics/fb0/virtual_size)"

# BENCH_VKMS_CRC=1 (vkms only): CRC capture on for the whole boot, so vkms composes and checksums
# every frame in software in a kernel worker after each vblank, as in the vkms tests (without it
# vkms composes nothing). A reader drains the entries (cat fails with EIO while no CRTC is on: again).
crc=/sys/kernel/debug/dri/0/crtc-0/crc
if [ "${BENCH_VKMS_CRC:-0}" = 1 ] && [ -e $crc/control ]; then
    echo auto > $crc/control
    ( while :; do cat $crc/data > /dev/null 2>&1; sleep 0.2; done ) &
    say "display crc=auto"
fi

capped() { # run: SplashHUD capped at BENCH_HUD_CAP, when the daemon can be
    [ -n "${BENCH_HUD_CAP:-}" ] || return 0
    if [ "${BENCH_HUD_CAP_HOW:-}" = option ]; then
        one_splashhud $1 splashhud-capped "--max-fps $BENCH_HUD_CAP" /run/bench/spin.script
    else
        one_splashhud $1 splashhud-capped "" /run/bench/spin-capped.script
    fi
}

single() { # run: SplashHUD with one scanout buffer (DRM only: fbdev on vesafb has one anyway)
    [ "$BENCH_HUD_DISPLAY" = drm ] || return 0
    one_splashhud $1 splashhud-single "--profile /run/bench/single-buffered.conf" /run/bench/spin.script
}

i=1
while [ $i -le $RUNS ]; do
    if [ $((i % 2)) = 1 ]; then
        one_plymouth $i
        one_splashhud $i splashhud "" /run/bench/spin.script
        capped $i
        single $i
    else
        single $i
        capped $i
        one_splashhud $i splashhud "" /run/bench/spin.script
        one_plymouth $i
    fi
    floors $i
    i=$((i+1))
done
say "done"
