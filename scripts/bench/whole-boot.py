#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A boot measured whole: the same Debian 12 guest with no splash, with Debian's Plymouth and with SplashHUD.

    sudo nice -n 10 scripts/bench/whole-boot.py [--runs 5] [--variants none,plymouth,splashhud,splashhud-progress[,splashhud-off]]
        [--out out/whole-boot] [--timeout 600] [--short]

The guest is debian-guest.py's (mmdebstrap's bookworm minbase, systemd, initramfs-tools, Debian's
plymouth) with Debian's default Plymouth theme added (desktop-base's emerald, as a Debian
install has it), booted by vmtest.py on virtio-gpu with one vCPU under TCG, like a single-core
board. Each variant is prepared once, in a boot of its own (debian-guest.py's tree disk, its
guest.sh replaced):
  - none: plymouth purged, the initramfs rebuilt;
  - plymouth: as installed (its initramfs has the theme);
  - splashhud: the README's install blocks, verbatim (scripts/install.sh --initramfs, the profile,
    --replace-plymouth, update-initramfs -u), from the static binaries scripts/test.sh builds;
  - splashhud-progress: the same with --boot-estimate, a progress HUD from the previous boot's
    duration;
  - splashhud-off (only when asked for): splashhud's image booted with splashhud.enable=0, so no
    daemon starts and no display is settled: what the image's size and its hooks cost alone, to
    split SplashHUD's added time into that and its daemon's.
The preparations run two at a time (one a core; nothing in them is timed). Every variant then
boots once to warm up (and so that --boot-estimate has a previous boot), and
the timed boots go round the variants, each from a fresh copy of its warmed image, with the
kernel's command line `quiet splash`. The fixed point is a unit ordered after
multi-user.target; it reports over vmtest.py's channel:
  - the kernel's uptime when it starts (time to the fixed point), and `systemd-analyze`'s totals
    once the system is running;
  - the splash's CPU: each SplashHUD daemon's ending line ("… N ms CPU"; as installed, the one
    the initramfs started and kept in the real root; handed over, the initramfs's and the
    root's), and plymouthd's utime + stime read right before plymouth-quit.service quits it;
  - whether the initramfs's daemon was kept (splashhud-initrd's hand-over line) and
    splashhud.service did not fail, and how long the daemon waited for the CPU until the quit
    (its schedstat, read right before splashhud-quit.service ends it);
  - where the initramfs's time goes: when the kernel had unpacked it, when /init started, when
    the DRM driver was initialised and the console moved onto its framebuffer, and when the real
    root was mounted (dmesg), and the image's size;
  - the first splash frame: vmtest.py --first-frame dumps the screen every 100 ms until its centre
    lights up, placed on the kernel's clock by the fixed point's UPTIME line.
Prints a markdown table per figure (median and range per variant) and the added boot time of each
splash against none, and writes them to OUT/report.md with every boot's console. A timed boot that
does not report a figure its variant must report (EXPECTED), or that failed a unit, is named, and
the run exits 1. --short is scripts/test.sh's form, so the benchmark keeps working: one timed boot
per variant, no warm-up boot but splashhud-progress's (its estimate needs a previous boot); its
figures are not the benchmark's. Runs as root (mmdebstrap, mke2fs, debugfs). Python 3 standard
library only.
"""
import argparse
import concurrent.futures
import datetime
import importlib.util
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
QEMU_DIR = os.path.join(REPO, "scripts", "qemu")
sys.dont_write_bytecode = True  # no __pycache__ in the tree
_spec = importlib.util.spec_from_file_location("debian_guest", os.path.join(QEMU_DIR, "debian-guest.py"))
debian_guest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(debian_guest)

VARIANTS = ("none", "plymouth", "splashhud", "splashhud-progress", "splashhud-off")
DEFAULT_VARIANTS = VARIANTS[:4]
# Debian's default Plymouth theme is desktop-base's (plymouthd.defaults: Theme=emerald), drawn
# with plymouth-label's text.
PACKAGES = debian_guest.PACKAGES + ["desktop-base", "plymouth-label"]
CMDLINE = "root=/dev/vda rw quiet splash plymouth.ignore-serial-consoles mitigations=off"
# The timed boots' command lines, where a variant's is not CMDLINE.
CMDLINES = {"splashhud-off": CMDLINE + " splashhud.enable=0"}

# The preparation, run once per variant by the image's docs-guest.service (the benchmark's).
PREPARE = r"""#!/bin/sh
# whole-boot.py's preparation of one variant (not part of SplashHUD).
disk=/mnt/tree-disk
stty -F /dev/ttyS1 raw -echo
exec 3<>/dev/ttyS1
say() { echo "INFO $*" >&3; echo "whole-boot: $*"; }
finish() { sync; echo "EXIT $1" >&3; sleep 600; }
variant=$(cat "$disk/variant")
export DEBIAN_FRONTEND=noninteractive
case "$variant" in
none)
    dpkg --purge plymouth-label plymouth || finish 1
    # plymouth's removal rebuilds the initramfs through its trigger; a second build took 2 minutes.
    if lsinitramfs "/boot/initrd.img-$(uname -r)" | grep -q plymouthd; then update-initramfs -u || finish 1; fi ;;
plymouth)
    say "PREP theme $(plymouth-set-default-theme)" ;;
splashhud|splashhud-progress|splashhud-off)
    cp -a "$disk/tree" /root/splashhud
    for b in "$disk"/blocks/install/*.sh; do
        (cd /root/splashhud && bash -e -o pipefail "$b") || { say "PREP failed $(head -n 1 "$b")"; finish 1; }
        # --boot-estimate added right after the block that sets the profile, as a user would, so
        # the README's own initramfs build takes it (a second build took 2 minutes). The whole
        # value, expanded here: systemd's EnvironmentFile= expands no $VARIABLE, and the unit's
        # daemon was given "$SPLASHHUD_OPTIONS" as a word and refused to start.
        if [ "$variant" = splashhud-progress ] && grep -q "SPLASHHUD_OPTIONS=" "$b"; then
            opts=$(. /etc/default/splashhud; echo "$SPLASHHUD_OPTIONS")
            echo "SPLASHHUD_OPTIONS=\"$opts --boot-estimate\"" >> /etc/default/splashhud
            say "PREP options $(grep '^SPLASHHUD_OPTIONS=' /etc/default/splashhud | tail -n 1)"
        fi
    done
    if [ "$variant" = splashhud-progress ] && ! grep -q -- "--boot-estimate" /etc/default/splashhud; then
        say "PREP failed: no install block sets SPLASHHUD_OPTIONS"; finish 1
    fi
    if [ "$variant" = splashhud-progress ] && ! lsinitramfs "/boot/initrd.img-$(uname -r)" | grep -q "etc/default/splashhud"; then
        say "PREP failed: the initramfs has no /etc/default/splashhud"; finish 1
    fi
    # As installed: the settings the image was built with, so the initramfs's daemon lives on in
    # the real root (splashhud-initrd keeps).
    ;;
*) say "PREP unknown variant $variant"; finish 2 ;;
esac
install -m 0755 "$disk/bench-point" /usr/local/sbin/bench-point
install -m 0644 "$disk/bench-point.service" /etc/systemd/system/bench-point.service
mkdir -p /etc/systemd/system/plymouth-quit.service.d
install -m 0644 "$disk/plymouth-quit.conf" /etc/systemd/system/plymouth-quit.service.d/whole-boot.conf
mkdir -p /etc/systemd/system/splashhud-quit.service.d
install -m 0644 "$disk/splashhud-quit.conf" /etc/systemd/system/splashhud-quit.service.d/whole-boot.conf
systemctl disable docs-guest.service
systemctl enable bench-point.service
say "PREP done $variant initramfs $(ls -l /boot/initrd.img-* | awk '{print $5}')"
finish 0
"""

# The fixed point: the kernel's uptime first, then what systemd and the splash say.
POINT = r"""#!/bin/sh
# whole-boot.py's fixed point (not part of SplashHUD), after multi-user.target.
read -r up _ < /proc/uptime
stty -F /dev/ttyS1 raw -echo
exec 3<>/dev/ttyS1
echo "UPTIME $up" >&3
say() { echo "INFO BENCH $*" >&3; }
say "point $up"
systemctl is-system-running --wait >/dev/null 2>&1
say "state $(systemctl is-system-running)"
say "analyze $(systemd-analyze 2>&1 | head -n 1)"
# A daemon fading out after its QUIT ends within a second.
i=0
while pidof splashhudd >/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
grep -h "ended: " /run/initramfs/splashhud.log 2>/dev/null | sed 's/^/splashhud-initramfs /' | while read -r l; do say "$l"; done
grep -h "^splashhud: handover: " /run/initramfs/splashhud.log 2>/dev/null | sed 's/^splashhud: handover: /splashhud-handover /' | while read -r l; do say "$l"; done
journalctl -b -o cat -u splashhud.service | grep "ended: " | sed 's/^/splashhud-root /' | while read -r l; do say "$l"; done
[ -s /run/whole-boot-plymouthd.stat ] && say "plymouthd-stat $(cat /run/whole-boot-plymouthd.stat)"
[ -s /run/whole-boot-splashhudd.schedstat ] && say "splashhudd-schedstat $(cat /run/whole-boot-splashhudd.schedstat)"
[ -s /run/whole-boot-splashhudd.autogroup ] && say "splashhudd-autogroup $(cat /run/whole-boot-splashhudd.autogroup)"
say "splashhud-result $(systemctl show -P Result splashhud.service)"
# What ranks the daemon against the rest of the boot: autogroups, and the cgroup CPU controller.
say "sched autogroup-enabled $(cat /proc/sys/kernel/sched_autogroup_enabled 2>/dev/null) root-controllers $(cat /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null | tr ' ' ,) system-slice-controllers $(cat /sys/fs/cgroup/system.slice/cgroup.subtree_control 2>/dev/null | tr ' ' ,)"
# Where the initramfs's time goes, on the kernel's clock: its unpacking (done when the kernel frees
# it), /init's start, the display's driver (in the initramfs with a splash's image, from the real
# root without) and fbcon's move onto it, and the real root's mount. NAME SECONDS for the first
# line of the kernel's log matching PATTERN; nothing when none does.
kernel_log=$(dmesg)
milestone() {
    t=$(printf '%s\n' "$kernel_log" | grep -m 1 "$2" | sed 's/^\[ *\([0-9.]*\)\].*/\1/')
    if [ -n "$t" ]; then say "$1 $t"; fi
}
milestone initrd-freed "Freeing initrd memory"
milestone root-mounted "EXT4-fs (vda): mounted"
milestone init-started "Run /init as init process"
milestone drm-initialized "\[drm\] Initialized"
milestone fbcon-takeover "Console: switching to colour frame buffer device"
say "initrd-size $(stat -c %s /boot/initrd.img-$(uname -r))"
journalctl -b -o short-monotonic -u splashhud.service --no-pager | grep -E "start-up:|READY|Start|Fail|timed out" | sed 's/^/splashhud-journal /' | while read -r l; do say "$l"; done
# When the splashes' units and the boot's milestones started (µs of CLOCK_MONOTONIC; 0: never).
for u in splashhud.service splashhud-quit.service plymouth-start.service plymouth-quit.service \
         systemd-udev-trigger.service sysinit.target basic.target multi-user.target; do
    say "unit $u $(systemctl show -P ExecMainStartTimestampMonotonic "$u") $(systemctl show -P ActiveEnterTimestampMonotonic "$u")"
done
say "clk-tck $(getconf CLK_TCK)"
say "failed $(systemctl --failed --no-legend | wc -l)"
sync
echo "EXIT 0" >&3
sleep 600
"""

UNIT = """[Unit]
Description=whole-boot.py's fixed point
After=multi-user.target

[Service]
Type=simple
ExecStart=/usr/local/sbin/bench-point
StandardOutput=journal+console

[Install]
WantedBy=multi-user.target
"""

# plymouthd's CPU, read before plymouth-quit.service ends it.
PLYMOUTH_QUIT = """[Service]
ExecStartPre=-/bin/sh -c 'cat /proc/$(pidof plymouthd)/stat > /run/whole-boot-plymouthd.stat'
"""

# The daemon's time on the CPU and waiting for it (ns, its main thread's schedstat), and its
# autogroup, read before splashhud-quit.service ends it: a daemon slow to start for want of the
# CPU waits long. The one the initramfs kept (its pid in the mark), else splashhud.service's. One
# shell, and systemctl only without the mark: the quit is on the boot's critical path.
SPLASHHUD_QUIT = """[Service]
ExecStartPre=-/bin/sh -c 'p=$$(cat /run/splashhud/initramfs-daemon 2>/dev/null) || p=$$(systemctl show -P MainPID splashhud.service); cat /proc/$$p/schedstat > /run/whole-boot-splashhudd.schedstat; cat /proc/$$p/autogroup > /run/whole-boot-splashhudd.autogroup'
"""


def log(msg):
    print(f"whole-boot: {msg}", file=sys.stderr, flush=True)


def vmtest_boot(initrd, drives, out_dir, name, timeout, first_frame, cmdline=CMDLINE):
    """One boot: its status, its output (stderr with the guest's lines) and the seconds it took."""
    shots = os.path.join(out_dir, "shots")
    argv = [sys.executable, os.path.join(QEMU_DIR, "vmtest.py"), "boot", "--display", "virtio", "--initrd", initrd,
            "--shots-dir", shots, "--timeout", str(timeout), "--cmdline", cmdline, "--verbose"]
    for d in drives:
        argv += ["--drive", d]
    if first_frame:
        argv.append("--first-frame")
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True)
    took = time.monotonic() - t
    with open(os.path.join(out_dir, f"{name}.log"), "w") as f:
        f.write(p.stdout + p.stderr)
    return p.returncode, p.stdout + p.stderr, took


def prepare(variant, img, version, out):
    """The variant's prepared root image and its initrd."""
    work = os.path.join(out, variant)
    os.makedirs(work, exist_ok=True)
    root, initrd = os.path.join(work, "root.img"), os.path.join(work, "initrd.img")
    subprocess.run(["cp", "--sparse=always", img, root], check=True)
    files = {"variant": variant + "\n", "bench-point": POINT, "bench-point.service": UNIT, "plymouth-quit.conf": PLYMOUTH_QUIT,
             "splashhud-quit.conf": SPLASHHUD_QUIT}
    disk = debian_guest.tree_disk(work, guest=PREPARE, files=files)
    status, output, took = vmtest_boot(img[:-4] + ".initrd", [root, disk], work, "prepare", 1800, False)
    if status != 0:
        raise SystemExit(f"whole-boot: preparing {variant} failed ({status}); see {work}/prepare.log")
    log(f"{variant}: prepared in {took:.0f} s")
    debian_guest.run(["debugfs", "-R", f"dump -p /boot/initrd.img-{version} {initrd}", root])
    return root, initrd


def warm(variant, root, initrd, out):
    """The variant's one boot before the timed ones, on its prepared image."""
    work = os.path.join(out, variant)
    status, output, took = vmtest_boot(initrd, [root], work, "warm-up", 900, True, CMDLINES.get(variant, CMDLINE))
    if status != 0:
        raise SystemExit(f"whole-boot: {variant}'s warm-up boot failed ({status}); see {work}/warm-up.log")
    log(f"{variant}: warmed up in {took:.0f} s")


def seconds(text):
    """systemd's time span ("1min 2.345s", "987ms") in seconds."""
    total = 0.0
    for value, unit in re.findall(r"([\d.]+)(min|ms|s)\b", text):
        total += float(value) * {"min": 60, "s": 1, "ms": 0.001}[unit]
    return total


def parse(output):
    """The figures of one timed boot (a dict; a figure the boot did not give is missing)."""
    info = [m.group(1) for m in re.finditer(r"guest said: INFO BENCH (.*)", output)]
    fig = {}
    for line in info:
        word, _, rest = line.partition(" ")
        if word == "point":
            fig["point"] = float(rest)
        elif word == "analyze":
            # "Startup finished in 1.2s (kernel) + 3.4s (initrd) + 5.6s (userspace) = 10.2s"
            for value, part in re.findall(r"([\d.]+(?:min|ms|s)(?: [\d.]+(?:ms|s))?) \((\w+)\)", rest):
                fig[f"analyze {part}"] = seconds(value)
            total = re.search(r"= (.+)$", rest)
            if total:
                fig["analyze total"] = seconds(total.group(1))
        elif word in ("splashhud-initramfs", "splashhud-root"):
            cpu = re.search(r"([\d.]+) ms CPU", rest)
            if cpu:
                fig["splash CPU"] = fig.get("splash CPU", 0.0) + float(cpu.group(1)) / 1000
        elif word == "plymouthd-stat":
            # /proc/PID/stat: utime and stime are fields 14 and 15 (after "(comm)").
            fields = rest.rsplit(")", 1)[-1].split()
            fig["plymouthd ticks"] = int(fields[11]) + int(fields[12])
        elif word == "splashhudd-schedstat":
            # run_time, run_delay (ns), timeslices: the wait is the second
            fig["splash run delay"] = int(rest.split()[1]) / 1e9
        elif word == "splashhud-handover":
            # "began T, daemon ended T (s of uptime)", or "… daemon kept T …": the two times
            t = [float(x) for x in re.findall(r"\d+\.\d+", rest)]
            if len(t) >= 2:
                fig["handover"] = t[1] - t[0]
            fig["daemon kept"] = "daemon kept" in rest
        elif word in ("initrd-freed", "root-mounted", "init-started", "drm-initialized", "fbcon-takeover"):
            fig[word.replace("-", " ")] = float(rest)
        elif word == "initrd-size":
            fig["initrd MB"] = int(rest) / 1e6
        elif word == "unit":
            # "NAME EXEC-START ACTIVE-ENTER" (µs of CLOCK_MONOTONIC, 0: never): a Type=notify
            # unit is active at its READY=1
            name, start, active = (rest.split() + ["0", "0"])[:3]
            if name == "splashhud.service" and int(start) > 0 and int(active) > int(start):
                fig["splashhud ready"] = (int(active) - int(start)) / 1e6
        elif word == "splashhud-result":
            fig["splashhud failed"] = rest.strip() not in ("success", "")
        elif word == "clk-tck":
            fig["clk-tck"] = int(rest)
        elif word == "failed":
            fig["failed units"] = int(rest)
    if "plymouthd ticks" in fig:
        fig["splash CPU"] = fig.pop("plymouthd ticks") / fig.get("clk-tck", 100)
    if "root mounted" in fig and "analyze kernel" in fig:
        # initramfs-tools has no systemd in the image: systemd-analyze counts its time as the kernel's
        fig["mounted to switch"] = fig["analyze kernel"] + fig.get("analyze initrd", 0.0) - fig["root mounted"]
    up = re.search(r"UPTIME guest ([\d.]+) host ([\d.]+)", output)
    ff = re.search(r"FIRST-FRAME ([\d.]+)", output)
    if up and ff:
        kernel_start = float(up.group(2)) - float(up.group(1))
        fig["first frame"] = float(ff.group(1)) - kernel_start
    return fig


# What every timed boot of a variant reports; a boot without one of them means the benchmark has
# stopped measuring it (a guest line renamed, a unit that no longer runs).
EXPECTED = {"none": ["point", "analyze total", "analyze kernel", "analyze userspace", "initrd freed", "root mounted",
                     "mounted to switch", "initrd MB"]}
EXPECTED["plymouth"] = EXPECTED["none"] + ["first frame", "splash CPU"]
# As installed, the initramfs's daemon lives on: no splashhud.service, no READY=1 to time.
EXPECTED["splashhud"] = EXPECTED["plymouth"] + ["handover", "splash run delay"]
EXPECTED["splashhud-progress"] = EXPECTED["splashhud"]
EXPECTED["splashhud-off"] = EXPECTED["none"]


def faults(fig, variant):
    """What is wrong with one timed boot's figures: those its variant must report and it did not,
    a failed splashhud.service, failed units (empty: nothing)."""
    wrong = [f"no {k!r}" for k in EXPECTED[variant] if k not in fig]
    if variant == "splashhud-off":
        if "handover" in fig or "splash CPU" in fig:
            wrong.append("a daemon ran although the command line said splashhud.enable=0")
    elif variant.startswith("splashhud") and "handover" in fig and not fig.get("daemon kept"):
        wrong.append("the initramfs's daemon was not kept (splashhud-initrd handed over)")
    if fig.get("splashhud failed"):
        wrong.append("splashhud.service failed")
    if fig.get("failed units"):
        wrong.append(f"{fig['failed units']} failed unit(s)")
    return wrong


FIGURES = [("point", "time to the fixed point (s, kernel's uptime)"),
           ("analyze total", "systemd-analyze: total (s)"),
           ("analyze kernel", "systemd-analyze: kernel (s)"),
           ("analyze initrd", "systemd-analyze: initrd (s)"),
           ("analyze userspace", "systemd-analyze: userspace (s)"),
           ("initrd freed", "the initramfs unpacked (s, the kernel frees it)"),
           ("root mounted", "the real root mounted (s)"),
           ("init started", "the initramfs's /init started (s)"),
           ("drm initialized", "the DRM driver initialised (s)"),
           ("fbcon takeover", "the console moved to its framebuffer (s)"),
           ("mounted to switch", "from the real root's mount to its systemd (s)"),
           ("handover", "splashhud-initrd's hand-over, to the daemon kept in the real root (s)"),
           ("initrd MB", "the initramfs's size (MB)"),
           ("first frame", "first splash frame (s after the kernel's start)"),
           ("splash CPU", "the splash's CPU during boot (s)"),
           ("splash run delay", "the daemon's wait for the CPU until the quit (s)"),
           ("splashhud ready", "splashhud.service: from its start to READY=1 (s)")]


def report(results, variants, args):
    lines = [f"whole-boot.py, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
             f"commit {subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}, "
             f"{platform.node()} ({os.cpu_count()} cores), load {' / '.join(f'{x:.2f}' for x in os.getloadavg())}; "
             f"{args.runs} timed boots per variant, medians (range)"
             + ("; --short, scripts/test.sh's form: no warm-up boot, not the benchmark's figures" if getattr(args, "short", False) else ""), ""]
    lines.append("| figure | " + " | ".join(variants) + " |")
    lines.append("|---|" + "---|" * len(variants))

    def cell(values):
        if not values:
            return "-"
        return f"{statistics.median(values):.2f} ({min(values):.2f}–{max(values):.2f})"

    for key, label in FIGURES:
        lines.append(f"| {label} | " + " | ".join(cell([r[key] for r in results[v] if key in r]) for v in variants) + " |")
    lines.append("| boots where splashhud.service failed | " + " | ".join(str(sum(1 for r in results[v] if r.get("splashhud failed"))) for v in variants) + " |")
    lines.append("| boots that failed a unit | " + " | ".join(str(sum(1 for r in results[v] if r.get("failed units"))) for v in variants) + " |")
    if "none" in variants:
        base = [r["point"] for r in results["none"] if "point" in r]
        lines.append("")
        added = {}
        for v in variants:
            ts = [r["point"] for r in results[v] if "point" in r]
            if v != "none" and ts and base:
                added[v] = statistics.median(ts) - statistics.median(base)
                lines.append(f"- {v} adds {added[v]:.2f} s to the boot (median against none's)")
        if "plymouth" in added and added["plymouth"] > 0:
            for v in ("splashhud", "splashhud-progress"):
                if v in added:
                    lines.append(f"- {v}'s added time is {added[v] / added['plymouth']:.2f} of Plymouth's (goal: at most 0.25)")
        if "splashhud-off" in added:
            for v in ("splashhud", "splashhud-progress"):
                if v in added:
                    lines.append(f"- of {v}'s {added[v]:.2f} s, its image and hooks without a daemon (splashhud-off) add "
                                 f"{added['splashhud-off']:.2f} s and its daemon {added[v] - added['splashhud-off']:.2f} s")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--variants", default=",".join(DEFAULT_VARIANTS))
    ap.add_argument("--out", default=os.path.join(REPO, "out", "whole-boot"))
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--short", action="store_true", help="scripts/test.sh's form: one timed boot per variant, "
                    "no warm-up but splashhud-progress's")
    args = ap.parse_args()
    if args.short:
        args.runs = 1
    variants = [v for v in args.variants.split(",") if v]
    unknown = set(variants) - set(VARIANTS)
    if unknown:
        raise SystemExit(f"whole-boot: unknown variants {', '.join(sorted(unknown))} (have: {', '.join(VARIANTS)})")
    if os.geteuid() != 0:
        raise SystemExit("whole-boot: run as root (mmdebstrap, mke2fs, debugfs)")
    out = os.path.abspath(args.out)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    img, _, version = debian_guest.image(os.path.join(out, "image"), packages=PACKAGES)
    # The preparations (package installs and initramfs builds, not timed) two at a time, one a
    # core; the warm-up boots one at a time, like the timed ones (splashhud.service's start
    # timeout is the guest's own).
    # SplashHUD's first: theirs install and build an initramfs (4 minutes here), Plymouth's only
    # boots.
    order = sorted(variants, key=lambda v: (not v.startswith("splashhud"), v == "plymouth"))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        prepared = dict(zip(order, pool.map(lambda v: prepare(v, img, version, out), order)))
    for v in variants:
        if not args.short or v == "splashhud-progress":
            warm(v, *prepared[v], out)
    results = {v: [] for v in variants}
    bad = []
    for run in range(args.runs):
        # Each round starts with another variant, so none always boots right after another's.
        for v in variants[run % len(variants):] + variants[:run % len(variants)]:
            root, initrd = prepared[v]
            disk = os.path.join(out, v, "boot.img")
            subprocess.run(["cp", "--sparse=always", root, disk], check=True)
            status, output, took = vmtest_boot(initrd, [disk], os.path.join(out, v), f"run-{run + 1}", args.timeout, True,
                                               CMDLINES.get(v, CMDLINE))
            os.remove(disk)
            fig = parse(output)
            if status != 0 or "point" not in fig:
                log(f"{v} run {run + 1}: the boot failed ({status}); see {out}/{v}/run-{run + 1}.log")
                continue
            results[v].append(fig)
            log(f"{v} run {run + 1}: " + ", ".join(f"{k} {x:.2f}" for k, x in fig.items() if isinstance(x, float)) + f" ({took:.0f} s)")
            wrong = faults(fig, v)
            if wrong:
                bad.append(f"{v} run {run + 1}")
                log(f"{v} run {run + 1}: " + "; ".join(wrong) + f" (see {out}/{v}/run-{run + 1}.log)")
    text = report(results, variants, args)
    with open(os.path.join(out, "report.md"), "w") as f:
        f.write(text)
    print(text)
    if bad:
        log("boots with figures missing or units failed: " + ", ".join(bad))
    return 0 if all(results[v] for v in variants) and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
