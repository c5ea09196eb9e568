#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where a spinner's CPU goes on a real vblank: a profile of the daemon against flipfloor on vkms.

    scripts/bench/spinner-profile.py [--seconds 8] [--freq 250] [--bin-dir DIR] [--base-bin-dir DIR]
                                     [--out out/spinner-profile]

Boots the vkms guest (640x480@60, one vCPU under TCG, as against-plymouth.py --drivers vkms) with
Debian's perf (the host's /usr/bin/perf, the guest kernel's version) and runs, one after the
other: flipfloor at the refresh (scripts/bench/flipfloor.c: two dumb buffers page-flipped at each
vblank), SplashHUD's spinner with two buffers (page flips) and with one (`buffers = 1`: drawn on
screen, no flip), and with --base-bin-dir another build's daemon with two buffers
(splashhud-base: two builds side by side in one boot). For each, over three windows of --seconds:
utime and stime from /proc/PID/stat with nothing watching (perf's sampling costs the process CPU);
a perf profile
(cpu-clock samples of the process, user and kernel side, with the daemon's symbols: the binaries
must not be stripped, as scripts/test.sh's static pair is not); then, over another --seconds, its
system calls (perf trace -s: count and time each).

Prints, per subject, the ticks and what they are per frame, the samples split into the kernel,
libdrm, the C library, the Swift runtime and SplashHUD's own code, the top functions (Swift names
demangled) and the system calls per frame; writes it to OUT/report.md beside the guest's console.
Needs root (QEMU with KVM off, the guest's initramfs), vkms built (scripts/qemu/build-vkms.sh).
"""
import argparse
import collections
import datetime
import os
import platform
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(REPO, "scripts", "qemu"))
import vmtest  # noqa: E402

from plymouth_guest import ldd_closure  # noqa: E402

SUBJECTS = ("floor", "splashhud", "splashhud-single", "splashhud-base")
REFRESH = 60.0


def log(msg):
    print(f"spinner-profile: {msg}", file=sys.stderr, flush=True)


def build_floor():
    out = os.path.join(REPO, ".build", "bench")
    os.makedirs(out, exist_ok=True)
    floor = os.path.join(out, "flipfloor")
    subprocess.run([shutil.which("gcc") or "cc", "-O2", "-Wall", "-static", "-I/usr/include/libdrm",
                    os.path.join(HERE, "flipfloor.c"), "-ldrm", "-o", floor], check=True)
    return floor


def category(sym):
    """Which part of the program a perf symbol ("[k] name" or "[.] name") is in."""
    kind, _, name = sym.partition(" ")
    if kind == "[k]":
        return "kernel"
    if name.startswith("drm") or name.startswith("_drm"):
        return "libdrm"
    if name.startswith("swift_") or name.startswith("_swift") or name.startswith("$ss") or name.startswith("$sS"):
        return "Swift runtime and standard library"
    if name.startswith("$s") or name.startswith("CLinuxShim") or name.startswith("system_") or name.startswith("CDRMShim"):
        return "SplashHUD"
    return "C library and other"


def demangle(names):
    tool = shutil.which("swift-demangle")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool, "--simplified", "--compact"], input="\n".join(names), capture_output=True, text=True).stdout
    lines = out.splitlines()
    return {n: (lines[i] if i < len(lines) else n) for i, n in enumerate(names)}


def parse(console):
    subj = {s: {"syms": [], "syscalls": []} for s in SUBJECTS}
    for m in re.finditer(r"^PROF (\S+) (\S+) (.*)$", console, re.M):
        label, what, rest = m.groups()
        if label not in subj:
            continue
        d = subj[label]
        if what == "ticks":
            b = re.search(r"before=(\d+) (\d+) after=(\d+) (\d+) seconds=(\d+)", rest)
            if b:
                u0, s0, u1, s1, secs = (int(x) for x in b.groups())
                d["utime"], d["stime"], d["seconds"] = u1 - u0, s1 - s0, secs
        elif what == "sym":
            s = re.match(r"\s*([\d.]+)%\s+(\[.\]) (.*?)\s*$", rest)
            if s:
                d["syms"].append((float(s.group(1)), f"{s.group(2)} {s.group(3)}"))
        elif what == "syscall":
            # perf trace -s: "syscall calls errors total min avg max stddev"
            f = rest.split()
            if len(f) >= 5 and f[1].isdigit():
                d["syscalls"].append((f[0], int(f[1]), float(f[3])))
    return subj


def report(subj, args, console):
    machine = re.search(r"^PROF machine (.*)$", console, re.M)
    lines = [f"spinner-profile.py, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, commit "
             f"{subprocess.run(['git', '-C', REPO, 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}, "
             f"{platform.node()} ({os.cpu_count()} cores), load {' / '.join(f'{x:.2f}' for x in os.getloadavg())}; "
             f"guest {machine.group(1) if machine else '?'}; {args.seconds} s a subject, perf at {args.freq} Hz", ""]
    shown = [s for s in SUBJECTS if "utime" in subj[s] or subj[s]["syms"]]
    cats = ["kernel", "libdrm", "C library and other", "Swift runtime and standard library", "SplashHUD"]
    lines.append("| | " + " | ".join(shown) + " |")
    lines.append("|---|" + "---|" * len(shown))

    def row(label, f):
        lines.append(f"| {label} | " + " | ".join(f(subj[s]) for s in shown) + " |")

    frames = args.seconds * REFRESH
    row("ticks in the window (utime / stime)", lambda d: f"{d.get('utime', 0) + d.get('stime', 0)} ({d.get('utime', '?')} / {d.get('stime', '?')})" if "utime" in d else "-")
    row("CPU a frame at 60 Hz (µs)", lambda d: f"{(d['utime'] + d['stime']) * 10_000 / frames:.0f}" if "utime" in d else "-")
    for s in shown:
        # Each subject's samples by category, kept with the subject for its rows.
        subj[s]["split"] = collections.Counter()
        for pct, sym in subj[s]["syms"]:
            subj[s]["split"][category(sym)] += pct
    for cat in cats:
        row(f"samples in {cat} (%)", lambda d, cat=cat: "-" if not d["syms"] else f"{d['split'][cat]:.1f}")
    row("system calls a frame", lambda d: f"{sum(n for _, n, _ in d['syscalls']) / frames:.1f}" if d["syscalls"] else "-")
    for s in shown:
        d = subj[s]
        if d["syscalls"]:
            lines += ["", f"**{s}: system calls a frame** (perf trace -s over {args.seconds} s): " + ", ".join(
                f"{name} {n / frames:.2f} ({total * 1000 / n:.0f} µs)" for name, n, total in sorted(d["syscalls"], key=lambda x: -x[1]))]
        if d["syms"]:
            names = [sym.partition(" ")[2] for _, sym in d["syms"]]
            dm = demangle(names)
            lines += ["", f"**{s}: the top functions** (% of its samples, ≥ 0.3 %):", ""]
            for pct, sym in d["syms"][:args.top]:
                kind, _, name = sym.partition(" ")
                lines.append(f"- {pct:.1f} % {kind} {dm.get(name, name)[:140]} ({category(sym)})")
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=int, default=8)
    ap.add_argument("--freq", type=int, default=250)
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--bin-dir", default=os.path.join(REPO, ".build-static-executable", "release"))
    ap.add_argument("--base-bin-dir", help="another build's splashhudd, run too (splashhud-base)")
    ap.add_argument("--perf", default=shutil.which("perf") or "/usr/bin/perf")
    ap.add_argument("--out", default=os.path.join(REPO, "out", "spinner-profile"))
    args = ap.parse_args()
    hudd, hud = (os.path.join(os.path.abspath(args.bin_dir), n) for n in ("splashhudd", "splashhud"))
    for p in (hudd, hud, args.perf):
        if not os.access(p, os.X_OK):
            raise SystemExit(f"spinner-profile: {p} is missing (scripts/test.sh builds the static pair; apt install linux-perf)")
    if "not stripped" not in subprocess.run(["file", "-L", hudd], capture_output=True, text=True).stdout:
        log(f"{hudd} is stripped: its functions will show as addresses")
    vmtest.out_of_tree_module(vmtest.kernel_version(), "vkms")
    floor = build_floor()
    os.makedirs(args.out, exist_ok=True)
    env = [f"PROF_SPLASHHUDD={hudd}", f"PROF_SPLASHHUD={hud}", f"PROF_FLOOR={floor}", f"PROF_PERF={args.perf}",
           f"PROF_SECONDS={args.seconds}", f"PROF_FREQ={args.freq}"]
    files = [hudd, hud, floor, args.perf] + ldd_closure([args.perf])
    if args.base_bin_dir:
        base = os.path.join(os.path.abspath(args.base_bin_dir), "splashhudd")
        # the guest takes files at their host paths: a second splashhudd needs a path of its own
        env.append(f"PROF_BASE_SPLASHHUDD={base}")
        files.append(base)
    log(f"booting the vkms guest ({3 + bool(args.base_bin_dir)} subjects, about {(3 + bool(args.base_bin_dir)) * (3 * args.seconds + 4) + 60} s of guest time)")
    res = vmtest.run_vm("vkms", os.path.join(HERE, "spinner-profile-guest.sh"), env=env, extra_files=files,
                        cmdline="video=Virtual-1:640x480@60", shots_dir=args.out, timeout=420 + 22 * args.seconds)
    with open(os.path.join(args.out, "console.log"), "w") as f:
        f.write(res.console)
    if res.status != 0 or "PROF done" not in res.console:
        log(f"the guest did not finish ({res.status} {res.error or ''}); see {args.out}/console.log")
        return 1
    subj = parse(res.console)
    text = report(subj, args, res.console)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write(text)
    print(text)
    # Every subject must have given its ticks, samples with our symbols and its system calls.
    missing = [f"{s}: {what}" for s in SUBJECTS[:3] + (SUBJECTS[3:] if args.base_bin_dir else ())
               for what, ok in (("ticks", "utime" in subj[s]), ("samples", bool(subj[s]["syms"])),
                                ("system calls", bool(subj[s]["syscalls"])))
               if not ok]
    if not any(category(sym) == "SplashHUD" for _, sym in subj["splashhud"]["syms"]):
        missing.append("splashhud: no sample in SplashHUD's own functions (a stripped daemon?)")
    if missing:
        log("missing from the guest's report: " + "; ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
