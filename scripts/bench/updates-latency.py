#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""SWUpdate's progress on the HUD, measured (docs/updates.md, docs/performance.md; not a CI step).

Debian's swupdate 2022.12 installs the same signed update (scripts/updates/swupdate-swu.sh: three
rawfile images of MIB MiB) again and again, interleaved, into a release splashhudd on the memory
display, through each of:
  adapter  splashhud-updates swupdate (the control socket)
  psplash  swupdate-progress -p, SWUpdate's own tool, writing psplash's words to the daemon's FIFO
and reports, per variant:
  - latency: from a progress frame reaching a reader of SWUpdate's progress socket to the daemon's
    state first showing it (the state read over one connection as fast as the daemon answers, so
    the figure includes that read's round trip); a frame is shown once a state shows its value or
    a later one of the same step (coalescing skips values, never holds them back); median, p99, max;
  - the reader's CPU (utime + stime over the install) and peak RSS (VmHWM);
  - the frames SWUpdate sent and the states the daemon went through.

    scripts/bench/updates-latency.py [--runs 5] [--mib 8] [--bin DIR]

Uses the release build (swift build -c release --product splashhudd / splashhud-updates), built if
--bin is not given. Needs swupdate, swugenerator, openssl (scripts/setup.sh --tests); root is not
needed. Python 3 standard library only.
"""
import argparse
import os
import shutil
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FRAME = struct.Struct("=IIIxxxxQIII256s64sII2048sxxxx")  # progress_msg, 2022.12 on LP64: 2416 bytes
START, RUN, SUCCESS, FAILURE, PROGRESS = 1, 2, 3, 4, 8


def wait_for(cond, seconds=10.0):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.01)
    return cond()


class FrameRecorder(threading.Thread):
    """Every frame on SWUpdate's progress socket: (time, status, nsteps, step, percent)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.frames = []

    def run(self):
        buf = b""
        while True:
            chunk = self.sock.recv(65536)
            if not chunk:
                return
            buf += chunk
            while len(buf) >= FRAME.size:
                f = FRAME.unpack(buf[:FRAME.size])
                buf = buf[FRAME.size:]
                self.frames.append((time.monotonic(), f[1], f[4], f[5], f[6]))


class StatePoller(threading.Thread):
    """The daemon's `state` as fast as it answers: (time, progress or None, status)."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.file = self.sock.makefile("rw")
        self.states = []
        self.stop = False

    def run(self):
        while not self.stop:
            try:
                self.file.write("state\n")
                self.file.flush()
                line = self.file.readline()
            except OSError:
                return  # the daemon ended with the run
            if not line:
                return
            now = time.monotonic()
            progress = None
            words = line.split()
            if "progress" in words:
                progress = float(words[words.index("progress") + 1])
            status = line.split('status "', 1)[1].split('"', 1)[0] if 'status "' in line else ""
            if not self.states or self.states[-1][1:] != (progress, status):
                self.states.append((now, progress, status))


def cpu_and_rss(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    rss = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                rss = int(line.split()[1])
    return ticks * 1000 // os.sysconf("SC_CLK_TCK"), rss


def targets(frames, variant):
    """(frame time, value the HUD must reach, step) for every frame that moves the bar."""
    out, best, steps = [], 0, 0
    for t, status, nsteps, step, pct in frames:
        if status == START:
            best, steps = 0, nsteps
        if status not in (RUN, PROGRESS) or not 1 <= step <= max(nsteps, steps):
            continue
        if variant == "adapter":
            best = max(best, ((step - 1) * 100 + pct) // nsteps)
            out.append((t, best / 100, step))
        else:
            out.append((t, pct / 100, step))
    return out


def latencies(frames, states, variant, nsteps):
    result, lost = [], 0
    for t, value, step in targets(frames, variant):
        hit = None
        for ts, progress, status in states:
            if ts < t or progress is None:
                continue
            if variant == "psplash" and status != f"step {step} of {nsteps}":
                if status.startswith("step ") and int(status.split()[1]) > step:
                    break
                continue
            if progress + 1e-9 >= value:
                hit = ts
                break
        if hit is None:
            lost += 1
        else:
            result.append((hit - t) * 1000)
    return result, lost


def run_once(variant, args, work, env):
    for leftover in ("control", "psplash_fifo"):
        try:
            os.unlink(f"{work}/{leftover}")
        except FileNotFoundError:
            pass
    daemon = subprocess.Popen([f"{args.bin}/splashhudd", "--display", "memory:800x480", "--socket", f"{work}/control",
                               "--psplash-fifo", f"{work}/psplash_fifo", "--duration", "600", "--log-level", "error"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(lambda: os.path.exists(f"{work}/control") and os.path.exists(f"{work}/psplash_fifo"))
    if variant == "adapter":
        reader = subprocess.Popen([f"{args.bin}/splashhud-updates", "swupdate", "--socket", f"{work}/control"], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    else:
        reader = subprocess.Popen(["swupdate-progress", "-p"], env=dict(env, PSPLASH_FIFO_DIR=work),
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(0.5)  # both readers connected to SWUpdate's sockets
    frames = FrameRecorder(f"{work}/run/swupdateprog")
    frames.start()
    poller = StatePoller(f"{work}/control")
    poller.start()
    cpu0, _ = cpu_and_rss(reader.pid)
    rc = subprocess.run(["swupdate-client", f"{work}/good.swu"], env=env, stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL).returncode
    wait_for(lambda: any(f[1] == SUCCESS for f in frames.frames))
    time.sleep(1.0)  # the last frames drawn
    cpu1, rss = cpu_and_rss(reader.pid)
    poller.stop = True
    for p in (reader, daemon):
        p.kill()
        p.wait()
    frames.sock.close()
    nsteps = max((f[2] for f in frames.frames), default=0)
    lat, lost = latencies(frames.frames, poller.states, variant, nsteps)
    return dict(rc=rc, frames=len(frames.frames), states=len(poller.states), latencies=lat, lost=lost, cpu=cpu1 - cpu0, rss=rss)


def percentile(values, p):
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--mib", type=int, default=8)
    parser.add_argument("--bin")
    args = parser.parse_args()
    if not args.bin:
        for product in ("splashhudd", "splashhud-updates"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=REPO, check=True,
                           stdout=subprocess.DEVNULL)
        args.bin = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=REPO, check=True,
                                  capture_output=True, text=True).stdout.strip()
    work = tempfile.mkdtemp(prefix="shud-upd.", dir="/tmp")
    swupdate = None
    try:
        subprocess.run([f"{REPO}/scripts/updates/swupdate-swu.sh", work, str(args.mib)], check=True, stdout=subprocess.DEVNULL)
        env = dict(os.environ, TMPDIR=f"{work}/run")
        swupdate = subprocess.Popen(["swupdate", "-v", "-k", f"{work}/cert.pem", "-H", "splashhud:1.0"], env=env,
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_for(lambda: os.path.exists(f"{work}/run/swupdateprog"))
        results = {"adapter": [], "psplash": []}
        for i in range(args.runs):
            for variant in (("adapter", "psplash") if i % 2 == 0 else ("psplash", "adapter")):
                r = run_once(variant, args, work, env)
                if r["rc"] != 0:
                    sys.exit(f"updates-latency: swupdate-client failed in a {variant} run")
                results[variant].append(r)
        print(f"{args.runs} installs a variant, interleaved; 3 images of {args.mib} MiB; Debian's swupdate 2022.12; release splashhudd on a memory display")
        print(f"{'variant':8} {'frames':>7} {'states':>7} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'unshown':>8} {'CPU ms':>7} {'RSS KiB':>8}")
        for variant, runs in results.items():
            lat = [x for r in runs for x in r["latencies"]]
            print(f"{variant:8} {statistics.median(r['frames'] for r in runs):7.0f} {statistics.median(r['states'] for r in runs):7.0f} "
                  f"{percentile(lat, 50):7.2f} {percentile(lat, 99):7.2f} {max(lat, default=float('nan')):7.2f} "
                  f"{sum(r['lost'] for r in runs):8d} {statistics.median(r['cpu'] for r in runs):7.0f} "
                  f"{statistics.median(r['rss'] for r in runs):8.0f}")
        a = [x for r in results["adapter"] for x in r["latencies"]]
        p = [x for r in results["psplash"] for x in r["latencies"]]
        if a and p:
            print(f"adapter / psplash: p50 {percentile(a, 50) / percentile(p, 50):.2f}x, p99 {percentile(a, 99) / percentile(p, 99):.2f}x")
    finally:
        if swupdate:
            os.killpg(swupdate.pid, 9)
            swupdate.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
