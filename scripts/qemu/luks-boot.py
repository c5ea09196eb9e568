#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unlocks a LUKS2 root through the initramfs under QEMU: Debian's mkinitramfs with
cryptsetup-initramfs and our hook, the passphrase typed on a virtio keyboard.

    luks-boot.py boot --bin-dir DIR --work DIR --shots-dir DIR [--splash] [--layout us|de]
                      [--wrong-first] [--tap] [--trace] [--timeout S]

  1. The root file system of initramfs-boot.py (busybox, our binaries, its /sbin/init playing
     systemd's part), encrypted as LUKS2 (aes-xts-plain64, PBKDF2 with 1000 iterations: the
     guest's CPU is emulated) with PASSPHRASE, which has keys that differ between the US and the
     German layouts (z/y swapped, @ on AltGr+q there). The host encrypts it offline
     (`cryptsetup reencrypt --encrypt`: the kernel's crypto API, no device-mapper needed); the
     image is cached in .build/qemu by its inputs (every file of the tree, the passphrase, the
     format options, the mke2fs options) and copied for each boot.
  2. mkinitramfs -d CONF with our hook and scripts (scripts/install.sh --initramfs, as
     initramfs-boot.py stages them), cryptsetup-initramfs's hooks, console-setup's keymap hook
     (KEYMAP=y) and a test hook of ours, 00luks-test, which runs before ours: it writes
     /cryptroot/crypttab (`cryptroot UUID=... none luks`), takes the host's Plymouth out of the
     image (so the image is the "no Plymouth" case: our hook links /bin/plymouth to the client)
     and, with --layout de, replaces the keymap setupcon saved (the host's) with
     `ckbcomp -layout de`'s: the host's /etc/default/keyboard is never touched.
  3. A probe, scripts/init-premount/zz-luks-probe, started after ours, waits in the background
     for each passphrase prompt (cryptsetup's askpass running; with --splash, up to 5 s for
     askpass's `/bin/plymouth ask-for-password`), asks for a screendump (luks-prompt-N), types
     the first three keys, another screendump (luks-typed-N), then the rest and Enter, through KEY requests on the
     control channel (QMP input-send-event, qcodes: the physical keys of --layout). With
     --wrong-first it first types the passphrase at the other layout's key positions, which
     must fail. With --tap (and --splash) the passphrase is tapped on the prompt's on-screen
     keyboard instead, through the virtio tablet (TAP requests: QMP input-send-event's absolute
     axes): the image's profile (PROFILE, printed) says `on-screen-keyboard = always` and
     `keymap = --layout`, and the probe asks the daemon for the keys it shows (`splashhud
     keyboard`: each key's centre and what it types on each level), then taps shift or the
     symbols switch first where a character needs them; the wrong attempt stays typed on the
     keyboard. Then it reports the mapping and the mount of the root.
  4. vmtest.py boot --input (virtio-keyboard-pci), `root=/dev/mapper/cryptroot console=tty1`
     (askpass's console method reads /dev/console, which must be the VT the keyboard types on);
     without --splash also `splashhud.enable=0`: the baseline, Debian's console prompt. --trace
     adds `debug` (init traces itself into /run/initramfs/initramfs.debug) and `LUKS trace`
     lines until the first prompt: init's last traced line and the processes, every 2 s.

Prints INFO lines (vmtest's "guest said: INFO ..."): `LUKS prompt N method console|plymouth at
T`, `LUKS state N STATE` (`splashhud state` at a plymouth prompt), `LUKS first-key T`, `LUKS typed N layout L`, `LUKS rejected N at T` (a new prompt came after
attempt N), `LUKS unlocked T`, `LUKS root-mounted T`, `LUKS key-to-mount MS` (uptimes T in
seconds; MS from the first key to the root mounted, in milliseconds), `LUKS splash-log LINE` (the
initramfs daemon's log once the root is mounted), and the REALROOT lines of initramfs-boot.py's
/sbin/init; exits with vmtest's status. initramfs-boot.py's dracut-boot uses the same image and
typist (typist(): the process that asks, the new root and the mapping are parameters), as dracut's
crypt module asks through the client itself. Python 3 standard library only.
"""
import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("initramfs_boot", os.path.join(HERE, "initramfs-boot.py"))
ib = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ib)
CACHE_DIR = os.path.join(ib.REPO, ".build", "qemu")

PASSPHRASE = "zauber@Y1"
UUID = "5a1a5b0d-1dd5-4c2e-9a3c-6c75c0ffee01"
FORMAT = ["--type", "luks2", "--cipher", "aes-xts-plain64", "--key-size", "512", "--hash", "sha256",
          "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000", "--reduce-device-size", "16M", "--uuid", UUID]

# The physical key (QEMU qcode, with the modifiers held) that types each character of PASSPHRASE.
US = {c: c for c in "abcdefghijklmnopqrstuvwxyz0123456789"}
US.update({c.upper(): "shift+" + c for c in "abcdefghijklmnopqrstuvwxyz"})
US["@"] = "shift+2"
DE = dict(US)
DE.update({"y": "z", "z": "y", "Y": "shift+z", "Z": "shift+y", "@": "alt_r+q"})
LAYOUTS = {"us": US, "de": DE}


def keys_for(text, layout):
    return [LAYOUTS[layout][c] for c in text]


def attempt(layout):
    """One attempt for TYPIST: PASSPHRASE typed at `layout`'s key positions."""
    return f"{layout}:" + ",".join(keys_for(PASSPHRASE, layout))


# The probe as an initramfs-tools script (init-premount, after ours); dracut's is a hook (typist()).
PROBE_SCRIPT = r"""#!/bin/sh
# The LUKS test's probe (not part of SplashHUD): types the passphrase at each prompt.
PREREQ="splashhud"
prereqs() { echo "$PREREQ"; }
case "$1" in prereqs) prereqs; exit 0 ;; esac
"""

# The typing, in the background. @ASKER@: the process that asks ("askpass": Debian's; "plymouth
# ask-for-password": dracut's crypt module runs the client as plymouth itself), @NEWROOT@: where
# the initramfs mounts the root, @MAPPER@: the mapping's name.
TYPIST = r"""(
""" + ib.CHANNEL + r"""up() { cut -d' ' -f1 /proc/uptime; }
ms() { up | tr -d . ; }   # uptime in centiseconds
# The first process whose name is $1 (and whose command line holds $2, if given); busybox's pidof
# may not be in the image. Builtins but for the grep: a fork per process is seconds per scan under
# emulation beside the splash.
pid_of() {
    for d in /proc/[0-9]*; do
        read -r c < "$d/comm" 2>/dev/null && [ "$c" = "$1" ] || continue
        [ -z "$2" ] || grep -q -- "$2" "$d/cmdline" 2>/dev/null || continue
        echo "${d#/proc/}" && return 0
    done
    return 1
}
if [ "@TRACE@" = 1 ]; then
    # Until the first prompt, every 2 s: what the initramfs's init does (the kernel's `debug`
    # word makes it trace itself into /run/initramfs/initramfs.debug) and the processes.
    (
    while ! pid_of @ASKER@ >/dev/null; do
        names=""
        for d in /proc/[0-9]*; do read -r c < "$d/comm" 2>/dev/null && names="$names $c"; done
        echo "INFO LUKS trace $(up) $(cut -d' ' -f1-3 /proc/loadavg) [$(tail -n 1 /run/initramfs/initramfs.debug 2>/dev/null | cut -c1-120)]$names" >&3
        sleep 2
    done
    ) &
fi
n=0
last=""
first=""
for attempt in @ATTEMPTS@; do
    n=$((n + 1))
    i=0
    pid=""
    while [ $i -lt 3000 ]; do
        pid=$(pid_of @ASKER@)
        [ -n "$pid" ] && [ "$pid" != "$last" ] && break
        pid=""
        sleep 0.1
        i=$((i + 1))
    done
    if [ -z "$pid" ]; then echo "INFO LUKS no-prompt $n" >&3; break; fi
    last="$pid"
    seen=$(up)
    # A new prompt after the previous attempt's Enter: cryptsetup refused that passphrase.
    [ $n -gt 1 ] && echo "INFO LUKS rejected $((n - 1)) at $(up)" >&3
    method=console
    if [ "@SPLASH@" = 1 ]; then
        # askpass runs `/bin/plymouth ask-for-password` when `plymouth --ping` answered (a
        # `plymouth` process alone may be that --ping, or cryptsetup's `plymouth message`);
        # dracut's asker is that process.
        j=0
        while [ $j -lt 50 ] && [ $method = console ]; do
            pid_of plymouth ask-for-password >/dev/null && method=plymouth
            [ $method = console ] && sleep 0.1
            j=$((j + 1))
        done
    fi
    sleep 1
    echo "INFO LUKS prompt $n method $method at $seen" >&3
    [ $method = plymouth ] && echo "INFO LUKS state $n $(/usr/bin/splashhud state 2>&1)" >&3
    # "stable" waits for two equal dumps, "settled" for two a second apart (the splash's prompt
    # is still: nothing turns while it waits for keys).
    ctl "SHOT luks-prompt-$n @SHOTMODE@"
    layout=${attempt%%:*}
    if [ "$layout" = tap ]; then
        # The keys the on-screen keyboard shows (TAP X Y W H NAME BASE SHIFT SYMBOLS), then the
        # taps that type the text on them, Enter's last; SHOT after the third character.
        j=0
        until /usr/bin/splashhud keyboard > /run/luks-keys 2>&1 || [ $j -ge 50 ]; do sleep 0.1; j=$((j + 1)); done
        echo "INFO LUKS keyboard $(wc -l < /run/luks-keys) keys: $(head -n 1 /run/luks-keys)" >&3
        awk -v text="${attempt#*:}" '
            BEGIN { for (i = 32; i < 127; i++) ord[sprintf("%c", i)] = i }
            $1 == "TAP" { n++; at[n] = $2 " " $3 " " $4 " " $5; b[n] = $7; s[n] = $8; y[n] = $9; if ($6 != "char") fn[$6] = at[n] }
            function find(level, c,   j) { for (j = 1; j <= n; j++) if ((level == 0 ? b[j] : level == 1 ? s[j] : y[j]) == c) return j; return 0 }
            END {
                for (i = 1; i <= length(text); i++) {
                    c = ord[substr(text, i, 1)]
                    if ((k = find(0, c))) print "TAP " at[k]
                    else if ((k = find(1, c))) { print "TAP " fn["shift"]; print "TAP " at[k] }
                    else if ((k = find(2, c))) { print "TAP " fn["symbols"]; print "TAP " at[k]; print "TAP " fn["symbols"] }
                    else { print "NONE " c; exit 1 }
                    if (i == 3) print "SHOT"
                }
                print "TAP " fn["enter"]
            }' /run/luks-keys > /run/luks-taps || echo "INFO LUKS untappable $(tail -n 1 /run/luks-taps)" >&3
        [ -z "$first" ] && first=$(ms) && echo "INFO LUKS first-key $(up)" >&3
        while read -r tap; do
            case "$tap" in
                SHOT) sleep 0.5; ctl "SHOT luks-typed-$n @SHOTMODE@" ;;
                TAP*) ctl "$tap" ;;
            esac
        done < /run/luks-taps
    else
        keys=$(echo "${attempt#*:}" | tr , ' ')
        k=0
        for key in $keys; do
            [ -z "$first" ] && first=$(ms) && echo "INFO LUKS first-key $(up)" >&3
            ctl "KEY $key"
            k=$((k + 1))
            if [ $k = 3 ]; then sleep 0.5; ctl "SHOT luks-typed-$n @SHOTMODE@"; fi
        done
        ctl "KEY ret"
    fi
    echo "INFO LUKS typed $n layout $layout" >&3
    i=0
    while [ $i -lt 600 ] && [ -d /proc/$pid ]; do sleep 0.1; i=$((i + 1)); done
done
i=0
while [ $i -lt 1200 ] && [ ! -e /dev/mapper/@MAPPER@ ]; do sleep 0.1; i=$((i + 1)); done
[ -e /dev/mapper/@MAPPER@ ] && echo "INFO LUKS unlocked $(up)" >&3
i=0
while [ $i -lt 1200 ] && ! grep -q " @NEWROOT@ " /proc/mounts; do sleep 0.05; i=$((i + 1)); done
if grep -q " @NEWROOT@ " /proc/mounts; then
    t=$(ms)
    echo "INFO LUKS root-mounted $(up)" >&3
    [ -n "$first" ] && echo "INFO LUKS key-to-mount $(( (t - first) * 10 ))" >&3
fi
# The splash's log so far (the daemon's view of the prompt), one INFO line each.
[ -r /run/initramfs/splashhud.log ] && tail -n 40 /run/initramfs/splashhud.log | while IFS= read -r line; do
    echo "INFO LUKS splash-log $line" >&3
done
exec 3>&-
) </dev/null >/dev/null 2>&1 &
"""

TEST_HOOK = r"""#!/bin/sh
# The LUKS test's hook (not part of SplashHUD), run before ours (hooks run in name order).
PREREQ=""
prereqs() { echo "$PREREQ"; }
case "$1" in prereqs) prereqs; exit 0 ;; esac
# The root's crypttab entry: what cryptsetup-initramfs's hook writes for an encrypted root.
mkdir -p "$DESTDIR/cryptroot"
echo "cryptroot UUID=@UUID@ none luks" >> "$DESTDIR/cryptroot/crypttab"
# No Plymouth in the image, as on a machine without the package (the host has it: its hook added
# the binaries; mkinitramfs copied its boot scripts with all of /usr/share/initramfs-tools/scripts).
rm -f "$DESTDIR/usr/bin/plymouth" "$DESTDIR/bin/plymouth" "$DESTDIR/usr/sbin/plymouthd" "$DESTDIR/sbin/plymouthd"
rm -f "$DESTDIR"/scripts/*/plymouth
# The keyboard layout: setupcon saved the host's keymap under this name; its micro setupcon loads it.
# Its name goes in too, where our hook would copy the host's (the prompt's layout tag reads it).
if [ -s "@CONF@/test.kmap" ]; then
    for k in "$DESTDIR"/etc/console-setup/*.kmap; do
        [ -e "$k" ] && cp "@CONF@/test.kmap" "$k" && echo "luks-test: keymap $k from ckbcomp -layout @LAYOUT@"
    done
    mkdir -p "$DESTDIR/etc/default" && echo 'XKBLAYOUT="@LAYOUT@"' > "$DESTDIR/etc/default/keyboard"
fi
exit 0
"""


def typist(attempts, asker, newroot, mapper, splash, trace=False):
    """TYPIST for these attempts: a shell fragment that starts it in the background."""
    text = TYPIST
    for k, v in (("@ATTEMPTS@", " ".join(attempts)), ("@SPLASH@", "1" if splash else "0"), ("@TRACE@", "1" if trace else "0"),
                 (" @SHOTMODE@", " settled" if splash else " stable"), ("@ASKER@", asker), ("@NEWROOT@", newroot),
                 ("@MAPPER@", mapper)):
        text = text.replace(k, v)
    return text


def tree_digest(root):
    """Every path, mode, link target and content of the tree."""
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):
        dirs.sort()
        for n in sorted(files + [x for x in dirs if os.path.islink(os.path.join(d, x))]):
            p = os.path.join(d, n)
            st = os.lstat(p)
            h.update(f"{os.path.relpath(p, root)}\0{st.st_mode}\0".encode())
            if os.path.islink(p):
                h.update(os.readlink(p).encode())
            elif os.path.isfile(p):
                with open(p, "rb") as f:
                    h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()


def luks_image(st, work):
    """The root file system of initramfs-boot.py as a LUKS2 image: cached, copied into WORK."""
    ib.root_filesystem(st, work)  # WORK/root (the tree) and WORK/root.img (plain ext4)
    root = os.path.join(work, "root")
    cryptsetup = shutil.which("cryptsetup") or "/sbin/cryptsetup"
    version = subprocess.run([cryptsetup, "--version"], capture_output=True, text=True).stdout.strip()
    key = hashlib.sha256(json.dumps([tree_digest(root), ib.MKE2FS_OPTIONS, PASSPHRASE, FORMAT, version]).encode()).hexdigest()[:16]
    cached = os.path.join(CACHE_DIR, f"luks-root-{key}.img")
    image = os.path.join(work, "luks-root.img")
    if not os.path.exists(cached):
        os.makedirs(CACHE_DIR, exist_ok=True)
        tmp = cached + ".tmp"
        shutil.copyfile(os.path.join(work, "root.img"), tmp)
        with open(tmp, "r+b") as f:  # room for the header (--reduce-device-size: the data moves)
            f.truncate(os.path.getsize(tmp) + (16 << 20))
        pw = os.path.join(work, "passphrase")
        with open(pw, "w") as f:
            f.write(PASSPHRASE)
        t = time.monotonic()
        p = subprocess.run([cryptsetup, "reencrypt", "--encrypt", "--batch-mode", "--key-file", pw] + FORMAT + [tmp],
                           capture_output=True, text=True)
        if p.returncode != 0:
            os.unlink(tmp)
            raise SystemExit(f"luks-boot: cryptsetup reencrypt --encrypt failed ({p.returncode}): {p.stderr.strip()}\n"
                             "luks-boot: offline encryption needs the kernel's crypto API (AF_ALG, algif_skcipher) on the host")
        os.replace(tmp, cached)
        ib.log(f"LUKS2 image {cached}: encrypted on the host in {time.monotonic() - t:.1f} s")
        for old in os.listdir(CACHE_DIR):
            if old.startswith("luks-root-") and old.endswith(".img") and os.path.join(CACHE_DIR, old) != cached:
                os.unlink(os.path.join(CACHE_DIR, old))
    else:
        ib.log(f"LUKS2 image {cached}: cached")
    subprocess.run(["cp", "--sparse=always", cached, image], check=True)
    dump = subprocess.run([cryptsetup, "luksDump", image], capture_output=True, text=True).stdout
    for line in dump.splitlines():
        if line.startswith(("Version:", "UUID:")) or "PBKDF:" in line or "cipher:" in line or "offset:" in line:
            print(f"LUKSDUMP {' '.join(line.split())}")
    return image


def boot(a):
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    version = ib.kernel_version()
    st, env = ib.stage(a.bin_dir, work)
    confdir = os.path.join(st, "etc/initramfs-tools")
    with open(os.path.join(confdir, "initramfs.conf"), "w") as f:
        # KEYMAP=y: console-setup's hook puts the keymap in (cryptsetup-initramfs forces it anyway).
        f.write("MODULES=list\nBUSYBOX=y\nKEYMAP=y\nCOMPRESS=zstd\nRUNSIZE=10%\nFSTYPE=ext4\n")
    with open(os.path.join(confdir, "modules"), "w") as f:
        # The keyboard: virtio-keyboard-pci's driver (the VT's keyboard handler is built in).
        f.write("virtio_pci\nvirtio_blk\next4\nvirtio_input\nevdev\n")
    if a.layout != "us":
        kmap = subprocess.run(["ckbcomp", "-backspace", "del", "-model", "pc105", "-layout", a.layout],
                              capture_output=True, text=True)
        if kmap.returncode != 0 or "keycode" not in kmap.stdout:
            raise SystemExit(f"luks-boot: ckbcomp -layout {a.layout} failed: {kmap.stderr.strip()[:300]} (console-setup)")
        with open(os.path.join(confdir, "test.kmap"), "w") as f:
            f.write(kmap.stdout)
    hook = os.path.join(confdir, "hooks/00luks-test")
    with open(hook, "w") as f:
        f.write(TEST_HOOK.replace("@UUID@", UUID).replace("@CONF@", confdir).replace("@LAYOUT@", a.layout))
    os.chmod(hook, 0o755)
    attempts = []
    if a.wrong_first:
        attempts.append(attempt("us" if a.layout != "us" else "de"))
    if a.tap:
        # The on-screen keyboard on every prompt, in the image's layout: the right passphrase tapped.
        profile = os.path.join(st, "usr/share/splashhud/boards/luks-tap.conf")
        with open(profile, "w") as f:
            f.write(f"# The LUKS test's tapped prompt (scripts/qemu/luks-boot.py --tap).\n[input]\non-screen-keyboard = always\nkeymap = {a.layout}\n")
        conf = os.path.join(st, "etc/splashhud/initrd.conf")
        with open(conf) as f:
            text = f.read()
        with open(conf, "w") as f:
            f.write(text.replace('SPLASHHUD_PROFILE=""', 'SPLASHHUD_PROFILE="luks-tap"'))
        print(f"PROFILE {profile}")
        attempts.append(f"tap:{PASSPHRASE}")
    else:
        attempts.append(attempt(a.layout))
    probe = os.path.join(confdir, "scripts/init-premount/zz-luks-probe")
    with open(probe, "w") as f:
        f.write(PROBE_SCRIPT + typist(attempts, "askpass", "/root", "cryptroot", a.splash, a.trace))
    os.chmod(probe, 0o755)
    for i, at in enumerate(attempts, 1):
        layout, keys = at.split(":")
        if layout == "tap":
            print(f"ATTEMPT {i} tapped on the on-screen keyboard ({a.layout}): the passphrase")
            continue
        print(f"ATTEMPT {i} layout {layout} keys {keys.replace(',', ' ')}"
              + (" (the passphrase)" if layout == a.layout else f" (the passphrase's {layout} key positions on a {a.layout} keymap)"))
    image = os.path.join(work, "initrd.img")
    t = time.monotonic()
    p = subprocess.run(["mkinitramfs", "-d", confdir, "-o", image, version], env=env, capture_output=True, text=True)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"luks-boot: mkinitramfs failed ({p.returncode})")
    for line in (p.stdout + p.stderr).splitlines():
        if line.strip():
            print(f"MKINITRAMFS {line.strip()}")
    ib.log(f"mkinitramfs {image}: {os.path.getsize(image) >> 20} MB, {time.monotonic() - t:.1f} s")
    unpacked = os.path.join(work, "unpacked")
    shutil.rmtree(unpacked, ignore_errors=True)
    ib.run(["unmkinitramfs", image, unpacked])
    main = os.path.join(unpacked, "main") if os.path.isdir(os.path.join(unpacked, "main")) else unpacked
    for path in ("cryptroot/crypttab",):
        with open(os.path.join(main, path)) as f:
            for line in f:
                print(f"IMAGE-CRYPTTAB {line.strip()}")
    for path in ("bin/plymouth", "usr/bin/plymouth", "usr/sbin/plymouthd", "usr/lib/cryptsetup/askpass",
                 "usr/sbin/cryptsetup", "usr/bin/setupcon", "usr/bin/loadkeys"):
        full = os.path.join(main, path)
        if os.path.lexists(full):
            print(f"IMAGE {path}" + (f" -> {os.readlink(full)}" if os.path.islink(full) else ""))
    shutil.rmtree(unpacked, ignore_errors=True)
    disk = luks_image(st, work)
    words = ["root=/dev/mapper/cryptroot", "rw", "console=tty1"]
    if not a.splash:
        words.append("splashhud.enable=0")
    if a.trace:
        words.append("debug")
    cmd = [sys.executable, os.path.join(HERE, "vmtest.py"), "boot", "--display", "virtio", "--initrd", image, "--input",
           "--drive", disk, "--shots-dir", a.shots_dir, "--timeout", str(a.timeout), "--verbose",
           "--cmdline", " ".join(words)]
    sys.stdout.flush()
    return subprocess.call(cmd)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("boot")
    b.add_argument("--bin-dir", required=True)
    b.add_argument("--work", required=True)
    b.add_argument("--shots-dir", required=True)
    b.add_argument("--splash", action="store_true", help="the splash on: the prompt comes through /bin/plymouth")
    b.add_argument("--layout", choices=sorted(LAYOUTS), default="us", help="the image's keymap and the keys typed")
    b.add_argument("--wrong-first", action="store_true", help="first type at the other layout's key positions")
    b.add_argument("--tap", action="store_true", help="tap the passphrase on the on-screen keyboard (with --splash)")
    b.add_argument("--trace", action="store_true", help="INFO LUKS trace lines: the processes and their CPU ticks every 2 s until the first prompt")
    b.add_argument("--timeout", type=float, default=300.0)
    a = ap.parse_args()
    return {"boot": boot}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
