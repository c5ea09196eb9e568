#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Writes a PNG of the passphrase prompt as the daemon renders it (docs/passphrases.md's picture):
# splashhudd on the memory display reads keys from a pseudo-terminal (--prompt-tty), as the
# QEMU suites' memory-display reference does; `splashhud ask-password` asks, some characters are
# typed, `splashhud snapshot` saves the screen, Enter answers. Nothing is drawn but by the daemon.
#   scripts/prompt-screenshot.py [--bin-dir DIR] [--size WxH] [--prompt TEXT] [--typed N] OUT.png
import argparse, os, pty, subprocess, sys, tempfile, time


def main():
    ap = argparse.ArgumentParser(description="PNG of the passphrase prompt on the memory display")
    ap.add_argument("out")
    ap.add_argument("--bin-dir", default=".build/debug", help="where splashhudd and splashhud are")
    ap.add_argument("--size", default="800x480")
    ap.add_argument("--prompt", default="Please unlock disk sda3_crypt")
    ap.add_argument("--typed", type=int, default=6, help="characters typed before the snapshot")
    a = ap.parse_args()
    daemon, client = (os.path.join(a.bin_dir, p) for p in ("splashhudd", "splashhud"))
    with tempfile.TemporaryDirectory(prefix="splashhud-prompt-") as tmp:
        sock = os.path.join(tmp, "control")
        master, slave = pty.openpty()
        hud = subprocess.Popen([daemon, "--display", f"memory:{a.size}", "--socket", sock,
                                "--prompt-tty", os.ttyname(slave), "--duration", "60", "--log-level", "error"])
        try:
            def ask(*words, **kw):
                return subprocess.run([client, *words, "--socket", sock], capture_output=True, text=True, **kw)
            wait(lambda: ask("ping").returncode == 0, "the daemon's socket")
            asking = subprocess.Popen([client, "ask-password", a.prompt, "--socket", sock], stdout=subprocess.PIPE)
            wait(lambda: "mode prompt" in ask("state").stdout, "the prompt")
            os.write(master, b"x" * a.typed)
            time.sleep(0.5)  # the keys read and a frame drawn
            if ask("snapshot", os.path.abspath(a.out)).returncode != 0:
                sys.exit("prompt-screenshot: the snapshot failed")
            os.write(master, b"\r")
            asking.wait(timeout=20)
        finally:
            hud.terminate()
            hud.wait()
    print(a.out)


def wait(ready, what, seconds=20):
    end = time.time() + seconds
    while not ready():
        if time.time() > end:
            sys.exit(f"prompt-screenshot: no {what} after {seconds} s")
        time.sleep(0.05)


if __name__ == "__main__":
    main()
