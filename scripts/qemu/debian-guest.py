#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs the docs' marked shell blocks verbatim in a Debian 12 guest with Plymouth, and reboots it.

    debian-guest.py image [--work DIR]
    debian-guest.py run --work DIR --shots-dir DIR [--timeout S]

`image`: the cached guest, .build/qemu/debian12-HASH.img and its Debian initrd (the hash covers
the package list, the guest kernel and this recipe): mmdebstrap's bookworm minbase with PACKAGES
(Plymouth as Debian ships it, busybox as initramfs-tools recommends), the guest kernel's modules
for virtio, ext4 and the display (copied from the host, depmod), an fstab, and docs-guest.service,
which mounts the second disk and runs its guest.sh. Prints the image's path.

`run`: a second disk with the repository's tracked files, the binaries scripts/test.sh builds
(.build-static-executable/release/splashhudd and splashhud, as scripts/test.sh and install.sh --build-only build them; no tools)
and the blocks scripts/doc-blocks.py extracts; then
  1. boot 1 (Debian's own initramfs, Plymouth in it): the tree is copied to /root/splashhud and
     the `install` blocks run there, one `bash -e -o pipefail` each (they rebuild the initramfs);
  2. the new /boot/initrd.img-* is read out of the image (debugfs) and listed here (lsinitramfs);
  3. boot 2 with it: once the splash is up, the `check` blocks, a screendump of the HUD, what
     the daemons did (command line, hand-over, logs); an offline update's Plymouth commands (as
     PackageKit and fwupd send them) and a screendump; then `systemctl poweroff`, and a
     systemd-shutdown hook that finds splashhud-poweroff.service's daemon alive after the final
     kill, dumps its HUD and reads its log, before the guest powers off;
  4. boot 3: the `uninstall` blocks and what is left of SplashHUD and Plymouth; the initrd the
     uninstall rebuilt is listed here too.
Every fact is an `INFO` line on ttyS1 (vmtest.py's protocol; the test reads them), each block's
output goes to the guest console. Exits with the first failing boot's status. Runs as root
(mmdebstrap, mke2fs -d, debugfs). Python 3 standard library only.
"""
import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CACHE = os.path.join(REPO, ".build", "qemu")
os.environ["PATH"] = os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin"

# What a kiosk's Debian 12 has: systemd and udev, initramfs-tools with busybox (its recommends),
# Plymouth from Debian, DejaVu for the HUD's text.
PACKAGES = ["systemd-sysv", "udev", "kmod", "initramfs-tools", "busybox", "zstd", "plymouth", "fonts-dejavu-core"]
# The guest kernel's modules the boots need (with their dependencies): virtio disk and GPU, ext4.
MODULES = ["virtio_pci", "virtio_blk", "virtio_gpu", "bochs", "ext4", "crc32c_generic", "crc32c_intel",
           "virtio_input", "evdev"]

# The test's unit (not SplashHUD's): the second disk's guest.sh once the system is up, before
# splashhud-quit.service ends the splash.
UNIT = """[Unit]
Description=The docs' blocks (SplashHUD's DocsEndToEndTests)
After=local-fs.target systemd-udevd.service
Before=splashhud-quit.service

[Service]
Type=oneshot
ExecStart=/bin/sh -c 'mkdir -p /mnt/tree-disk && mount -o ro /dev/vdb /mnt/tree-disk && exec /bin/sh /mnt/tree-disk/guest.sh'
StandardOutput=journal+console
StandardError=journal+console
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
"""

# systemd-shutdown's hook (the test's): run after the final kill, with the root file system
# read-only; the daemon that survived it answers, the HUD is dumped, its log read out of /run.
HOOK = r"""#!/bin/sh
exec 3<>/dev/ttyS1
say() { echo "INFO $*" >&3; }
pid=$(pidof splashhudd)
say "POWEROFF action $1 daemon $pid $(tr '\0' ' ' < "/proc/$pid/cmdline")"
say "POWEROFF state $(splashhud state --timeout 5000 2>&1)"
splashhud send --timeout 5000 'MSG Powering off' 'PROGRESS 50'
echo "SHOT poweroff settled" >&3
read -r answer <&3
say "POWEROFF after $(splashhud state --timeout 5000 2>&1)"
sed 's/^/INFO POWEROFF log /' /run/docs-guest-poweroff.log >&3
"""

# The second disk's runner: the phase is kept on the root disk (/var/lib/docs-guest/phase).
GUEST = r"""#!/bin/sh
# The test's guest runner (DocsEndToEndTests; not part of SplashHUD).
disk=/mnt/tree-disk
tree=/root/splashhud
phase=/var/lib/docs-guest/phase
stty -F /dev/ttyS1 raw -echo
exec 3<>/dev/ttyS1
say() { echo "INFO $*" >&3; echo "docs-guest: $*"; }
ctl() { echo "$1" >&3; read -r answer <&3; echo "docs-guest: $1 -> $answer"; }
finish() { sync; echo "EXIT $1" >&3; sleep 600; }
# Every block of a phase, verbatim, from the tree's root; the first that fails ends the boot.
blocks() {
    for b in "$disk/blocks/$1"/*.sh; do
        [ -e "$b" ] || continue
        where=$(head -n 1 "$b" | cut -c 3-)
        t0=$(date +%s)
        # Its output on the console as it comes (the status through a file: sh has no pipefail).
        { (cd "$tree" && bash -e -x -o pipefail "$b") 2>&1; echo $? >/run/docs-block.status; } | sed -u "s|^|docs-guest: $where: |"
        rc=$(cat /run/docs-block.status)
        say "BLOCK $1 $where status $rc seconds $(( $(date +%s) - t0 ))"
        [ "$rc" = 0 ] || { journal; finish 1; }
    done
}
# The splash's units, the quit, Plymouth's units and this one: what started or ended the splash when.
journal() {
    echo "--- the journal"
    journalctl -b --no-pager -o short-monotonic -u splashhud.service -u splashhud-initramfs.service -u splashhud-quit.service -u docs-guest.service \
        -u 'plymouth*' -u 'systemd-ask-password*' -u 'splashhud-ask-password*' -u 'getty@tty1.service' | grep -v 'frame scheduler'
    echo "--- the units' jobs"
    systemctl list-jobs --no-pager
}
mkdir -p /var/lib/docs-guest
case "$(cat "$phase" 2>/dev/null)" in
"")
    say "BOOT1 plymouth $(dpkg-query -W -f='${Status} ${Version}' plymouth) swift $(command -v swift || echo none)"
    cp -a "$disk/tree" "$tree"
    blocks install
    # /etc/default/splashhud stays as the docs leave it, the image's copy: the initramfs's daemon
    # is kept in the real root (its log, /run/initramfs/splashhud.log, is printed below).
    # The unit gives the daemon 10 s to show its first frame, ample on a board. This guest is one
    # vCPU under TCG on a host that compiles beside it: in CI the optimised static daemon's start
    # took 1.2 s of CPU spread over the 10 s, the vCPU shared with the rest of boot 2. A drop-in
    # of the test's gives it 60 s here; it goes before the uninstall blocks run.
    mkdir -p /etc/systemd/system/splashhud.service.d
    printf '[Service]\nTimeoutStartSec=60\n' > /etc/systemd/system/splashhud.service.d/docs-guest.conf
    say "BOOT1 diversions $(dpkg-divert --list | grep -c 'by splashhud')"
    echo check > "$phase"
    finish 0
    ;;
check)
    # Once a second, not faster: every client started here takes the one vCPU from the daemon,
    # whose unit gives it 5 s to show its first frame.
    i=0
    st=""
    while [ $i -lt 90 ]; do
        # The initramfs's daemon, kept in the real root, or splashhud.service's.
        unit=splashhud.service
        [ -e /run/splashhud/initramfs-daemon ] && unit=splashhud-initramfs.service
        case "$(systemctl show -p ActiveState --value $unit)" in
            active) st=$(splashhud state --timeout 2000 2>&1)
                    case "$st" in *"visible yes"*"outputs card"*) break ;; esac ;;
            failed) st="splashhud.service failed"; break ;;
        esac
        sleep 1
        i=$((i + 1))
    done
    say "BOOT2 state $st"
    pid=$(pidof splashhudd || echo none)
    say "BOOT2 daemon $(tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null)"
    say "BOOT2 unit $(systemctl show -p MainPID --value splashhud.service) $pid kept $(cat /run/splashhud/initramfs-daemon 2>/dev/null || echo none) $(systemctl is-active splashhud-initramfs.service)"
    say "BOOT2 plymouthd $(pidof plymouthd || echo none)"
    say "BOOT2 handover-env $(ls /run/initramfs/splashhud.env 2>/dev/null || echo none)"
    say "BOOT2 initramfs-log $(grep -c . /run/initramfs/splashhud.log 2>/dev/null || echo none)"
    echo "--- the initramfs daemon's log"; cat /run/initramfs/splashhud.log
    blocks check
    # 5 s, not the client's 500 ms: under emulation on a loaded host the daemon's loop answered late.
    say "BOOT2 message $(splashhud state --timeout 5000 2>&1)"
    # psplash's PROGRESS keeps the text display-message set: a still HUD for the screendump.
    splashhud send --timeout 5000 'PROGRESS 50'
    ctl "SHOT check settled"
    say "BOOT2 shown $(splashhud state --timeout 5000 2>&1)"
    journal
    # Offline updates: PackageKit's pk-offline-update's commands through Debian's own client (moved
    # aside by --replace-plymouth), then fwupd's offline run's (the progress a separate word)
    # through the plymouth on PATH, SplashHUD's.
    real=/usr/lib/splashhud/plymouth/bin-plymouth
    $real change-mode --updates && $real system-update --progress=10 && $real system-update --progress=40
    say "BOOT2 offline-packagekit $? $(splashhud state --timeout 5000 2>&1)"
    ctl "SHOT offline settled"
    plymouth change-mode --system-upgrade && plymouth system-update --progress 60
    say "BOOT2 offline-fwupd $? $(splashhud state --timeout 5000 2>&1)"
    # The power-off: splashhud-poweroff.service's daemon (its log in /run, which outlives
    # journald; the 60 s start of splashhud.service's drop-in), and the test's hook, which
    # systemd-shutdown runs after its final kill and before it powers the machine off.
    mkdir -p /etc/systemd/system/splashhud-poweroff.service.d /usr/lib/systemd/system-shutdown
    printf '[Service]\nTimeoutStartSec=60\nStandardError=append:/run/docs-guest-poweroff.log\n' \
        > /etc/systemd/system/splashhud-poweroff.service.d/docs-guest.conf
    install -m 0755 "$disk/poweroff-hook.sh" /usr/lib/systemd/system-shutdown/docs-guest.shutdown
    systemctl daemon-reload
    say "BOOT2 poweroff-unit $(systemctl is-enabled splashhud-poweroff.service 2>&1)"
    echo uninstall > "$phase"
    sync
    echo POWEROFF >&3
    systemctl poweroff
    exec sleep 600
    ;;
uninstall)
    rm -r /etc/systemd/system/splashhud.service.d /etc/systemd/system/splashhud-poweroff.service.d \
        /usr/lib/systemd/system-shutdown/docs-guest.shutdown
    blocks uninstall
    say "BOOT3 after diversions $(dpkg-divert --list | grep -c 'by splashhud') plymouth $(if [ -L /usr/bin/plymouth ]; then echo link; elif [ -x /usr/bin/plymouth ]; then echo file; else echo none; fi) plymouthd $(test -x /usr/sbin/plymouthd && echo yes || echo no) start $(systemctl is-enabled plymouth-start.service 2>&1) splashhudd $(test -e /usr/bin/splashhudd && echo yes || echo no)"
    finish 0
    ;;
esac
say "docs-guest: unknown phase"
finish 2
"""


def log(msg):
    print(f"debian-guest: {msg}", file=sys.stderr, flush=True)


def run(argv, **kw):
    t = time.monotonic()
    p = subprocess.run(argv, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"debian-guest: {' '.join(argv[:3])}… failed ({p.returncode})")
    return p.stdout, time.monotonic() - t


def kernel_version():
    out, _ = run([sys.executable, os.path.join(HERE, "vmtest.py"), "kernel"])
    return out.strip()


def module_files(version):
    """The modules MODULES need, in load order, as modprobe resolves them on the host."""
    files = []
    for m in MODULES:
        out, _ = run(["modprobe", "-S", version, "-D", m])
        for line in out.splitlines():
            if line.startswith("insmod "):
                path = line.split()[1]
                if path not in files:
                    files.append(path)
    return files


def image(work=None, packages=PACKAGES):
    """The cached image and its Debian initrd (built once per key). `packages`: what mmdebstrap
    installs (scripts/bench/whole-boot.py adds Debian's default Plymouth theme)."""
    version = kernel_version()
    key = hashlib.sha256("\n".join([version, " ".join(packages), " ".join(MODULES), UNIT]).encode()).hexdigest()[:16]
    img = os.path.join(CACHE, f"debian12-{key}.img")
    initrd = img[:-4] + ".initrd"
    if os.path.exists(img) and os.path.exists(initrd):
        return img, initrd, version
    for tool in ("mmdebstrap", "mke2fs"):
        if not shutil.which(tool):
            raise SystemExit(f"debian-guest: {tool} is not installed: run scripts/setup.sh --tests")
    os.makedirs(CACHE, exist_ok=True)
    work = os.path.abspath(work or os.path.join(CACHE, f"debian12-{key}.work"))
    shutil.rmtree(work, ignore_errors=True)
    stage = os.path.join(work, "stage")
    # The kernel's side, copied in: its modules (and depmod's inputs), its config (mkinitramfs reads it).
    base = f"/lib/modules/{version}"
    for path in module_files(version) + [f"{base}/{n}" for n in ("modules.order", "modules.builtin", "modules.builtin.modinfo")]:
        # Under usr/: bookworm's /lib is a link to usr/lib, which a lib/ in the stage would replace.
        dest = os.path.join(stage, "usr", os.path.relpath(os.path.realpath(path), "/usr") if path.startswith("/usr/") else path.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(path, dest)
    os.makedirs(os.path.join(stage, "boot"))
    shutil.copy2(f"/boot/config-{version}", os.path.join(stage, "boot"))
    files = {
        "etc/fstab": "/dev/vda / ext4 rw,errors=remount-ro 0 1\n",
        "etc/hostname": "docs-guest\n",
        "etc/systemd/system/docs-guest.service": UNIT,
    }
    for path, text in files.items():
        dest = os.path.join(stage, path)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        with open(dest, "w") as f:
            f.write(text)
    os.makedirs(os.path.join(stage, "etc/systemd/system/multi-user.target.wants"))
    os.symlink("/etc/systemd/system/docs-guest.service", os.path.join(stage, "etc/systemd/system/multi-user.target.wants/docs-guest.service"))
    root = os.path.join(work, "root")
    out = os.path.join(work, "out")
    os.makedirs(out)
    # Debian's own initrd for the first boot: Plymouth's hook and scripts in it, as installed.
    _, took = run(["mmdebstrap", "--mode=root", "--variant=minbase", "--include=" + ",".join(packages),
                   f"--customize-hook=sync-in {stage} /",
                   f"--customize-hook=chroot \"$1\" /usr/bin/env PATH=/usr/sbin:/usr/bin:/sbin:/bin depmod {version}",
                   f"--customize-hook=chroot \"$1\" /usr/bin/env PATH=/usr/sbin:/usr/bin:/sbin:/bin update-initramfs -c -k {version}",
                   f"--customize-hook=copy-out /boot/initrd.img-{version} {out}",
                   "bookworm", root])
    log(f"mmdebstrap: {took:.0f} s")
    size = int(subprocess.run(["du", "-sm", root], capture_output=True, text=True).stdout.split()[0])
    tmp = img + ".tmp"
    # Room for the tree, the installed binaries and two more initrds.
    run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", "root", "-d", root, tmp, f"{size + 600}M"])
    shutil.copy2(os.path.join(out, f"initrd.img-{version}"), initrd)
    os.replace(tmp, img)
    shutil.rmtree(work, ignore_errors=True)
    log(f"image {img}: {size} MB of files")
    return img, initrd, version


def tree_disk(work, guest=GUEST, files=None):
    """The second disk: the tracked tree with the test's binaries, the blocks and `guest` as
    guest.sh (docs-guest.service runs it), and `files` ({name: text}) beside it."""
    top = os.path.join(work, "disk")
    shutil.rmtree(top, ignore_errors=True)
    tree = os.path.join(top, "tree")
    listing, _ = run(["git", "-C", REPO, "ls-files", "-z"])
    for rel in filter(None, listing.split("\0")):
        src = os.path.join(REPO, rel)
        if not os.path.lexists(src):
            continue  # deleted in the work tree, not yet committed
        dest = os.path.join(tree, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(src, dest, follow_symlinks=False)
    # The binaries scripts/test.sh builds before the QEMU phase (the fully static pair), at the path
    # install.sh looks in when there is no swift; no tools (test.sh does not build them), whatever
    # else the host's tree holds.
    static = os.environ.get("SPLASHHUD_STATIC_DAEMON") or os.path.join(REPO, ".build-static-executable/release/splashhudd")
    pairs = [(static, ".build-static-executable/release/splashhudd"),
             (os.environ.get("SPLASHHUD_STATIC_CLIENT") or os.path.join(os.path.dirname(static), "splashhud"),
              ".build-static-executable/release/splashhud")]
    for src, rel in pairs:
        if not os.path.exists(src):
            raise SystemExit(f"debian-guest: {src} is missing (scripts/test.sh builds it)")
        os.makedirs(os.path.dirname(os.path.join(tree, rel)), exist_ok=True)
        # Stripped, as `install.sh --build-only` leaves them: the guest has no binutils, and
        # test.sh's pair keeps its symbols for the profiles.
        run(["strip", "-o", os.path.join(tree, rel), src])
    for phase in ("install", "check", "uninstall"):
        out, _ = run([sys.executable, os.path.join(REPO, "scripts/doc-blocks.py"), "extract", phase, os.path.join(top, "blocks", phase)])
        for line in out.splitlines():
            print(f"BLOCKS {phase} {line}")
    for name, text in {"guest.sh": guest, "poweroff-hook.sh": HOOK, **(files or {})}.items():
        with open(os.path.join(top, name), "w") as f:
            f.write(text)
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(top) for n in ns
               if not os.path.islink(os.path.join(d, n)))
    disk = os.path.join(work, "tree.img")
    run(["mke2fs", "-q", "-F", "-t", "ext4", "-d", top, disk, f"{size // (1 << 20) + 32}M"])
    return disk


def boot(a, initrd, root, disk, name):
    cmd = [sys.executable, os.path.join(HERE, "vmtest.py"), "boot", "--display", "virtio", "--initrd", initrd,
           "--drive", root, "--drive", disk, "--shots-dir", a.shots_dir, "--timeout", str(a.timeout), "--verbose",
           "--cmdline", "root=/dev/vda rw mitigations=off"]
    t = time.monotonic()
    sys.stdout.flush()
    status = subprocess.call(cmd)
    print(f"TIME {name} {time.monotonic() - t:.1f}", flush=True)
    return status


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    i = sub.add_parser("image")
    i.add_argument("--work")
    r = sub.add_parser("run")
    r.add_argument("--work", required=True)
    r.add_argument("--shots-dir", required=True)
    # A boot's blocks rebuild the initramfs: 3-6 minutes under TCG on two loaded cores.
    r.add_argument("--timeout", type=float, default=1200.0)
    # A developer's aid: boot 1's disk kept in --work, and boot 2 alone when it is there.
    r.add_argument("--reuse-boot1", action="store_true")
    a = ap.parse_args()
    t0 = time.monotonic()
    img, initrd, version = image(getattr(a, "work", None) and os.path.join(a.work, "image"))
    print(f"TIME image {time.monotonic() - t0:.1f}", flush=True)
    if a.cmd == "image":
        print(img)
        return 0
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    root = os.path.join(work, "root.img")
    subprocess.run(["cp", "--sparse=always", "--reflink=auto", img, root], check=True)
    disk = tree_disk(work)
    kept = os.path.join(work, "root-after-boot1.img")
    if a.reuse_boot1 and os.path.exists(kept):
        subprocess.run(["cp", "--sparse=always", kept, root], check=True)
    else:
        status = boot(a, initrd, root, disk, "boot1")
        if status != 0:
            return status
        if a.reuse_boot1:
            subprocess.run(["cp", "--sparse=always", root, kept], check=True)
    # The initrd the blocks' update-initramfs -u wrote.
    new = os.path.join(work, "initrd.img")
    paths = initrd_paths(root, version, new)
    print(f"HOST BOOT1 image-plymouthd {count(paths, 'plymouthd$')} image-splashhudd {count(paths, 'usr/bin/splashhudd$')}"
          f" default {count(paths, 'etc/default/splashhud$')}", flush=True)
    status = boot(a, new, root, disk, "boot2")
    if status == 0:
        status = boot(a, new, root, disk, "boot3")
    if status == 0:
        paths = initrd_paths(root, version, os.path.join(work, "initrd-after.img"))
        print(f"HOST BOOT3 after image-plymouthd {count(paths, 'plymouthd$')} image-splashhudd {count(paths, 'splashhudd$')}", flush=True)
    print(f"TIME total {time.monotonic() - t0:.1f}", flush=True)
    return status


def initrd_paths(root, version, dest):
    """The guest's /boot/initrd.img-VERSION, read out of its root file system into `dest`, and the
    paths it holds: listed here, not in the guest, where unpacking it under emulation took a minute."""
    run(["debugfs", "-R", f"dump -p /boot/initrd.img-{version} {dest}", root])
    if not os.path.getsize(dest):
        raise SystemExit(f"debian-guest: no /boot/initrd.img-{version} in the guest")
    out, _ = run(["lsinitramfs", dest])
    return out.splitlines()


def count(paths, pattern):
    return sum(1 for p in paths if re.search(pattern, p))


if __name__ == "__main__":
    sys.exit(main())
