#!/bin/sh
# SPDX-License-Identifier: MIT
# The seamless boot's sequence in vmtest's OVMF guest (displays efifb, efifb-virtio), with one
# splash: SplashHUD (`logo = firmware`) or Debian's Plymouth (theme bgrt), started as Debian's
# initramfs starts it. Run by scripts/bench/seamless-plymouth.py, which records the screen
# throughout (RECORD) and reads the marks this script leaves in the recording's index.
#   seamless-guest.sh splashhud|plymouth kiosk|-     (SPLASHHUDD, SPLASHHUD: the binaries)
SUBJECT="$1"; K="$2"
# Straight to the serial port: plymouthd --attach-to-session redirects /dev/console to its pty.
exec > /dev/ttyS0 2>&1
exec 3<>/dev/ttyS1
ctl() { echo "$1" >&3; read -r answer <&3; echo "ctl $1 -> $answer"; }
c() { "$SPLASHHUD" "$@" --socket /run/hud --timeout 5000; }
holds() { for f in /proc/$1/fd/*; do readlink $f; done | grep -E '/dev/(fb|dri)' | sort -u | tr '\n' ' '; }
B=/sys/firmware/acpi/bgrt
echo "BGRT $(cat $B/status) $(cat $B/xoffset) $(cat $B/yoffset) $(od -An -tu4 -j18 -N8 $B/image) $(cat /sys/class/graphics/fb0/name)"
ctl "SHOT firmware"

# udev as Debian's initramfs starts it (scripts/init-top/udev), before either splash: Plymouth
# finds its devices through udev (and only those with the "seat" tag, from 71-seat.rules).
mkdir -p /run/udev /etc/udev
[ -e /bin/udevadm ] || ln -s /usr/bin/udevadm /bin/udevadm  # the busybox image's /bin is not usr/bin
echo > /sys/kernel/uevent_helper
SYSTEMD_LOG_LEVEL=notice /lib/systemd/systemd-udevd --daemon --resolve-names=never
udevadm trigger --type=subsystems --action=add
udevadm trigger --type=devices --action=add
udevadm settle || true
echo "UDEV fb0 $(udevadm info -q property -n /dev/fb0 | grep -E '^(TAGS|CURRENT_TAGS|ID_PATH)=' | tr '\n' ' ')"

ctl "RECORD boot"
# The kernel's clock at the exec: the recording's times from it give the time from kernel start.
echo "UPTIME-EXEC $(cut -d' ' -f1 /proc/uptime)"
ctl "MARK exec"
if [ "$SUBJECT" = splashhud ]; then
  "$SPLASHHUDD" --profile /kiosk.conf --socket /run/hud --log-level info > /tmp/daemon.log 2>&1 & pid=$!
  i=0; while ! "$SPLASHHUD" ping --socket /run/hud --timeout 200 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
  c progress 0.4 Starting the kiosk; echo "RESULT progress $?"
else
  # Debian's scripts/init-premount/plymouth, word for word, with a debug log.
  # (initramfs-tools' /init has mounted devpts: --attach-to-session needs a pty.)
  mkdir -p /dev/pts; mount -t devpts -o noexec,nosuid,gid=5,mode=0620 devpts /dev/pts
  mkdir -m 0755 /run/plymouth
  /usr/sbin/plymouthd --mode=boot --attach-to-session --pid-file=/run/plymouth/pid --debug-file=/tmp/plymouth.log
  /usr/bin/plymouth --show-splash
  echo "RESULT show-splash $?"
  pid=$(cat /run/plymouth/pid)
fi
sleep 14
echo "HOLDS on-efifb $(holds $pid)"
ctl "SHOT efi"
ctl "MARK insmod"
for m in $(cat /modules/late); do
  n=$(echo ${m%.ko} | tr - _)
  insmod /modules/$m $(tr ' ' '\n' < /proc/cmdline | sed -n "s/^$n\.//p") || echo "insmod $m failed"
done
ctl "MARK insmod-done"
udevadm settle || true
sleep 8
echo "HOLDS on-card $(holds $pid)"
echo "FB0 $(cat /sys/class/graphics/fb0/name)"
ctl "SHOT card"
if [ "$K" = kiosk ]; then
  # The kiosk's app: cage (as a user, through seatd) with a Wayland client, once the splash has
  # let go of the screen (as SeamlessBootEndToEndTests).
  export XDG_RUNTIME_DIR=/run/xdg
  mkdir -p $XDG_RUNTIME_DIR /etc /tmp/.X11-unix; chmod 1777 /tmp /tmp/.X11-unix
  printf 'root:x:0:0:root:/root:/bin/sh\nkiosk:x:1000:1000:kiosk:/tmp:/bin/sh\n' > /etc/passwd
  printf 'root:x:0:\nkiosk:x:1000:\n' > /etc/group
  chown 1000:1000 $XDG_RUNTIME_DIR
  /usr/sbin/seatd -u kiosk -g kiosk -l error > /tmp/seatd.log 2>&1 &
  ctl "MARK deactivate"
  if [ "$SUBJECT" = splashhud ]; then
    c deactivate; echo "RESULT deactivate $?"
  else
    # What GDM does, and a kiosk's plymouth-quit with --retain-splash.
    /usr/bin/plymouth deactivate; echo "RESULT deactivate $?"
    /usr/bin/plymouth quit --retain-splash; echo "RESULT quit $?"
  fi
  sleep 1
  ctl "MARK cage"
  /usr/bin/setpriv --reuid=1000 --regid=1000 --clear-groups env XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR \
    WLR_RENDERER=pixman LIBSEAT_BACKEND=seatd WLR_LIBINPUT_NO_DEVICES=1 /usr/bin/cage -- /usr/bin/weston-simple-shm \
    > /tmp/cage.log 2>&1 & cage=$!
  sleep 10  # cage's first frame can take 5 s under TCG on a loaded host
  ctl "RECORD STOP"
  kill $cage; wait $cage
else
  ctl "RECORD STOP"
fi
if [ "$SUBJECT" = splashhud ]; then
  kill $pid; wait $pid; cat /tmp/daemon.log
else
  /usr/bin/plymouth quit 2>/dev/null
  grep -E 'renderer|device|seat|timeout|Timeout|fb0|card0|bgrt|firmware|drm' /tmp/plymouth.log | grep -v 'ply-buffer\|keyboard' | head -150 | sed 's/^/PLYLOG /'
fi
