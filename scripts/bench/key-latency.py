#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Key to bullet on the memory display: how long a typed key takes to show its bullet.

    scripts/bench/key-latency.py [--runs 5] [--keys 14] [--size 1280x800] [--bin-dir DIR]

The real daemon on the memory display, its screen shared through `--screen-file` (a file under
/dev/shm that this script maps and reads as the daemon writes it), its prompt keys read from a
pseudo-terminal (`--prompt-tty`, the VT's stand-in). `splashhud ask-password` puts a prompt up;
the script types a passphrase into the terminal one key every 150 ms, as
scripts/bench/scanpoll.c's `prompt` does in the QEMU guests, and times each key from its write to
the first moment at least 4 pixels of the prompt's box differ from the picture before it (pixels
of the box that changed by themselves over a second before the first key are left out). Then
Enter, timed to the passphrase on the client's stdout, which must be what was typed. Keys past
what the field shows change nothing on screen (a small mark says more are hidden, as Plymouth's
entry does, so that the length is not told): the field shows 14 at every size, so --keys is at
most 14.

A memory display's screen is its memory: a frame is "on screen" when the daemon has written it,
and the daemon then paces as if it were shown at the next virtual vblank. The comparison measured
in the same run is the display's refresh interval: the latency is also given in frames.

Prints one line per run and a markdown table of all keys together (median, p99, max); exits 1
when a run fails (no prompt, a key with no bullet within a second, a wrong answer). Python 3's
standard library only. The binaries: --bin-dir (default the static pair scripts/test.sh and
`install.sh --build-only` build, else .build/release, else .build/debug).
"""
import argparse
import datetime
import mmap
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

KEY_GAP = 0.150        # between two keys, so each key's frame stands alone
BULLET_CHANGED = 4     # pixels of the prompt's box that must differ for "the bullet is drawn"
PROMPT_CHANGED = 800   # pixels that must differ for "a prompt is on screen"
CALIBRATE = 1.0        # seconds watching the box with no key, for pixels that move by themselves
POLL = 0.0002          # between two reads of the box
PASSPHRASE = "zauber@Y1horse"


def log(msg):
    print(f"key-latency: {msg}", file=sys.stderr, flush=True)


def binaries(bin_dir):
    dirs = [bin_dir] if bin_dir else [os.path.join(REPO, d) for d in
                                      (".build-static-executable/release", ".build/release", ".build/debug")]
    for d in dirs:
        hudd, hud = os.path.join(d, "splashhudd"), os.path.join(d, "splashhud")
        if os.access(hudd, os.X_OK) and os.access(hud, os.X_OK):
            return hudd, hud
    raise SystemExit(f"key-latency: no splashhudd and splashhud in {', '.join(dirs)} (swift build, or --bin-dir)")


class Screen:
    """The daemon's shared screen file, read as 32-bit pixels (the memory display's XRGB8888)."""

    def __init__(self, path, width, height):
        self.width, self.height = width, height
        with open(path, "rb") as f:
            self.mem = mmap.mmap(f.fileno(), width * height * 4, prot=mmap.PROT_READ)

    def rows(self, box):
        x0, y0, x1, y1 = box
        return [self.mem[(y * self.width + x0) * 4:(y * self.width + x1) * 4] for y in range(y0, y1)]

    def differing(self, box, before):
        """The pixels (x, y) of `box` that differ from `before` (its rows)."""
        x0, y0 = box[0], box[1]
        for i, row in enumerate(self.rows(box)):
            old = before[i]
            if row == old:
                continue
            for j in range(0, len(row), 4):
                if row[j:j + 4] != old[j:j + 4]:
                    yield x0 + j // 4, y0 + i

    def changed(self, box, before, moving=frozenset()):
        """How many pixels of `box` differ from `before`, those in `moving` left out."""
        return sum(1 for p in self.differing(box, before) if p not in moving)

    def changed_box(self, before):
        """The bounding box of the pixels that differ from `before` (the whole screen's rows)."""
        pixels = list(self.differing((0, 0, self.width, self.height), before))
        xs, ys = [x for x, _ in pixels], [y for _, y in pixels]
        return (min(xs), min(ys), max(xs) + 1, max(ys) + 1), len(pixels)


def wait_until(what, seconds, test):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if test():
            return True
        time.sleep(POLL)
    raise RuntimeError(f"{what}: not within {seconds} s")


def one_run(hudd, hud, width, height, keys):
    """One daemon, one prompt, `keys` keys: (prompt_ms, [key_ms], answer_ms, moving pixels)."""
    shm = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(prefix="key-latency-", dir=shm) as tmp:
        master, slave = os.openpty()
        sock, screen_path = os.path.join(tmp, "control"), os.path.join(tmp, "screen")
        daemon = subprocess.Popen([hudd, "--display", f"memory:{width}x{height}", "--screen-file", screen_path,
                                   "--socket", sock, "--prompt-tty", os.ttyname(slave), "--console", "off",
                                   "--input", "none", "--log-level", "warning", "--duration", "120"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        asker = None
        try:
            wait_until("the daemon's socket", 15, lambda: subprocess.run(
                [hud, "ping", "--socket", sock], capture_output=True).returncode == 0 or daemon.poll() is not None)
            if daemon.poll() is not None:
                raise RuntimeError(f"the daemon ended: {daemon.stderr.read().strip()}")
            screen = Screen(screen_path, width, height)
            whole = (0, 0, width, height)
            blank = screen.rows(whole)
            t = time.monotonic()
            asker = subprocess.Popen([hud, "ask-password", "--socket", sock, "Unlock disk root"],
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            wait_until("the prompt on screen", 10, lambda: screen.changed(whole, blank) >= PROMPT_CHANGED)
            prompt_ms = (time.monotonic() - t) * 1000
            time.sleep(0.5)  # the prompt's fade-in ends
            box, _ = screen.changed_box(blank)
            # Pixels of the box that move with no key (an animation beside the prompt).
            moving, start = set(), screen.rows(box)
            end = time.monotonic() + CALIBRATE
            while time.monotonic() < end:
                moving.update(screen.differing(box, start))
                time.sleep(0.002)
            moving = frozenset(moving)
            text = (PASSPHRASE * (keys // len(PASSPHRASE) + 1))[:keys]
            key_ms = []
            for ch in text:
                before = screen.rows(box)
                t = time.monotonic()
                os.write(master, ch.encode())
                wait_until(f"the bullet of key {len(key_ms) + 1}", 1.0,
                           lambda: screen.changed(box, before, moving) >= BULLET_CHANGED)
                key_ms.append((time.monotonic() - t) * 1000)
                time.sleep(max(0.0, KEY_GAP - (time.monotonic() - t)))
            t = time.monotonic()
            os.write(master, b"\r")
            answer = asker.stdout.read()
            answer_ms = (time.monotonic() - t) * 1000
            asker.wait(5)
            if answer.decode() != text:
                raise RuntimeError(f"the asker got {len(answer)} bytes, not the {len(text)} typed")
            return prompt_ms, key_ms, answer_ms, len(moving)
        finally:
            if asker and asker.poll() is None:
                asker.kill()
            daemon.terminate()
            try:
                daemon.wait(10)
            except subprocess.TimeoutExpired:
                daemon.kill()
            os.close(master)
            os.close(slave)


def p99(values):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, round(0.99 * len(s)) - 1))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keys", type=int, default=14)
    ap.add_argument("--size", default="1280x800")
    ap.add_argument("--refresh", type=float, default=60.0, help="the memory display's refresh (it has 60 Hz)")
    ap.add_argument("--bin-dir")
    args = ap.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    hudd, hud = binaries(args.bin_dir)
    log(f"{hudd}, {args.runs} runs of {args.keys} keys on memory:{args.size}")
    prompts, keys, answers = [], [], []
    failed = 0
    for run in range(args.runs):
        try:
            prompt_ms, key_ms, answer_ms, moving = one_run(hudd, hud, width, height, args.keys)
        except RuntimeError as e:
            log(f"run {run + 1} failed: {e}")
            failed += 1
            continue
        prompts.append(prompt_ms)
        keys += key_ms
        answers.append(answer_ms)
        print(f"run {run + 1}: prompt_ms={prompt_ms:.1f} key_median_ms={statistics.median(key_ms):.1f} "
              f"key_max_ms={max(key_ms):.1f} answer_ms={answer_ms:.1f} box_moving_px={moving} "
              f"key_ms={','.join(f'{k:.1f}' for k in key_ms)}", flush=True)
    if not keys:
        raise SystemExit("key-latency: no run finished")
    frame = 1000.0 / args.refresh
    med, hi = statistics.median(keys), p99(keys)
    print(f"\nkey-latency.py, {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, "
          f"{platform.node()} ({os.cpu_count()} cores), load {' / '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{len(keys)} keys in {len(prompts)} runs, memory:{args.size} at {args.refresh:g} Hz\n")
    print("| figure | ms | frames of the refresh |\n|---|---|---|")
    print(f"| key to bullet, median | {med:.1f} | {med / frame:.2f} |")
    print(f"| key to bullet, p99 | {hi:.1f} | {hi / frame:.2f} |")
    print(f"| key to bullet, max | {max(keys):.1f} | {max(keys) / frame:.2f} |")
    print(f"| ask-password to the prompt on screen, median | {statistics.median(prompts):.1f} | {statistics.median(prompts) / frame:.2f} |")
    print(f"| Enter to the passphrase on stdout, median | {statistics.median(answers):.1f} | {statistics.median(answers) / frame:.2f} |")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
