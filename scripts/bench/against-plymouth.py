#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Side-by-side benchmark: Debian's Plymouth (spinner theme) against SplashHUD on the same screen.

Both run in the same QEMU VM (TCG), same kernel, same driver, interleaved (scripts/bench/guest.sh),
measured inside the guest by scripts/bench/scanpoll.c (the scanout itself, /proc). On the host:
installed sizes and what each adds to a zstd-compressed Debian initramfs (mkinitramfs).

    scripts/bench/against-plymouth.py [--runs 3] [--drivers bochs,virtio,vesafb,vkms] [--seconds 10]
                                      [--out out/bench-plymouth] [--no-build] [--skip-initramfs]
                                      [--vkms-crc]

vkms (the kernel's virtual KMS driver, built out of tree by scripts/qemu/build-vkms.sh) is the one
driver with a real vblank: a 60 Hz hrtimer, page flips completed at it and flip events stamped
with it, so SplashHUD paces by vblank there. It has no QEMU display device, so no screenshots are
taken on it (its console.log is all that lands beside the report); it runs 640x480@60
(`video=Virtual-1:640x480@60`, as Tests/QEMUTests/VKMSEndToEndTests.swift). No CRC capture is
enabled, so vkms composes nothing per vblank (its composer runs only for CRCs or writeback);
--vkms-crc turns capture on, so it composes and checksums every frame as in the vkms tests.

Needs root (apt for plymouth and plymouth-themes, mkinitramfs in a private mount namespace).
Prints a markdown table (medians per driver, ratios SplashHUD/Plymouth, pass/fail per target of
issue 11) and writes it to OUT/report.md, with the guests' consoles and screenshots beside it.
"""
import argparse
import datetime
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.join(REPO, "scripts", "qemu"))
import vmtest  # noqa: E402

from plymouth_guest import ARCH_LIB, PLY_BINARIES, PLY_PLUGINS, PLY_THEMES, guest_files, ldd_closure, tree_files  # noqa: E402

DRIVERS = {"bochs": ("bochs", "drm"), "virtio": ("virtio", "drm"), "vesafb": ("vesafb32", "fbdev"),
           "vkms": ("vkms", "drm")}
# per driver: more kernel words, and whether QEMU can take screendumps of it
DRIVER_CMDLINE = {"vkms": "video=Virtual-1:640x480@60"}  # vkms's preferred mode is 1024x768
NO_SCREENDUMP = {"vkms"}  # no QEMU display device (-vga none): no SHOT, the guest skips its pictures
# kernel words: Plymouth shows its graphical splash only with "splash"; the serial console on
# ttyS0 (the harness's log) would otherwise make it fall back to text; no udevd runs in the guest.
CMDLINE = "splash plymouth.ignore-serial-consoles plymouth.ignore-udev"


def log(msg):
    print(f"bench: {msg}", file=sys.stderr, flush=True)


def run(argv, **kw):
    return subprocess.run(argv, check=True, text=True, capture_output=True, **kw).stdout


# --- preparing -------------------------------------------------------------------------------------

def ensure_packages():
    """scripts/setup.sh --bench: Plymouth, its themes, QEMU and the rest, with apt, when missing."""
    subprocess.run([os.path.join(REPO, "scripts", "setup.sh"), "--bench"], check=True)


def build(args):
    out = os.path.join(REPO, ".build", "bench")
    os.makedirs(out, exist_ok=True)
    scanpoll = os.path.join(out, "scanpoll")
    cc = shutil.which("gcc") or shutil.which("cc")
    for tool in ("scanpoll", "flipfloor"):
        subprocess.run(["nice", cc, "-O2", "-Wall", "-static", "-I/usr/include/libdrm",
                        os.path.join(HERE, f"{tool}.c"), "-ldrm", "-o", os.path.join(out, tool)], check=True)
    if args.bin_dir:
        bins = os.path.abspath(args.bin_dir)
        return scanpoll, os.path.join(bins, "splashhudd"), os.path.join(bins, "splashhud")
    scratch = os.path.join(REPO, ".build-release")
    if not args.no_build:
        for product in ("splashhudd", "splashhud"):
            subprocess.run(["nice", "swift", "build", "-c", "release", "--scratch-path", scratch,
                            "--product", product], cwd=REPO, check=True)
    bins = run(["swift", "build", "-c", "release", "--scratch-path", scratch, "--show-bin-path"], cwd=REPO).strip()
    return scanpoll, os.path.join(bins, "splashhudd"), os.path.join(bins, "splashhud")


def daemon_cap(hudd, workdir):
    """How this daemon caps its frame rate: "option" (--max-fps N), "command" (`set max-fps N`,
    accepted in a --script: a script that does not parse stops the daemon before it opens a
    screen), or None."""
    out = subprocess.run([hudd, "--help"], capture_output=True, text=True).stdout
    if "--max-fps" in out:
        return "option"
    script = os.path.join(workdir, "cap-probe.script")
    with open(script, "w") as f:
        f.write("@0 set max-fps 15\n")
    r = subprocess.run([hudd, "--display", "memory:64x64", "--socket", "none", "--console", "off",
                        "--script", script, "--duration", "0.1", "--log-level", "error"],
                       capture_output=True, text=True, timeout=30)
    return "command" if r.returncode == 0 else None


# --- the runs -------------------------------------------------------------------------------------

def parse_bench(console):
    """BENCH lines -> list of dicts (subject, run, what and the key=value pairs)."""
    rows = []
    for line in console.splitlines():
        m = re.search(r"BENCH (.*)$", line)
        if not m:
            continue
        words = m.group(1).split()
        row = {"kind": words[0]} if words and "=" not in words[0] else {}
        for w in words:
            if "=" in w:
                k, _, v = w.partition("=")
                row[k] = v
        rows.append(row)
    return rows


def run_driver(name, args, scanpoll, hudd, hud, files, cap):
    display, hud_display = DRIVERS[name]
    floor = os.path.join(os.path.dirname(scanpoll), "flipfloor")
    shots = os.path.join(args.out, name)
    os.makedirs(shots, exist_ok=True)
    env = [f"BENCH_RUNS={args.runs}", f"BENCH_SECONDS={args.seconds}", f"BENCH_SAMPLES={args.samples}",
           f"BENCH_SCANPOLL={scanpoll}", f"BENCH_SPLASHHUDD={hudd}", f"BENCH_SPLASHHUD={hud}",
           f"BENCH_HUD_DISPLAY={hud_display}", f"BENCH_HUD_CAP={args.cap if cap else ''}",
           f"BENCH_HUD_CAP_HOW={cap or ''}", f"BENCH_SHOTS={0 if name in NO_SCREENDUMP else 1}",
           f"BENCH_FLOOR={floor}", f"BENCH_VKMS_CRC={1 if name == 'vkms' and getattr(args, 'vkms_crc', False) else 0}"]
    per_run = 2 * (args.seconds + 5 + 12) + (args.seconds + 17 if cap else 0) + 30 + 2 * (args.seconds + 8)
    timeout = 120 + args.runs * per_run * 2
    if name in NO_SCREENDUMP:
        log(f"{name}: no QEMU display device, so no screenshots (only {shots}/console.log)")
    if name == "vkms":
        vmtest.out_of_tree_module(vmtest.kernel_version(), "vkms")  # says how to build it when missing
    log(f"{name}: booting ({args.runs} runs, at most {timeout:.0f} s)")
    cmdline = " ".join(filter(None, [CMDLINE, DRIVER_CMDLINE.get(name, "")]))
    res = vmtest.run_vm(display, os.path.join(HERE, "guest.sh"), env=env,
                        extra_files=files + [scanpoll, floor], cmdline=cmdline, shots_dir=shots, timeout=timeout)
    with open(os.path.join(shots, "console.log"), "w") as f:
        f.write(res.console)
    log(f"{name}: status {res.status} in {res.total_seconds:.0f} s {res.error or ''}")
    rows = parse_bench(res.console)
    if res.status != 0 or not any(r.get("kind") == "done" for r in rows):
        log(f"{name}: the guest did not finish; see {shots}/console.log")
    return rows


# --- sizes ----------------------------------------------------------------------------------------

def package_of(path):
    r = subprocess.run(["dpkg", "-S", path], capture_output=True, text=True)
    if r.returncode != 0:
        real = os.path.realpath(path)
        r = subprocess.run(["dpkg", "-S", real], capture_output=True, text=True)
    return r.stdout.split(":")[0] if r.returncode == 0 else None


_MINIMAL = None


def minimal_system():
    """The installed packages a minimal Debian system has too: those marked Essential or of
    priority required, and everything they depend on (debootstrap's minbase)."""
    global _MINIMAL
    if _MINIMAL is None:
        fields = run(["dpkg-query", "-W", "-f=${Package}\t${Essential}\t${Priority}\t${Pre-Depends}, ${Depends}\n"])
        deps, todo = {}, []
        for line in fields.split("\n"):
            parts = line.split("\t")
            if len(parts) != 4:
                continue
            deps[parts[0]] = [alt.split()[0].split(":")[0] for group in parts[3].split(",")
                              for alt in group.split("|")[:1] if alt.strip()]
            if parts[1] == "yes" or parts[2] == "required":
                todo.append(parts[0])
        _MINIMAL = set()
        while todo:
            p = todo.pop()
            if p in _MINIMAL or p not in deps:
                continue
            _MINIMAL.add(p)
            todo += deps[p]
    return _MINIMAL


def extra_libraries(paths):
    """Libraries of `paths` that a minimal Debian system lacks: [(path, bytes, package)]."""
    out = []
    for lib in ldd_closure(paths):
        pkg = package_of(lib)
        if pkg and pkg in minimal_system():
            continue
        out.append((lib, os.path.getsize(os.path.realpath(lib)), pkg or "(no package)"))
    return out


def installed_sizes(hudd, hud, workdir):
    ply = 0
    for pkg in ("plymouth", "libplymouth5", "plymouth-label"):
        for p in run(["dpkg", "-L", pkg]).split("\n"):
            if p and os.path.isfile(p) and not os.path.islink(p):
                ply += os.path.getsize(p)
    ply += os.path.getsize(f"{ARCH_LIB}/plymouth/two-step.so")
    ply += sum(os.path.getsize(f) for f in tree_files("/usr/share/plymouth/themes/spinner") if not os.path.islink(f))
    ply_libs = extra_libraries(PLY_BINARIES + PLY_PLUGINS)
    ply_libs = [lib for lib in ply_libs if lib[2] not in ("libplymouth5",)]  # counted with the package
    hud_bin = 0
    for b in (hudd, hud):
        s = os.path.join(workdir, os.path.basename(b) + ".stripped")
        subprocess.run(["strip", "-o", s, b], check=True)
        hud_bin += os.path.getsize(s)
    hud_libs = extra_libraries([hudd, hud])
    return {"plymouth": ply + sum(x[1] for x in ply_libs), "plymouth_libs": ply_libs,
            "splashhud": hud_bin + sum(x[1] for x in hud_libs), "splashhud_libs": hud_libs,
            "splashhud_bins": hud_bin}


def mkinitramfs(workdir, name, hide_plymouth, extra_hooks_dir=None, env=None):
    """A zstd initramfs with MODULES=list and no modules listed (no kernel modules beyond what
    every image gets), built in a private mount namespace: Plymouth's files under
    /usr/share/initramfs-tools are hidden for the images without it, and its theme is spinner."""
    conf = os.path.join(workdir, f"conf-{name}")
    shutil.rmtree(conf, ignore_errors=True)
    shutil.copytree("/etc/initramfs-tools", conf, symlinks=True)
    with open(os.path.join(conf, "initramfs.conf"), "a") as f:
        f.write("\nMODULES=list\nCOMPRESS=zstd\n")
    open(os.path.join(conf, "modules"), "w").close()
    if extra_hooks_dir:
        for sub in ("hooks", "scripts", "conf.d"):
            src = os.path.join(extra_hooks_dir, sub)
            if os.path.isdir(src):
                shutil.copytree(src, os.path.join(conf, sub), dirs_exist_ok=True)
    tools = os.path.join(workdir, "initramfs-tools-no-plymouth")
    if not os.path.isdir(tools):
        shutil.copytree("/usr/share/initramfs-tools", tools, symlinks=True)
        for p in run(["dpkg", "-L", "plymouth"]).split("\n"):
            if p.startswith("/usr/share/initramfs-tools/") and os.path.isfile(p):
                os.remove(os.path.join(tools, p[len("/usr/share/initramfs-tools/"):]))
    plyconf = os.path.join(workdir, "plymouthd-spinner.conf")
    with open(plyconf, "w") as f:
        f.write("[Daemon]\nTheme=spinner\n")
    out = os.path.join(workdir, f"initrd-{name}.img")
    version = vmtest.kernel_version()
    mounts = f"mount --bind {plyconf} /etc/plymouth/plymouthd.conf"
    if hide_plymouth:
        mounts += f" && mount --bind {tools} /usr/share/initramfs-tools"
    script = f"{mounts} && mkinitramfs -d {conf} -o {out} {version}"
    r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                       capture_output=True, text=True, env=dict(os.environ, **(env or {})))
    if r.returncode != 0:
        raise RuntimeError(f"mkinitramfs {name}: {r.stderr.strip()[-2000:]}")
    listing = run(["sh", "-c", f"lsinitramfs {out}"]).split("\n")
    return os.path.getsize(out), set(listing), r.stderr


def splashhud_prefix(workdir, hudd, hud, hook_root):
    """An installed SplashHUD as scripts/install.sh lays it out (bin/, lib/splashhud/,
    share/splashhud/boards), with the binaries stripped, for its initramfs-tools hook."""
    prefix = os.path.join(workdir, "prefix")
    os.makedirs(os.path.join(prefix, "bin"), exist_ok=True)
    for b in (hudd, hud):
        subprocess.run(["strip", "-o", os.path.join(prefix, "bin", os.path.basename(b)), b], check=True)
    helper = os.path.join(hook_root, "splashhud-initrd")
    if os.path.exists(helper):
        os.makedirs(os.path.join(prefix, "lib", "splashhud"), exist_ok=True)
        shutil.copy2(helper, os.path.join(prefix, "lib", "splashhud"))
    if os.path.isdir(os.path.join(REPO, "boards")):
        shutil.copytree(os.path.join(REPO, "boards"), os.path.join(prefix, "share", "splashhud", "boards"),
                        dirs_exist_ok=True)
    return prefix


def initramfs_sizes(workdir, hudd, hud, hook_root):
    base, base_files, _ = mkinitramfs(workdir, "base", True)
    ply, ply_files, _ = mkinitramfs(workdir, "plymouth", False)
    hook = os.path.join(hook_root, "initramfs-tools")
    result = {"base": base, "plymouth": ply - base, "plymouth_files": len(ply_files - base_files),
              "modules_added": sorted(f for f in ply_files - base_files if "/modules/" in f)}
    if os.path.isdir(hook):
        try:
            prefix = splashhud_prefix(workdir, hudd, hud, hook_root)
            hud_size, hud_files, err = mkinitramfs(workdir, "splashhud", True, hook, {
                "SPLASHHUD_PREFIX": prefix, "SPLASHHUD_CONF": os.path.join(workdir, "no-initrd.conf")})
            if "W: splashhud" in err:
                log("the SplashHUD hook warned: " + " ".join(l for l in err.splitlines() if "splashhud" in l))
            result["splashhud"] = hud_size - base
            result["splashhud_files"] = len(hud_files - base_files)
            if not any(f.endswith("bin/splashhudd") for f in hud_files - base_files):
                result["splashhud_error"] = "the hook put no splashhudd into the image"
                result.pop("splashhud")
        except RuntimeError as e:
            result["splashhud_error"] = str(e)
    return result


# --- the report -----------------------------------------------------------------------------------

def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def collect(rows, subject, what, key, scale=1.0):
    out = []
    for r in rows:
        if r.get("subject") == subject and r.get("what") == what and key in r:
            try:
                v = float(r[key])
            except ValueError:
                continue
            if v >= 0:
                out.append(v * scale)
    return out


def fmt(v, digits=1):
    return "—" if v is None else f"{v:.{digits}f}"


# The scheduler's exact runtime beside the ticks, as a check on their sampling: a tick charges
# 10 ms to whoever runs when it fires, and a 100 Hz tick against a 75 Hz animation (4 ticks and 3
# frames every 40 ms) could alias.
RUNTIME = "  on the CPU by the scheduler's clock (ms)"


def driver_table(name, rows):
    present = {r.get("subject") for r in rows}
    # flipfloor (the least a splash can do per frame) beside them, where the guest ran it
    subjects = ["plymouth", "splashhud"] + [s for s in ("splashhud-capped", "splashhud-single", "floor", "floor-capped") if s in present]

    def ticks(s, what):
        return [u + t for u, t in zip(collect(rows, s, what, "utime"), collect(rows, s, what, "stime"))]

    metrics = [  # label, getter(subject) -> list of values, digits
        ("exec → first visible frame (ms)", lambda s: collect(rows, s, "first", "first_ms"), 0),
        ("CPU over 10 s animating, utime+stime (ticks)", lambda s: ticks(s, "anim"), 0),
        ("  of which utime / stime", None, 0),
        (RUNTIME, lambda s: collect(rows, s, "anim", "cpu_ms"), 0),
        ("frames reaching the scanout (per s)", lambda s: collect(rows, s, "anim", "fps"), 1),
        ("  CPU per 100 frames shown (ticks)", lambda s: [100 * t / c for t, c in zip(ticks(s, "anim"), collect(rows, s, "anim", "changes")) if c], 1),
        ("CPU over 5 s static (ticks)", lambda s: ticks(s, "static") if s != "plymouth" else [], 0),
        ("peak RSS, VmHWM (kB)", lambda s: collect(rows, s, "memory", "vmhwm_kb"), 0),
        ("private dirty (kB)", lambda s: collect(rows, s, "memory", "private_dirty_kb"), 0),
        ("  of which anonymous (kB)", lambda s: collect(rows, s, "memory", "anonymous_kb"), 0),
        ("status round trip through its client (ms)", lambda s: collect(rows, s, "roundtrip", "median_ms"), 0),
        ("ask for a passphrase → prompt on screen (ms)", lambda s: collect(rows, s, "prompt", "prompt_ms"), 0),
        ("a key → its bullet on screen, median of 20 (ms)", lambda s: collect(rows, s, "prompt", "key_median_ms"), 1),
        ("a key → its bullet on screen, p99 of 20 (ms)", lambda s: collect(rows, s, "prompt", "key_p99_ms"), 1),
        ("Enter → the passphrase on the client's stdout (ms)", lambda s: collect(rows, s, "prompt", "answer_ms"), 0),
    ]
    head = "| " + name + " | " + " | ".join(subjects) + " | SplashHUD / Plymouth |"
    lines = [head, "|---" * (len(subjects) + 2) + "|"]
    med = {}
    for label, get, digits in metrics:
        if get is None:
            cells = []
            for s in subjects:
                u, t = median(collect(rows, s, "anim", "utime")), median(collect(rows, s, "anim", "stime"))
                cells.append(f"{fmt(u, 0)} / {fmt(t, 0)}")
            lines.append(f"| {label} | " + " | ".join(cells) + " | |")
            continue
        vals = {s: get(s) for s in subjects}
        med[label] = {s: median(v) for s, v in vals.items()}
        cells = []
        for s in subjects:
            m = med[label][s]
            cells.append(f"{fmt(m, digits)}" + (f" ({', '.join(fmt(v, digits) for v in vals[s])})" if len(vals[s]) > 1 else ""))
        p, h = med[label]["plymouth"], med[label]["splashhud"]
        ratio = f"{h / p:.2f}" if p and h is not None else "—"
        for s, word in (("splashhud-capped", "capped"), ("splashhud-single", "single-buffered"), ("floor", "floor"),
                        ("floor-capped", "floor capped")):
            if s in subjects and p and med[label][s] is not None:
                ratio += f" ({word} {med[label][s] / p:.2f})"
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {ratio} |")
    if not med["frames reaching the scanout (per s)"]["plymouth"]:
        lines.append("| **Plymouth did not animate: its text fallback, not the spinner (see the console and pictures)** | | | |")
    if any(r.get("what") == "prompt" and r.get("answer_ok") != "1" for r in rows):
        lines.append("| **a client printed something other than the passphrase typed (see the console)** | | | |")
    pd = median(ticks("plymouth", "static-deactivated"))
    med["deactivated"] = pd
    lines.append(f"| (Plymouth after `plymouth deactivate`, 5 s: ticks) | {fmt(pd, 0)} | | |")
    return lines, med


def target_values(med, capped, sizes_ratio):
    """Issue 11's targets: [(name, limit text, value or None, passed or None, note)]."""
    def ratio(label, subject="splashhud"):
        m = med.get(label, {})
        p, h = m.get("plymouth"), m.get(subject)
        return h / p if p and h is not None else None

    cpu = "CPU over 10 s animating, utime+stime (ticks)"
    out = []
    for name, value, limit in (("first frame", ratio("exec → first visible frame (ms)"), 0.5),
                               ("peak RSS", ratio("peak RSS, VmHWM (kB)"), 0.75),
                               ("CPU over 10 s at the display's refresh", ratio(cpu), 1.0)):
        out.append((name, f"≤ {limit}", value, None if value is None else value <= limit, ""))
    if capped:
        v = ratio(cpu, "splashhud-capped")
        out.append(("CPU over 10 s capped to 15 fps", "≤ 0.3", v, None if v is None else v <= 0.3, ""))
    else:
        out.append(("CPU over 10 s capped to 15 fps", "≤ 0.3", None, None, "no cap in the daemon yet"))
    # Beside the target, not instead of it: the daemon with one scanout buffer (drawn on screen
    # as Plymouth draws, frames may tear), on DRM.
    v = ratio(cpu, "splashhud-single")
    out.append(("  the same, single-buffered (`buffers = 1`)", "(≤ 1.0)", v, None if v is None else v <= 1.0,
                "fbdev: one buffer already"))
    v = ratio("status round trip through its client (ms)")
    out.append(("status round trip", "≤ 0.5", v, None if v is None else v <= 0.5, ""))
    st = med.get("CPU over 5 s static (ticks)", {}).get("splashhud")
    out.append(("static: SplashHUD's ticks in 5 s", "= 0", st, None if st is None else st == 0, ""))
    out.append(("initramfs addition", "≤ 0.5", sizes_ratio, None if sizes_ratio is None else sizes_ratio <= 0.5,
                "" if sizes_ratio is not None else "no hook yet"))
    return out


def targets_table(all_meds, drivers, capped, sizes_ratio):
    per = {d: target_values(all_meds[d], capped, sizes_ratio) for d in drivers}
    lines = ["| target (SplashHUD / Plymouth, same run) | | " + " | ".join(drivers) + " |",
             "|---|---|" + "---|" * len(drivers)]
    for i, (name, limit, _, _, _) in enumerate(per[drivers[0]]):
        cells = []
        for d in drivers:
            _, _, value, ok, note = per[d][i]
            if value is None:
                cells.append(note or "not measured")
            else:
                digits = 0 if name.startswith("static") else 2
                cells.append(f"{value:.{digits}f} {'pass' if ok else '**FAIL**'}")
        lines.append(f"| {name} | {limit} | " + " | ".join(cells) + " |")
    return lines


def summary_table(all_meds, drivers):
    """One row a figure, one column a driver: Plymouth → SplashHUD (ratio)."""
    labels = [("exec → first visible frame (ms)", 0), ("CPU over 10 s animating, utime+stime (ticks)", 0),
              (RUNTIME, 0), ("frames reaching the scanout (per s)", 1), ("  CPU per 100 frames shown (ticks)", 1),
              ("CPU over 5 s static (ticks)", 0), ("peak RSS, VmHWM (kB)", 0), ("private dirty (kB)", 0),
              ("  of which anonymous (kB)", 0), ("status round trip through its client (ms)", 0)]
    lines = ["| median: Plymouth → SplashHUD (ratio) | " + " | ".join(drivers) + " |", "|---|" + "---|" * len(drivers)]
    for label, digits in labels:
        cells = []
        for d in drivers:
            m = all_meds[d].get(label, {})
            p, h = m.get("plymouth"), m.get("splashhud")
            cell = f"{fmt(p, digits)} → {fmt(h, digits)}"
            if p and h is not None:
                cell += f" ({h / p:.2f})"
            cells.append(cell)
        lines.append(f"| {label.strip()} | " + " | ".join(cells) + " |")
        if label.startswith("CPU over 5 s static"):
            lines.append("| Plymouth, no still state: after `plymouth deactivate` (ticks in 5 s) | "
                         + " | ".join(fmt(all_meds[d].get("deactivated"), 0) for d in drivers) + " |")
        # the CPU of SplashHUD's other runs, where they ran: capped, and with one scanout buffer
        for subject, word in (("splashhud-capped", "capped"), ("splashhud-single", "single-buffered")):
            if label != labels[1][0] or not any(all_meds[d].get(label, {}).get(subject) is not None for d in drivers):
                continue
            cells = []
            for d in drivers:
                m = all_meds[d].get(label, {})
                p, c = m.get("plymouth"), m.get(subject)
                cells.append(f"{fmt(p, 0)} → {fmt(c, 0)}" + (f" ({c / p:.2f})" if p and c is not None else ""))
            lines.append(f"| CPU over 10 s, SplashHUD {word} (ticks) | " + " | ".join(cells) + " |")
    return lines


def machine():
    cpu = "?"
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    qemu = run(["qemu-system-x86_64", "--version"]).split("\n")[0]
    ply = run(["dpkg-query", "-W", "-f=${Version}", "plymouth"])
    return (f"{datetime.datetime.utcnow():%Y-%m-%d %H:%M} UTC; host {cpu}, {os.cpu_count()} cores; {qemu} (TCG, 1 vCPU); "
            f"guest kernel {vmtest.kernel_version()}; plymouth {ply}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3, help="rounds per driver (each runs both, interleaved)")
    ap.add_argument("--drivers", default="bochs,virtio,vesafb", help="comma-separated: " + ",".join(DRIVERS))
    ap.add_argument("--seconds", type=int, default=10, help="animation window")
    ap.add_argument("--samples", type=int, default=7, help="client round trips per run")
    ap.add_argument("--cap", type=int, default=15, help="the rate to also run SplashHUD capped at, when the daemon has a cap (--max-fps or `set max-fps`)")
    ap.add_argument("--out", default=os.path.join(REPO, "out", "bench-plymouth"))
    ap.add_argument("--no-build", action="store_true", help="use the release binaries as they are")
    ap.add_argument("--bin-dir", help="take splashhudd and splashhud from this directory (no build)")
    ap.add_argument("--skip-initramfs", action="store_true")
    ap.add_argument("--vkms-crc", action="store_true",
                    help="on vkms, CRC capture on (vkms then composes every frame in software, as in the vkms tests)")
    ap.add_argument("--hook-dir", default=os.path.join(REPO, "initramfs"),
                    help="where SplashHUD's initramfs-tools/ (and splashhud-initrd) are (default: the repository's initramfs/)")
    ap.add_argument("--from-logs", action="store_true",
                    help="no runs: the report again from the guests' consoles saved in OUT/DRIVER/console.log")
    args = ap.parse_args()
    args.out = os.path.abspath(args.out)
    drivers = [d for d in args.drivers.split(",") if d]
    for d in drivers:
        if d not in DRIVERS:
            ap.error(f"unknown driver {d}")
    os.makedirs(args.out, exist_ok=True)
    if not args.from_logs:
        ensure_packages()
    scanpoll, hudd, hud = build(args)
    work = tempfile.mkdtemp(prefix="bench-plymouth-")
    try:
        cap = daemon_cap(hudd, work)
        log(f"splashhudd caps its rate by {'--max-fps' if cap == 'option' else '`set max-fps`'}: also capped at {args.cap} fps"
            if cap else "splashhudd has no frame-rate cap: no capped run")
        files = guest_files(hudd, hud, work)
        report = ["## Against Plymouth", "", machine(), "",
                  f"`scripts/bench/against-plymouth.py --runs {args.runs} --drivers {','.join(drivers)}`"
                  + (f", SplashHUD also capped at {args.cap} fps" if cap else "")
                  + f" (medians of {args.runs} interleaved runs; every run's value in brackets)", ""]
        all_meds = {}
        for d in drivers:
            if args.from_logs:
                with open(os.path.join(args.out, d, "console.log")) as f:
                    rows = parse_bench(f.read())
            else:
                rows = run_driver(d, args, scanpoll, hudd, hud, files, cap)
            disp = [r for r in rows if r.get("kind") == "display"]
            refresh = sorted({r["refresh"] for r in rows if r.get("what") == "anim" and r.get("refresh", "0") != "0"})
            if refresh:
                disp.append({"refresh": "/".join(refresh) + " Hz"})
            lines, med = driver_table(d, rows)
            all_meds[d] = med
            report += [f"### {d}" + (" (" + ", ".join(f"{k}={v}" for r in disp for k, v in r.items() if k not in ("kind", "dri")) + ")" if disp else ""), ""]
            report += lines + [""]
        sizes = installed_sizes(hudd, hud, work)
        report += ["### Sizes", "",
                   "| | Plymouth | SplashHUD | SplashHUD / Plymouth |", "|---|---|---|---|",
                   f"| installed (kB) | {sizes['plymouth'] / 1024:.0f} | {sizes['splashhud'] / 1024:.0f} | {sizes['splashhud'] / sizes['plymouth']:.2f} |"]
        init_ratio = None
        if not args.skip_initramfs:
            ini = initramfs_sizes(work, hudd, hud, args.hook_dir)
            hud_add = ini.get("splashhud")
            if hud_add is not None:
                init_ratio = hud_add / ini["plymouth"]
            report.append(f"| added to a zstd initramfs (kB; base {ini['base'] / 1024:.0f} kB) | {ini['plymouth'] / 1024:.0f} "
                          f"({ini['plymouth_files']} entries) | "
                          + (f"{hud_add / 1024:.0f} ({ini['splashhud_files']} entries) | {init_ratio:.2f} |" if hud_add is not None
                             else ("hook failed | — |" if "splashhud_error" in ini else "no hook yet | — |")))
            if ini.get("splashhud_error"):
                log(ini["splashhud_error"])
            if ini["modules_added"]:
                log(f"warning: Plymouth's image has modules the base lacks: {ini['modules_added'][:5]}")
        report += ["", "Libraries beyond a minimal system (Essential and required packages and their dependencies) counted: Plymouth "
                   + ", ".join(f"{os.path.basename(p)} ({s // 1024} kB)" for p, s, _ in sizes["plymouth_libs"])
                   + f"; SplashHUD (binaries stripped: {sizes['splashhud_bins'] // 1024} kB) "
                   + ", ".join(f"{os.path.basename(p)} ({s // 1024} kB)" for p, s, _ in sizes["splashhud_libs"]), ""]
        report += ["### Summary", ""] + summary_table(all_meds, drivers) + [""]
        report += targets_table(all_meds, drivers, cap is not None, init_ratio) + [""]
        text = "\n".join(report)
        with open(os.path.join(args.out, "report.md"), "w") as f:
            f.write(text + "\n")
        print(text)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
