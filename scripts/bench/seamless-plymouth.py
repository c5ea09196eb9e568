#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The seamless boot against Debian's Plymouth (theme bgrt), in the same OVMF guest.

Interleaved boots through Debian's OVMF under TCG (vmtest displays efifb: std VGA then bochs-drm;
efifb-virtio: virtio-vga then virtio_gpu, then cage with a Wayland client), one splash per boot:
SplashHUD with `logo = firmware`, or plymouthd started as Debian's initramfs starts it (udevd and
its rules first, as initramfs-tools' udev script does). scripts/bench/seamless-guest.sh is the
guest's side; vmtest's RECORD dumps the screen as fast as QMP allows from just before the splash's
exec to the end. Every dump is judged against the firmware's own frame (SHOT before the splash):

  - exec -> first change: the first dump after the exec that differs from the firmware's frame;
  - logo lost: dumps, before the hand-over, whose BGRT rectangle differs from the firmware's;
  - black / logo-less runs (start after exec, length) through the boot, the driver's arrival
    and the hand-over to cage, and the longest of them;
  - which devices the splash holds on efifb and once the card is up (/proc/PID/fd).

    nice -n 10 scripts/bench/seamless-plymouth.py [--runs 1] [--displays efifb,efifb-virtio]
        [--bin-dir /work/main/.build-release/release] [--out out/seamless-plymouth]

Prints a markdown table per display (SplashHUD beside Plymouth) and writes it to OUT/report.md,
with each boot's console and its key frames as PNGs (the recorded PPMs are deleted: Plymouth's
animation makes hundreds of distinct 3 MB frames). Needs Debian's ovmf, plymouth,
plymouth-themes, udev, cage, seatd, weston (scripts/setup.sh --bench --tests).
"""
import argparse
import datetime
import os
import platform
import shutil
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, os.path.join(REPO, "scripts", "qemu"))
import vmtest  # noqa: E402
from plymouth_guest import guest_files, tree_files  # noqa: E402

SUBJECTS = ("splashhud", "plymouth")
KIOSK = {"efifb": False, "efifb-virtio": True}
# udev as initramfs-tools carries it, and cage's kiosk (as SeamlessBootEndToEndTests).
UDEV = ["/lib/systemd/systemd-udevd", "/bin/udevadm", "/etc/udev/udev.conf"]
KIOSK_PROGRAMS = ["/usr/bin/cage", "/usr/bin/weston-simple-shm", "/usr/sbin/seatd", "/usr/bin/setpriv", "/usr/bin/Xwayland"]
# No [handover] watchdog: Plymouth has none, and under a loaded TCG host cage can take longer than
# a short one to draw (the watchdog then rightly takes the screen back).
PROFILE = "[theme]\nlogo = firmware\n"
# Kernel words: Plymouth shows its graphical splash only with "splash", and the harness's serial
# console would make it fall back to text. SplashHUD ignores both.
CMDLINE = "splash plymouth.ignore-serial-consoles"


def log(msg):
    print(f"seamless: {msg}", file=sys.stderr, flush=True)


# --- one boot -------------------------------------------------------------------------------------

def boot(display, subject, run, files, out, timeout):
    shots = os.path.join(out, f"{display}-{subject}-{run}")
    shutil.rmtree(shots, ignore_errors=True)
    os.makedirs(shots)
    log(f"{display} {subject}: booting")
    res = vmtest.run_vm(display, "/bin/busybox", ["sh", "/seamless-guest.sh", subject, "kiosk" if KIOSK[display] else "-"],
                        env=[f"SPLASHHUDD={files['hudd']}", f"SPLASHHUD={files['hud']}"], extra_files=files["list"],
                        cmdline=CMDLINE, shots_dir=shots, timeout=timeout, png=True)
    with open(os.path.join(shots, "console.log"), "w") as f:
        f.write(res.console)
    log(f"{display} {subject}: status {res.status} in {res.total_seconds:.0f} s {res.error or ''}")
    if res.status != 0:
        raise SystemExit(f"{display} {subject}: the guest failed; see {shots}/console.log")
    return analyse(shots, res.console)


def console_field(console, prefix):
    for line in console.splitlines():
        if line.startswith(prefix + " "):
            return line[len(prefix) + 1:].strip()
    return ""


def analyse(shots, console):
    """Judges every recorded dump; returns the figures, keeps key frames as PNGs."""
    bgrt = console_field(console, "BGRT").split()
    if len(bgrt) < 5 or bgrt[0] != "1":
        raise SystemExit(f"{shots}: no valid BGRT in the guest ({bgrt})")
    x, y, w, h = (int(v) for v in bgrt[1:5])
    fw_w, fw_h, firmware = vmtest.read_ppm(os.path.join(shots, "firmware.ppm"))
    zero = bytes(len(firmware))

    def logo_rows(rgb):  # the BGRT rectangle, row by row
        return [rgb[((y + r) * fw_w + x) * 3:((y + r) * fw_w + x + w) * 3] for r in range(h)]
    fw_logo = logo_rows(firmware)
    marks, dumps = {}, []
    with open(os.path.join(shots, "boot.index")) as f:
        for line in f:
            parts = line.split()
            if parts[0] == "#":
                marks[" ".join(parts[2:])] = float(parts[1])
            else:
                dumps.append((float(parts[0]), parts[1]))
    # Each distinct frame read once: black, the firmware's, logo intact, and a digest of the rest.
    kinds = {}
    for name in sorted({d[1] for d in dumps}):
        fw, fh, rgb = vmtest.read_ppm(os.path.join(shots, name))
        same_size = (fw, fh) == (fw_w, fw_h)
        kinds[name] = {
            "black": rgb == zero if same_size else not any(rgb),
            "firmware": same_size and rgb == firmware,
            "logo": same_size and logo_rows(rgb) == fw_logo,
            "size": (fw, fh)}
    exec_ms = marks["exec"]
    handover = marks.get("deactivate", float("inf"))
    cage = marks.get("cage", float("inf"))
    rel = [(ms - exec_ms, name) for ms, name in dumps]
    end = rel[-1][0]

    def runs(pred, start, stop):
        """[(from, length)] of consecutive dumps in [start, stop) for which pred(kind) holds;
        a run lasts until the next dump that breaks it."""
        out, cur = [], None
        for i, (ms, name) in enumerate(rel):
            if ms < start or ms >= stop:
                continue
            nxt = rel[i + 1][0] if i + 1 < len(rel) else ms
            if pred(kinds[name]):
                if cur is None:
                    cur = [ms, nxt]
                else:
                    cur[1] = nxt
            elif cur is not None:
                out.append((cur[0], cur[1] - cur[0]))
                cur = None
        if cur is not None:
            out.append((cur[0], cur[1] - cur[0]))
        return out

    first_change = next((ms for ms, n in rel if ms >= 0 and not kinds[n]["firmware"]), None)
    first_splash = next((ms for ms, n in rel if ms >= 0 and not kinds[n]["firmware"] and kinds[n]["logo"]), None)
    insmod = marks["insmod"] - exec_ms
    # The longest stretch after the driver's load with no new frame (Plymouth's spinner stops when
    # efifb goes and starts again on the card; SplashHUD's settled frame is static anyway).
    frozen, since = 0.0, None
    for i, (ms, n) in enumerate(rel):
        if ms < insmod or ms >= handover - exec_ms:
            continue
        if since is None or n != rel[i - 1][1]:
            since = ms
        frozen = max(frozen, ms - since)
    before = [(ms, n) for ms, n in rel if 0 <= ms < handover - exec_ms]
    on_card = [n for ms, n in before if ms >= insmod + 2000]
    last = before[-1][1] if before else None
    gaps = [b[0] - a[0] for a, b in zip(rel, rel[1:])]
    fig = {
        "dumps": len(rel), "distinct": len(kinds), "ms": end,
        "gap": (statistics.median(gaps), max(gaps)) if gaps else (0.0, 0.0),
        "first_change": first_change, "first_splash": first_splash,
        # The guest's clock at the exec (its kernel's start is 0) plus the recording's time to
        # the first splash frame: TCG's guest clock follows the host's.
        "kernel_splash": (float(console_field(console, "UPTIME-EXEC")) * 1000 + first_splash)
        if console_field(console, "UPTIME-EXEC") and first_splash is not None else None,
        "logo_lost": sum(1 for _, n in before if not kinds[n]["logo"]), "before": len(before),
        "black": runs(lambda k: k["black"], 0, handover - exec_ms),
        "nologo": runs(lambda k: not k["logo"] and not k["black"], 0, handover - exec_ms),
        "insmod": insmod, "frozen": frozen,
        "card_frames": len(set(on_card)),
        "last_splash": bool(last) and kinds[last]["logo"] and not kinds[last]["firmware"],
        "holds_efi": console_field(console, "HOLDS on-efifb"), "holds_card": console_field(console, "HOLDS on-card"),
        "fb0": console_field(console, "FB0")}
    if cage != float("inf"):
        # The hand-over, in ms from cage's start (negative: before it, after the splash let go).
        c0, d0 = cage - exec_ms, handover - exec_ms
        after = [(ms - c0, n) for ms, n in rel if ms >= d0]
        splash = lambda k: k["logo"] and not k["firmware"]  # noqa: E731
        # Plymouth erases its spinner on deactivate, leaving the logo alone (the firmware's frame):
        # the picture is whole until the logo goes.
        fig["held"] = next((ms for ms, n in after if not kinds[n]["logo"]), None)
        fig["spinner_gone"] = next((ms for ms, n in after if not splash(kinds[n])), None)
        fig["handover_black"] = [(a - c0, b) for a, b in runs(lambda k: k["black"], d0, float("inf"))]
        fig["client"] = next((ms for ms, n in after if ms >= 0 and not kinds[n]["black"] and not kinds[n]["logo"]), None)
        fig["release"] = c0 - d0
        fig["handover_nologo"] = [(a - c0, b) for a, b in runs(lambda k: not k["logo"] and not k["black"], d0, c0)]
        fig["handover_pick"] = [(f"handover-{i}", a + c0) for i, (a, _) in enumerate(fig["handover_black"][:2])]
        if fig["held"] is not None:
            fig["handover_pick"].append(("logo-gone", fig["held"] + c0))
        if fig["spinner_gone"] is not None:
            fig["handover_pick"].append(("splash-gone", fig["spinner_gone"] + c0))
        if fig["client"] is not None:
            fig["handover_pick"].append(("client", fig["client"] + c0))
    keep_frames(shots, rel, kinds, fig)
    return fig


def keep_frames(shots, rel, kinds, fig):
    """Key frames as PNGs (the first change, the first splash, the first black, the first frame
    after the driver, the last before the hand-over, the client's), then the PPMs go."""
    want = {}
    picks = []
    if fig["first_change"] is not None:
        picks.append(("first-change", fig["first_change"]))
    if fig["first_splash"] is not None:
        picks.append(("first-splash", fig["first_splash"]))
    for i, (start, _) in enumerate(fig["black"][:3]):
        picks.append((f"black-{i}", start))
    for i, (start, _) in enumerate(fig["nologo"][:3]):
        picks.append((f"nologo-{i}", start))
    picks.append(("after-driver", fig["insmod"] + 4000))
    picks += fig.get("handover_pick", [])
    for label, at in picks:
        name = next((n for m, n in rel if m >= at), None)
        if name:
            want[name] = want.get(name, []) + [label]
    names = sorted({n for _, n in rel})
    want.setdefault(names[-1], []).append("last")
    for name, labels in want.items():
        w, h, rgb = vmtest.read_ppm(os.path.join(shots, name))
        vmtest.write_png(os.path.join(shots, f"{'+'.join(labels)}-{name[:-4]}.png"), w, h, rgb)
    for name in names:
        os.unlink(os.path.join(shots, name))


# --- the report -----------------------------------------------------------------------------------

def ms(v):
    return "—" if v is None else f"{v:.0f}"


def run_list(runs, limit=4):
    if not runs:
        return "none"
    text = ", ".join(f"{a:.0f}+{b:.0f}" for a, b in runs[:limit])
    return text + (f" (+{len(runs) - limit} more)" if len(runs) > limit else "")


def table(display, figs):
    """figs: {subject: [fig per run]} -> markdown."""
    rows = [
        ("dumps recorded (distinct frames)", lambda f: f"{f['dumps']} ({f['distinct']})"),
        ("interval between dumps, median / longest (ms): shorter runs can be missed", lambda f: f"{f['gap'][0]:.0f} / {f['gap'][1]:.0f}"),
        ("exec → first change on efifb (ms)", lambda f: ms(f["first_change"])),
        ("exec → first frame with the firmware's logo and a splash (ms)", lambda f: ms(f["first_splash"])),
        ("kernel start → that frame (ms; udev's start and settle, the same for both, come first)", lambda f: ms(f.get("kernel_splash"))),
        ("dumps before the hand-over with the logo not the firmware's", lambda f: f"{f['logo_lost']} of {f['before']}"),
        ("black runs before the hand-over (ms after exec + length)", lambda f: run_list(f["black"])),
        ("logo-less, non-black runs before the hand-over", lambda f: run_list(f["nologo"])),
        ("longest black or logo-less run (ms)", lambda f: ms(max([b for _, b in f["black"] + f["nologo"]], default=0))),
        ("driver loaded at (ms after exec)", lambda f: ms(f["insmod"])),
        ("longest time with no new frame after the driver (ms)", lambda f: ms(f["frozen"])),
        ("distinct frames from 2 s after the driver", lambda f: str(f["card_frames"])),
        ("last frame before the hand-over: the splash with the logo", lambda f: "yes" if f["last_splash"] else "no"),
        ("devices held on efifb", lambda f: f["holds_efi"] or "none"),
        ("devices held after the driver", lambda f: f["holds_card"] or "none"),
    ]
    if any("held" in f for fs in figs.values() for f in fs):
        rows += [
            ("release (deactivate; Plymouth: and quit --retain-splash) → cage start (ms)", lambda f: ms(f.get("release"))),
            ("only the firmware's frame left (the HUD or spinner gone) at (ms from cage start)", lambda f: ms(f.get("spinner_gone"))),
            ("the logo gone at (ms from cage start)", lambda f: ms(f.get("held"))),
            ("logo-less, non-black runs between the release and cage", lambda f: run_list(f.get("handover_nologo", []))),
            ("black from the release on (ms from cage start + length)", lambda f: run_list(f.get("handover_black", []))),
            ("cage start → the client's first frame (ms)", lambda f: ms(f.get("client"))),
            ("longest black run from the release on (ms)", lambda f: ms(max([b for _, b in f.get("handover_black", [])], default=0))),
        ]
    runs = max(len(fs) for fs in figs.values())
    names = {"splashhud": "SplashHUD", "plymouth": "Plymouth bgrt"}
    head = [names[s] + (f" {i + 1}" if runs > 1 else "") for i in range(runs) for s in SUBJECTS]
    cols = [(s, i) for i in range(runs) for s in SUBJECTS]
    lines = [f"### {display}", "", "| | " + " | ".join(head) + " |",
             "|---|" + "---|" * len(cols)]
    for label, get in rows:
        cells = [get(figs[s][i]) if i < len(figs[s]) else "—" for s, i in cols]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("--displays", default="efifb,efifb-virtio")
    ap.add_argument("--subjects", default=",".join(SUBJECTS))
    ap.add_argument("--bin-dir", default=os.path.join(REPO, ".build-release", "release"))
    ap.add_argument("--out", default=os.path.join(REPO, "out", "seamless-plymouth"))
    ap.add_argument("--timeout", type=float, default=600)
    args = ap.parse_args()
    hudd, hud = (os.path.join(os.path.abspath(args.bin_dir), b) for b in ("splashhudd", "splashhud"))
    for p in [hudd, hud, "/usr/share/ovmf/OVMF.fd", "/usr/share/plymouth/themes/bgrt/bgrt.plymouth"] + UDEV + KIOSK_PROGRAMS:
        if not os.path.exists(p):
            raise SystemExit(f"{p} is missing (scripts/setup.sh --bench --tests, or --bin-dir)")
    os.makedirs(args.out, exist_ok=True)
    work = os.path.join(args.out, "work")
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "kiosk.conf"), "w") as f:
        f.write(PROFILE)
    extra = UDEV + tree_files("/lib/udev/rules.d") + KIOSK_PROGRAMS
    files = {"hudd": hudd, "hud": hud,
             "list": guest_files(hudd, hud, work, theme="bgrt", programs=[p for p in extra if os.access(p, os.X_OK)])
             + [p for p in extra if not os.access(p, os.X_OK)]
             + [f"{os.path.join(HERE, 'seamless-guest.sh')}:/seamless-guest.sh", f"{work}/kiosk.conf:/kiosk.conf"]}
    subjects = args.subjects.split(",")
    report = [f"Seamless boot against Plymouth's bgrt: {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
              f"commit {subprocess.run(['git', 'rev-parse', '--short', 'HEAD'], cwd=REPO, capture_output=True, text=True).stdout.strip()}, "
              f"{platform.node()}, QEMU TCG, {args.runs} run(s); times in ms of the host's recording, from the splash's exec", ""]
    for display in args.displays.split(","):
        figs = {s: [] for s in SUBJECTS}
        for i in range(args.runs):
            for s in subjects:
                figs[s].append(boot(display, s, i + 1, files, args.out, args.timeout))
        report += [table(display, figs), ""]
        print("\n".join(report[-2:]), flush=True)
    with open(os.path.join(args.out, "report.md"), "w") as f:
        f.write("\n".join(report) + "\n")
    print("\n".join(report))


if __name__ == "__main__":
    main()
