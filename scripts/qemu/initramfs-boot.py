#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Boots SplashHUD from a real initramfs: Debian's mkinitramfs with our hook, then a real root.

    initramfs-boot.py boot --bin-dir DIR --work DIR --shots-dir DIR [--timeout S]
    initramfs-boot.py dracut --bin-dir DIR --work DIR
    initramfs-boot.py dracut-boot --bin-dir DIR --work DIR --shots-dir DIR [--timeout S]
    initramfs-boot.py sd-boot --bin-dir DIR --work DIR --shots-dir DIR [--timeout S]

`boot`:
  1. scripts/install.sh --destdir WORK/stage --bin-dir DIR --initramfs: the binaries, the units,
     the rule, the hook, the scripts and the helper as a machine would have them.
  2. mkinitramfs -d WORK/stage/etc/initramfs-tools (our hook and scripts; Debian's own hooks in
     /usr/share/initramfs-tools run too) with MODULES=list (virtio disk, ext4; the hook adds
     virtio-gpu from initrd.conf's SPLASHHUD_DRM_MODULES), SPLASHHUD_PREFIX naming the stage.
     The test adds one probe, scripts/init-premount/zz-splashhud-probe (after ours): it waits
     for the daemon's HUD, reports /proc/mounts, sets a static progress and asks for a screendump,
     all before the root file system is mounted.
  3. A root file system (ext4 by mke2fs -d): busybox, the daemon, the client and their libraries,
     the units, the rule and the machine's settings (so the initramfs keeps its daemon: init-bottom
     moves it into the real root with `newroot`), and /sbin/init, a script that plays systemd's
     part: it asks for a screendump of the frame kept over switch_root, writes to tty1, runs
     splashhud.service as systemd would (skipped while the kept daemon's mark is there; otherwise
     its EnvironmentFile, ExecStart, ExecStartPost) and asks for a screendump of the HUD, then runs
     splashhud-quit.service's ExecStart and ExecStartPost and asks for a screendump of the console.
     The image is built as on a machine without Plymouth (a test hook takes out what this host's
     plymouth hook put in); dracut's image with systemd hands over instead (its unit's stop).
  4. scripts/qemu/vmtest.py boot --display virtio --initrd ... --drive root.img.
  Prints IMAGE lines (what the initramfs holds) and vmtest's output; exits with vmtest's status.

`dracut`: builds two images with dracut (--no-hostonly, zstd -1): `-m "base splashhud"`
and `-m "systemd base splashhud"`, using a copy of /usr/lib/dracut whose modules.d also holds
the staged 90splashhud; prints DRACUT-<variant> lines listing what lsinitrd shows of ours (and
bin/plymouth: neither image has the plymouth module, so the module links it to the client).

`dracut-boot`: a dracut image without systemd in it (bash base udev-rules rootfs-block
kernel-modules crypt splashhud; the splash starts in the module's pre-trigger hook and its
pre-pivot hook keeps it, as init-bottom does), with the same probe as a pre-mount hook, booted on the same root as
`boot` encrypted: luks-boot.py's cached LUKS2 image, `rd.luks.uuid=` naming it. The crypt module's
cryptroot-ask runs `plymouth ask-for-password --command="cryptsetup luksOpen -T1 …"` (our module's
link to the client; no plymouth module); luks-boot.py's typist, a pre-trigger hook after ours,
types the passphrase on a virtio keyboard once (luks-boot's splash boot tries a wrong one first).
Prints IMAGE lines (the plymouth link, cryptsetup, cryptroot-ask), luks-boot's LUKS lines, then
`boot`'s.

`sd-boot`: a dracut image WITH systemd (systemd, systemd-initrd, dracut-systemd, crypt, tpm2-tss,
splashhud: the splash starts from sysinit.target with /run/plymouth/pid, systemd's Plymouth agent
runs through splashhud-ask-password.path, the hand-over is splashhud.service's ExecStop before
switch-root), booted on the same LUKS2 root (`rd.luks.uuid=`) plus a second small LUKS2 volume
enrolled on the host with `systemd-cryptenroll --tpm2-device=swtpm:path=… --tpm2-with-pin=yes
--tpm2-pcrs=` against a fresh swtpm state (`rd.luks.uuid=` and `rd.luks.options=UUID=tpm2-device=auto`);
the guest gets that state as its TPM (swtpm socket, QEMU -tpmdev emulator, tpm-tis). No PCRs: the
host's enrollment and the guest's boot share no measured boot (SeaBIOS with -kernel measures
nothing the host could predict), so the PIN alone guards the key, which is what the test is about.
A typist service in the image answers each prompt the splash shows (`splashhud state`): the PIN
at systemd's PIN prompt, at the passphrase prompt first a wrong passphrase (systemd-cryptsetup
asks again) then the right one; screendumps sd-<kind>-prompt and sd-<kind>-typed (after three
keys). Prints IMAGE lines, SDLUKS INFO lines, then `boot`'s. Python 3 standard library only.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# mkinitramfs, mke2fs and dracut live in sbin, which a test runner's PATH may lack.
os.environ["PATH"] = os.environ.get("PATH", "/usr/bin:/bin") + ":/usr/sbin:/sbin"
REPO = os.path.dirname(os.path.dirname(HERE))

# Every probe's line to the host (vmtest.py's control channel on ttyS1): raw, no echo, the answer
# to a request read back (luks-boot.py's typist uses it too).
CHANNEL = r"""stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3<>/dev/ttyS1
ctl() { echo "$1" >&3; read -r answer <&3; echo "probe: $1 -> $answer"; }
"""

# Both probes wait up to a minute for the splash to be up on a DRM card, keeping what the client
# last said in $st.
WAIT_FOR_SPLASH = r"""i=0
st=""
while [ $i -lt 600 ]; do
    st=$(/usr/bin/splashhud state --timeout 500 2>&1)
    case "$st" in *"visible yes"*"outputs card"*) break ;; esac
    sleep 0.1
    i=$((i + 1))
done
"""

PROBE = r"""#!/bin/sh
# The test's probe (not part of SplashHUD): runs after scripts/init-premount/splashhud.
PREREQ="splashhud"
prereqs() { echo "$PREREQ"; }
case "$1" in prereqs) prereqs; exit 0 ;; esac
""" + CHANNEL + WAIT_FOR_SPLASH + r"""echo "INFO INITRAMFS state $st" >&3
echo "INFO INITRAMFS mounts $(cut -d' ' -f2 /proc/mounts | tr '\n' ' ')" >&3
echo "INFO INITRAMFS daemon $(cat /run/initramfs/splashhud.pid 2>/dev/null)" >&3
/usr/bin/splashhud progress 0.5 Initramfs
ctl "SHOT initramfs settled"
echo "INFO INITRAMFS shot-mounts $(cut -d' ' -f2 /proc/mounts | tr '\n' ' ')" >&3
"""

DRACUT_PROBE = r"""# The test's probe (not part of SplashHUD): a dracut pre-mount hook, sourced by dracut's init
# before the root is mounted on $NEWROOT (after the unlock). No busybox in the image: builtins and
# what dracut_boot installs.
""" + CHANNEL + WAIT_FOR_SPLASH + r"""mounts=""
while read -r _ m _; do mounts="$mounts $m"; done < /proc/mounts
echo "INFO INITRAMFS state $st" >&3
echo "INFO INITRAMFS mounts$mounts" >&3
/usr/bin/splashhud progress 0.5 Initramfs
ctl "SHOT initramfs settled"
mounts=""
while read -r _ m _; do mounts="$mounts $m"; done < /proc/mounts
echo "INFO INITRAMFS shot-mounts$mounts" >&3
exec 3>&-
"""

NO_PLYMOUTH = r"""#!/bin/sh
# The test's hook (not part of SplashHUD): the image as a machine without Plymouth builds it.
case "$1" in prereqs) echo ""; exit 0 ;; esac
rm -rf "$DESTDIR"/usr/sbin/plymouthd "$DESTDIR"/sbin/plymouthd "$DESTDIR"/bin/plymouth "$DESTDIR"/usr/bin/plymouth \
    "$DESTDIR"/scripts/*/plymouth "$DESTDIR"/usr/lib/x86_64-linux-gnu/plymouth "$DESTDIR"/usr/share/plymouth
"""

REAL_INIT = r"""#!/bin/busybox sh
# The test's real root init (not part of SplashHUD): systemd's part in the hand-over.
/bin/busybox --install -s /bin
export PATH=/bin:/usr/bin
stty -F /dev/ttyS1 raw -echo 2>/dev/null
exec 3<>/dev/ttyS1
ctl() { echo "$1" >&3; read -r answer <&3; echo "realroot: $1 -> $answer"; }
echo "INFO REALROOT pid $$" >&3
echo "INFO REALROOT root $(grep ' / ' /proc/mounts | cut -d' ' -f1,3)" >&3
echo "INFO REALROOT initramfs-daemon $(pidof splashhudd || echo none)" >&3
# A daemon the initramfs kept (initramfs-tools): its mark, its root (the real one, "/"), the pid
# file systemd's password agent reads.
mark=/run/splashhud/initramfs-daemon
kept=$(cat $mark 2>/dev/null)
echo "INFO REALROOT kept ${kept:-none} root $(readlink /proc/${kept:-0}/root 2>/dev/null || echo none) pidfile $(cat /run/plymouth/pid 2>/dev/null || echo none)" >&3
ctl "SHOT retained settled"
for i in 1 2 3 4 5 6; do echo "SplashHUD initramfs test: the real root's console, line $i" > /dev/tty1; done
# splashhud.service, as systemd would start it (udev's rule pulls it in when card0 is added):
# its condition on the kept daemon's mark, its EnvironmentFiles in order (the hand-over's, the
# machine's settings), its ExecStart with the variables expanded, its ExecStartPost.
unit=/etc/systemd/system/splashhud.service
envs=$(sed -n 's/^EnvironmentFile=-\{0,1\}//p' $unit)
env=$(echo "$envs" | grep '/run/initramfs/splashhud.env$' || echo /unit-reads-no-handover-file)
echo "INFO REALROOT handover $(cat "$env" 2>/dev/null || echo none)" >&3
skip=$(sed -n 's/^ConditionPathExists=!//p' $unit)
if [ -n "$skip" ] && [ -e "$skip" ]; then
    echo "INFO REALROOT unit skipped" >&3
    pid=$kept
else
    for e in $envs; do [ -r "$e" ] && . "$e"; done
    start=$(sed -n 's/^ExecStart=//p' $unit)
    eval "$start" >/run/realroot-daemon.log 2>&1 &
    pid=$!
    post=$(sed -n 's/^ExecStartPost=-\{0,1\}//p' $unit)
    i=0
    while ! splashhud ping --timeout 1000 >/dev/null 2>&1 && [ $i -lt 60 ]; do sleep 0.1; i=$((i + 1)); done
    $post
fi
echo "INFO REALROOT state $(splashhud state 2>&1)" >&3
echo "INFO REALROOT env-left $(ls "$env" 2>/dev/null || echo none)" >&3
sleep 2
ctl "SHOT realroot settled"
# splashhud-quit.service at the end of boot.
quit=$(sed -n 's/^ExecStart=-\{0,1\}//p' /etc/systemd/system/splashhud-quit.service)
$quit
echo "INFO REALROOT quit $?" >&3
qpost=$(sed -n 's/^ExecStartPost=-\{0,1\}//p' /etc/systemd/system/splashhud-quit.service)
$qpost
if [ "$pid" = "$kept" ]; then
    # Not started here: this init (PID 1, as systemd) inherited it; its status once it is a zombie.
    i=0
    while [ $i -lt 50 ] && ! grep -q '^State:.*Z' /proc/$pid/status 2>/dev/null && [ -e /proc/$pid ]; do sleep 0.1; i=$((i + 1)); done
    echo "INFO REALROOT daemon $(cut -d' ' -f52 /proc/$pid/stat 2>/dev/null || echo gone)" >&3
else
    wait $pid
    echo "INFO REALROOT daemon $?" >&3
fi
echo "INFO REALROOT mark-left $(ls $mark 2>/dev/null || echo none)" >&3
echo "INFO REALROOT fb $(cat /proc/fb | tr '\n' ' ') vt $(cat /sys/class/tty/tty0/active) fbcon $(cat /sys/class/vtconsole/vtcon1/name /sys/class/vtconsole/vtcon1/bind 2>&1 | tr '\n' ' ') vcs1 $(head -c 60 /dev/vcs1)" >&3
ctl "SHOT console stable"
echo "--- initramfs daemon log"; cat /run/initramfs/splashhud.log
echo "--- real root daemon log"; cat /run/realroot-daemon.log
echo "EXIT 0" >&3
sleep 1
poweroff -f
"""


def log(msg):
    print(f"initramfs-boot: {msg}", file=sys.stderr, flush=True)


def run(argv, env=None, **kw):
    t = time.monotonic()
    p = subprocess.run(argv, env=env, capture_output=True, text=True, **kw)
    if p.returncode != 0:
        sys.stderr.write(p.stdout + p.stderr)
        raise SystemExit(f"initramfs-boot: {' '.join(argv[:3])}… failed ({p.returncode})")
    return p.stdout, time.monotonic() - t


def kernel_version():
    for v in sorted(os.listdir("/lib/modules"), reverse=True):
        if os.path.exists(f"/boot/vmlinuz-{v}"):
            return v
    raise SystemExit("initramfs-boot: no /boot/vmlinuz-* with /lib/modules/* (linux-image-amd64)")


def stage(bin_dir, work):
    st = os.path.join(work, "stage")
    shutil.rmtree(st, ignore_errors=True)
    run([os.path.join(REPO, "scripts/install.sh"), "--destdir", st, "--bin-dir", bin_dir, "--initramfs"])
    conf = os.path.join(st, "etc/splashhud/initrd.conf")
    with open(conf) as f:
        text = f.read()
    with open(conf, "w") as f:
        f.write(text.replace('SPLASHHUD_DRM_MODULES=""', 'SPLASHHUD_DRM_MODULES="virtio-gpu"'))
    # The machine's settings as install.sh leaves them, the image's copy and the real root's alike.
    env = dict(os.environ, SPLASHHUD_PREFIX=os.path.join(st, "usr"), SPLASHHUD_CONF=conf,
               SPLASHHUD_DEFAULT=os.path.join(st, "etc/default/splashhud"))
    return st, env


def copy_libraries(binaries, root):
    """Every library ldd names for the binaries, at its host path (lib -> usr/lib as on the host)."""
    paths = set()
    for b in binaries:
        p = subprocess.run(["ldd", b], capture_output=True, text=True)
        if p.returncode != 0 and "not a dynamic executable" in p.stdout + p.stderr:
            continue  # the fully static client (install.sh --static-stdlib) needs no library
        out, _ = run(["ldd", b])
        for line in out.splitlines():
            for word in line.split():
                if word.startswith("/") and word != b:
                    paths.add(word)
    for p in sorted(paths):
        real = os.path.realpath(p)
        dest = os.path.join(root, real.lstrip("/"))
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copy2(real, dest)
        if p != real:  # the name ldd printed (a symlink, or a path through /lib)
            link = os.path.join(root, p.lstrip("/"))
            if not os.path.lexists(link):
                os.makedirs(os.path.dirname(link), exist_ok=True)
                os.symlink(real, link)


# Inode tables and journal written now, not by the kernel's ext4lazyinit after the mount: on
# luks-boot's encrypted copy, dm-crypt cannot pass zeroing down as WRITE_ZEROES, so the guest's
# emulated CPU would encrypt those zeros in the real root while the test runs.
MKE2FS_OPTIONS = ["-E", "lazy_itable_init=0,lazy_journal_init=0"]


def root_filesystem(st, work):
    root = os.path.join(work, "root")
    shutil.rmtree(root, ignore_errors=True)
    for d in ("dev", "proc", "sys", "run", "tmp", "root", "sbin", "bin", "usr/lib", "usr/lib64", "etc"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    for name, target in (("lib", "usr/lib"), ("lib64", "usr/lib64")):
        os.symlink(target, os.path.join(root, name))
    shutil.copy2("/bin/busybox", os.path.join(root, "bin/busybox"))
    daemon, client = os.path.join(st, "usr/bin/splashhudd"), os.path.join(st, "usr/bin/splashhud")
    copy_libraries([daemon, client], root)
    os.makedirs(os.path.join(root, "usr/bin"), exist_ok=True)
    for b in (daemon, client):
        shutil.copy2(b, os.path.join(root, "usr/bin", os.path.basename(b)))
    for sub in ("etc/systemd", "etc/udev", "etc/default", "usr/share/splashhud"):
        shutil.copytree(os.path.join(st, sub), os.path.join(root, sub), symlinks=True)
    font = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
    os.makedirs(os.path.join(root, os.path.dirname(font).lstrip("/")), exist_ok=True)
    shutil.copy2(font, os.path.join(root, font.lstrip("/")))
    # systemd's switch-root (a systemd initramfs) takes only a root with an os-release.
    with open(os.path.join(root, "usr/lib/os-release"), "w") as f:
        f.write('NAME="SplashHUD test root"\nID=splashhud-test\n')
    init = os.path.join(root, "sbin/init")
    with open(init, "w") as f:
        f.write(REAL_INIT)
    os.chmod(init, 0o755)
    size = sum(os.path.getsize(os.path.join(d, n)) for d, _, ns in os.walk(root) for n in ns
               if not os.path.islink(os.path.join(d, n)))
    image = os.path.join(work, "root.img")
    if os.path.exists(image):
        os.remove(image)
    _, took = run(["mke2fs", "-q", "-F", "-t", "ext4", "-L", "root"] + MKE2FS_OPTIONS + ["-d", root, image, f"{size // (1 << 20) + 64}M"])
    log(f"root file system {image}: {size >> 20} MB of files, mke2fs {took:.1f} s")
    return image


def boot_vm(a, image, disk, root="/dev/vda", words=(), keyboard=False):
    """vmtest.py boot: the initramfs `image` on virtio-gpu, the disk `disk` as /dev/vda."""
    cmd = [sys.executable, os.path.join(HERE, "vmtest.py"), "boot", "--display", "virtio", "--initrd", image,
           "--drive", disk, "--shots-dir", a.shots_dir, "--timeout", str(a.timeout), "--verbose",
           "--cmdline", " ".join([f"root={root}", "rw", "plymouth.enable=0", *words])] + (["--input"] if keyboard else [])
    sys.stdout.flush()
    return subprocess.call(cmd)


def boot(a):
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    version = kernel_version()
    st, env = stage(a.bin_dir, work)
    confdir = os.path.join(st, "etc/initramfs-tools")
    with open(os.path.join(confdir, "initramfs.conf"), "w") as f:
        f.write("MODULES=list\nBUSYBOX=y\nKEYMAP=n\nCOMPRESS=zstd\nRUNSIZE=10%\nFSTYPE=ext4\n")
    with open(os.path.join(confdir, "modules"), "w") as f:
        f.write("virtio_pci\nvirtio_blk\next4\n")
    # A machine without Plymouth (this host's plymouth hook has put it in): its daemon, client and
    # scripts out of the image before our hook runs (by name), which links /bin/plymouth to our client.
    os.makedirs(os.path.join(confdir, "hooks"), exist_ok=True)
    unplymouth = os.path.join(confdir, "hooks/00-no-plymouth")
    with open(unplymouth, "w") as f:
        f.write(NO_PLYMOUTH)
    os.chmod(unplymouth, 0o755)
    probe = os.path.join(confdir, "scripts/init-premount/zz-splashhud-probe")
    with open(probe, "w") as f:
        f.write(PROBE)
    os.chmod(probe, 0o755)
    image = os.path.join(work, "initrd.img")
    _, took = run(["mkinitramfs", "-d", confdir, "-o", image, version], env=env)
    log(f"mkinitramfs {image}: {os.path.getsize(image) >> 20} MB, {took:.1f} s")
    listing, _ = run(["lsinitramfs", image])
    for line in sorted(set(listing.split())):
        if "splashhud" in line or "DejaVuSans" in line or "virtio-gpu" in line or "virtio_gpu" in line:
            print(f"IMAGE {line}")
    # The order the initramfs runs its init-bottom scripts in (ours must come before udev's).
    unpacked = os.path.join(work, "unpacked")
    shutil.rmtree(unpacked, ignore_errors=True)
    run(["unmkinitramfs", image, unpacked])
    for order in (os.path.join(unpacked, "main/scripts/init-bottom/ORDER"), os.path.join(unpacked, "scripts/init-bottom/ORDER")):
        if os.path.exists(order):
            with open(order) as f:
                for line in f:
                    if line.strip():
                        print(f"ORDER init-bottom {line.strip()}")
    # The client: a link to the daemon's binary, not a second binary.
    for client in (os.path.join(unpacked, "main/usr/bin/splashhud"), os.path.join(unpacked, "usr/bin/splashhud")):
        if os.path.islink(client):
            print(f"IMAGE-LINK usr/bin/splashhud -> {os.readlink(client)}")
    shutil.rmtree(unpacked, ignore_errors=True)
    return boot_vm(a, image, root_filesystem(st, work))


# dracut as every image here is built: any host, fast compression, no microcode, quiet.
DRACUT = ["dracut", "--force", "--no-hostonly", "--compress", "zstd -1 -T0", "--no-early-microcode", "--quiet"]


def image_entries(image, kinds=("-", "l")):
    """(path, link target or None) of each entry lsinitrd lists in `image` whose mode starts with
    one of `kinds` ("lrwxrwxrwx … usr/bin/splashhud -> splashhudd": its path, then its target)."""
    listing = subprocess.run(["lsinitrd", image], capture_output=True, text=True, errors="replace").stdout
    for line in listing.splitlines():
        words = line.split(" -> ")[0].split()
        if line.startswith(kinds) and words:
            yield words[-1], (line.split(" -> ")[1].strip() if " -> " in line else None)


def dracut_base(st, work):
    """/usr/lib/dracut with our module beside its own, for dracutbasedir: the host's dracut is left alone."""
    base = os.path.join(work, "dracut")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(os.path.join(base, "modules.d"))
    for name in os.listdir("/usr/lib/dracut"):
        if name != "modules.d":
            os.symlink(os.path.join("/usr/lib/dracut", name), os.path.join(base, name))
    for name in os.listdir("/usr/lib/dracut/modules.d"):
        os.symlink(os.path.join("/usr/lib/dracut/modules.d", name), os.path.join(base, "modules.d", name))
    os.symlink(os.path.join(st, "usr/lib/dracut/modules.d/90splashhud"), os.path.join(base, "modules.d/90splashhud"))
    return base


def dracut(a):
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    version = kernel_version()
    if not shutil.which("dracut"):
        print("DRACUT missing (apt-get install --no-install-recommends dracut-core)")
        return 2
    st, env = stage(a.bin_dir, work)
    env = dict(env, dracutbasedir=dracut_base(st, work))
    status = 0
    for variant, modules in (("plain", "base splashhud"), ("systemd", "systemd base splashhud")):
        image = os.path.join(work, f"dracut-{variant}.img")
        p = subprocess.run(DRACUT + ["-m", modules, "--kver", version, image], env=env, capture_output=True, text=True)
        if p.returncode != 0:
            print(f"DRACUT-{variant} failed {p.returncode}: {p.stderr.strip()}")
            status = 1
            continue
        for line in p.stderr.splitlines():
            if "splashhud" in line:
                print(f"DRACUT-{variant}-log {line.strip()}")
        for path, target in image_entries(image, ("-", "l", "d")):
            if "splashhud" in path or "DejaVuSans" in path or path.endswith("bin/plymouth"):
                print(f"DRACUT-{variant} {path}")
                if target is not None:
                    print(f"DRACUT-{variant}-link {path} -> {target}")
    return status


def dracut_boot(a):
    """A dracut image without systemd (the module's pre-trigger and pre-pivot hooks) booted like
    `boot`, its root luks-boot.py's LUKS2 image: the crypt module asks through `plymouth`."""
    import importlib.util  # luks-boot.py loads this file: loaded here, not at the top
    spec = importlib.util.spec_from_file_location("luks_boot", os.path.join(HERE, "luks-boot.py"))
    luks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(luks)
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    version = kernel_version()
    st, env = stage(a.bin_dir, work)
    env = dict(env, dracutbasedir=dracut_base(st, work))
    probe, typist = os.path.join(work, "splashhud-probe.sh"), os.path.join(work, "luks-probe.sh")
    with open(probe, "w") as f:
        f.write(DRACUT_PROBE)
    mapper = f"luks-{luks.UUID}"  # dracut's name for rd.luks.uuid's mapping
    with open(typist, "w") as f:  # a pre-trigger hook after ours: the typist waits in the background
        f.write("# The LUKS test's probe (not part of SplashHUD).\n"
                + luks.typist([luks.attempt("us")], "plymouth ask-for-password", "/sysroot", mapper, splash=True))
    image = os.path.join(work, "dracut-boot.img")
    _, took = run(DRACUT + ["-m", "bash base udev-rules rootfs-block kernel-modules crypt splashhud",
                   "--add-drivers", "virtio_pci virtio_blk ext4 virtio-gpu virtio_input evdev",
                   "--install", "stty cut tr grep tail",  # the probes' tools (no busybox in the image)
                   "--include", typist, "/usr/lib/dracut/hooks/pre-trigger/90-luks-probe.sh",
                   "--include", probe, "/usr/lib/dracut/hooks/pre-mount/99-splashhud-probe.sh",
                   "--kver", version, image], env=env)
    log(f"dracut {image}: {os.path.getsize(image) >> 20} MB, {took:.1f} s")
    for path, target in image_entries(image):
        if path in ("usr/bin/plymouth", "usr/sbin/cryptsetup", "usr/sbin/cryptroot-ask"):
            print(f"IMAGE {path}" + (f" -> {target}" if target is not None else ""))
    return boot_vm(a, image, luks.luks_image(st, work), root=f"/dev/mapper/{mapper}", words=[f"rd.luks.uuid={luks.UUID}"],
                   keyboard=True)


# sd-boot's second volume: small, LUKS2, its key sealed in the TPM with a PIN.
PIN_UUID = "5a1a5b0d-1dd5-4c2e-9a3c-6c75c0ffee02"
PIN = "2468"

# sd-boot's typist: a service in the systemd initramfs (not part of SplashHUD). It answers each
# prompt the splash shows, by what it asks: systemd's PIN prompt gets PIN, the passphrase prompt
# first a wrong passphrase (the German key positions on the US keymap), then the right one.
SD_TYPIST = CHANNEL + r"""up() { cut -d' ' -f1 /proc/uptime; }
# The journal's last N lines matching PATTERN (case aside), to the host.
journal() {
    journalctl -b --no-pager -o cat 2>/dev/null | grep -E -i "$1" | tail -n "$2" | while IFS= read -r line; do
        echo "INFO SDLUKS journal $line" >&3
    done
}
n=0
wrong=0
seen=""
t0=$(up)
while [ ! -e /dev/mapper/@ROOTMAP@ ] || [ ! -e /dev/mapper/@PINMAP@ ]; do
    st=$(/usr/bin/splashhud state --timeout 500 2>&1)
    case "$st" in *"mode prompt"*) ;; *) sleep 0.1; continue ;; esac
    n=$((n + 1))
    case "$st" in
        *"@PINMAP@"*)
            # The TPM2+PIN volume asks for its passphrase (which nobody knows): systemd gave up on
            # the TPM (measured under a loaded host: no PIN asked at all). Said at once, with
            # systemd's words, rather than typed at until the boot times out.
            echo "INFO SDLUKS fallback $n at $(up): the TPM2+PIN volume asks for its passphrase" >&3
            journal "tpm|token|PIN|cryptsetup" 30
            echo "EXIT 3" >&3
            while :; do sleep 60; done ;;
        *PIN*) kind=pin; keys="@PINKEYS@" ;;
        *) if [ $wrong = 0 ]; then kind=wrong; wrong=1; keys="@WRONGKEYS@"; else kind=passphrase; keys="@KEYS@"; fi ;;
    esac
    echo "INFO SDLUKS prompt $n $kind at $(up) $st" >&3
    shot=""
    case " $seen " in *" $kind "*) ;; *) shot=1; seen="$seen $kind" ;; esac
    [ -n "$shot" ] && ctl "SHOT sd-$kind-prompt settled"
    k=0
    for key in $(echo "$keys" | tr , ' '); do
        ctl "KEY $key"
        k=$((k + 1))
        if [ $k = 3 ] && [ -n "$shot" ]; then sleep 0.5; ctl "SHOT sd-$kind-typed settled"; fi
    done
    ctl "KEY ret"
    echo "INFO SDLUKS typed $n $kind at $(up)" >&3
    # The prompt goes when the answer is sent; the next (a retry, the other volume) comes later.
    i=0
    while [ $i -lt 50 ]; do
        case "$(/usr/bin/splashhud state --timeout 500 2>&1)" in *"mode prompt"*) ;; *) break ;; esac
        sleep 0.1
        i=$((i + 1))
    done
done
echo "INFO SDLUKS unlocked $(up) since $t0 prompts $n" >&3
echo "INFO SDLUKS pidfile $(cat /run/plymouth/pid 2>/dev/null || echo none) daemon $(cat /run/initramfs/splashhud.pid 2>/dev/null)" >&3
for u in splashhud.service splashhud-ask-password.path splashhud-ask-password.service systemd-ask-password-console.path \
         systemd-ask-password-console.service "systemd-cryptsetup@luks\\x2d@ROOTUUIDESC@.service" "systemd-cryptsetup@luks\\x2d@PINUUIDESC@.service"; do
    echo "INFO SDLUKS unit $u $(systemctl show -P ActiveState "$u" 2>&1) $(systemctl show -P ConditionResult "$u" 2>&1)" >&3
done
journal "passphrase|PIN|tpm2|cryptsetup|splashhud|agent" 40
exec 3>&-
# This shell, a service's session leader, made ttyS1 its controlling terminal when it opened the
# channel, and the kernel hangs a session leader's terminal up when it exits: the pre-mount probe's
# writes on its own descriptor then fail with EIO (a CI run lost its last line so). It stays until
# the switch to the real root stops it.
while :; do sleep 60; done
"""

SD_TYPIST_UNIT = """# The test's typist (not part of SplashHUD): types at the splash's prompts.
[Unit]
DefaultDependencies=no
After=systemd-journald.socket

[Service]
ExecStart=/bin/sh /usr/lib/splashhud-test/typist.sh
StandardOutput=journal+console
"""


def swtpm(state, *how):
    """A swtpm for `state` (TPM 2.0), in the background; `how`: its --server/--ctrl words. Its
    signals unblocked: a test runner may start us with SIGTERM blocked, and swtpm would inherit
    that and never end."""
    return subprocess.Popen(["swtpm", "socket", "--tpm2", "--tpmstate", f"dir={state}", "--flags", "not-need-init,startup-clear",
                             "--log", f"file={state}.log"] + list(how), stdin=subprocess.DEVNULL,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_SETMASK, []))


def stop(proc):
    """Ends a swtpm: SIGTERM (it saves its state), SIGKILL if it has not gone after 5 s."""
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
    proc.wait()


def wait_for(path, proc, seconds=10.0):
    end = time.monotonic() + seconds
    while not os.path.exists(path):
        if proc.poll() is not None or time.monotonic() > end:
            raise SystemExit(f"initramfs-boot: swtpm did not make {path} (status {proc.poll()})")
        time.sleep(0.02)


def tpm_volume(work, state):
    """A 20 MB LUKS2 volume whose key is sealed in a fresh swtpm's TPM behind PIN (no PCRs)."""
    shutil.rmtree(state, ignore_errors=True)
    os.makedirs(state)
    volume = os.path.join(work, "pin-volume.img")
    with open(volume, "wb") as f:
        f.truncate(20 << 20)
    key = os.path.join(work, "pin-volume.key")
    with open(key, "w") as f:
        f.write(os.urandom(16).hex())  # the recovery passphrase: never typed, never kept
    run(["cryptsetup", "luksFormat", "--batch-mode", "--type", "luks2", "--pbkdf", "pbkdf2", "--pbkdf-force-iterations", "1000",
         "--uuid", PIN_UUID, "--key-file", key, volume])
    sock = os.path.join(state, "..", "swtpm-host.sock")
    sock = os.path.abspath(sock)
    for p in (sock, sock + ".ctrl"):
        if os.path.exists(p):
            os.unlink(p)
    t = time.monotonic()
    tpm = swtpm(state, "--server", f"type=unixio,path={sock}", "--ctrl", f"type=unixio,path={sock}.ctrl")
    try:
        wait_for(sock, tpm)
        wait_for(sock + ".ctrl", tpm)
        tcti = f"swtpm:path={sock}"
        # systemd 252 hands a PIN prompt the cached passphrases first (AcceptCached): each wrong
        # one is a failed authorization, and the TPM's dictionary-attack lockout would lock the
        # key away after a few. This TPM is a test's: no lockout.
        run(["tpm2_dictionarylockout", "-T", tcti, "--setup-parameters", "--max-tries=4294967295",
             "--recovery-time=0", "--lockout-recovery-time=0"])
        with open(key) as f:
            secret = f.read()
        # systemd-cryptenroll 252 reads the new PIN from $NEWPIN, the volume's passphrase from $PASSWORD.
        out, _ = run(["systemd-cryptenroll", f"--tpm2-device={tcti}", "--tpm2-with-pin=yes", "--tpm2-pcrs=", volume],
                     env=dict(os.environ, NEWPIN=PIN, PASSWORD=secret), stdin=subprocess.DEVNULL)
    finally:
        stop(tpm)
        os.unlink(key)
    log(f"TPM2+PIN volume {volume}: formatted and enrolled in {time.monotonic() - t:.1f} s")
    dump, _ = run(["cryptsetup", "luksDump", volume])
    for line in dump.splitlines():
        if line.strip().startswith(("systemd-tpm2", "tpm2-pin:", "tpm2-pcrs:", "tpm2-hash-pcrs:", "UUID:")):
            print(f"PINDUMP {' '.join(line.split())}")
    return volume


def sd_boot(a):
    """A dracut image with systemd: the root unlocked by passphrase, a second volume by TPM2+PIN."""
    import importlib.util  # luks-boot.py loads this file: loaded here, not at the top
    spec = importlib.util.spec_from_file_location("luks_boot", os.path.join(HERE, "luks-boot.py"))
    luks = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(luks)
    for tool in ("swtpm", "systemd-cryptenroll", "tpm2_dictionarylockout"):
        if not shutil.which(tool):
            raise SystemExit(f"initramfs-boot: {tool} missing: run scripts/setup.sh --tests (swtpm, tpm2-tools, libtss2-*)")
    start = time.monotonic()
    work = os.path.abspath(a.work)
    os.makedirs(work, exist_ok=True)
    version = kernel_version()
    st, env = stage(a.bin_dir, work)
    env = dict(env, dracutbasedir=dracut_base(st, work))
    root_map, pin_map = f"luks-{luks.UUID}", f"luks-{PIN_UUID}"
    inc = os.path.join(work, "include")
    shutil.rmtree(inc, ignore_errors=True)
    os.makedirs(os.path.join(inc, "etc/systemd/system/sysinit.target.wants"))
    os.makedirs(os.path.join(inc, "usr/lib/splashhud-test"))
    typist = SD_TYPIST
    for k, v in (("@ROOTMAP@", root_map), ("@PINMAP@", pin_map), ("@PINKEYS@", ",".join(PIN)),
                 ("@WRONGKEYS@", luks.attempt("de").split(":")[1]), ("@KEYS@", luks.attempt("us").split(":")[1]),
                 ("@ROOTUUIDESC@", luks.UUID.replace("-", "\\\\x2d")), ("@PINUUIDESC@", PIN_UUID.replace("-", "\\\\x2d"))):
        typist = typist.replace(k, v)
    with open(os.path.join(inc, "usr/lib/splashhud-test/typist.sh"), "w") as f:
        f.write(typist)
    with open(os.path.join(inc, "etc/systemd/system/splashhud-test-typist.service"), "w") as f:
        f.write(SD_TYPIST_UNIT)
    os.symlink("../splashhud-test-typist.service", os.path.join(inc, "etc/systemd/system/sysinit.target.wants/splashhud-test-typist.service"))
    probe = os.path.join(work, "splashhud-probe.sh")
    with open(probe, "w") as f:
        f.write(DRACUT_PROBE)
    image = os.path.join(work, "sd-boot.img")
    _, took = run(DRACUT + ["-m", "bash systemd systemd-initrd dracut-systemd udev-rules rootfs-block kernel-modules crypt tpm2-tss splashhud",
                   "--add-drivers", "virtio_pci virtio_blk ext4 virtio-gpu virtio_input evdev",
                   "--install", "stty cut tr grep tail",
                   "--include", inc, "/",
                   "--include", probe, "/usr/lib/dracut/hooks/pre-mount/99-splashhud-probe.sh",
                   "--kver", version, image], env=env)
    log(f"dracut (systemd) {image}: {os.path.getsize(image) >> 20} MB, {took:.1f} s")
    for path, target in image_entries(image):
        if ("splashhud" in path or "ask-password" in path or "systemd-cryptsetup" in path
                or "libtss2-esys" in path or "token-systemd-tpm2" in path or path.endswith("bin/plymouth")):
            print(f"IMAGE {path}" + (f" -> {target}" if target is not None else ""))
    root = luks.luks_image(st, work)
    state = os.path.join(work, "tpm")
    volume = tpm_volume(work, state)
    ctrl = os.path.join(work, "swtpm-guest.ctrl")
    if os.path.exists(ctrl):
        os.unlink(ctrl)
    tpm = swtpm(state, "--ctrl", f"type=unixio,path={ctrl}", "--terminate")
    try:
        wait_for(ctrl, tpm)
        log(f"ready to boot after {time.monotonic() - start:.1f} s")
        cmd = [sys.executable, os.path.join(HERE, "vmtest.py"), "boot", "--display", "virtio", "--initrd", image,
               "--drive", root, "--drive", volume, "--shots-dir", a.shots_dir, "--timeout", str(a.timeout), "--verbose", "--input",
               "--qemu-arg=-chardev", f"--qemu-arg=socket,id=chrtpm,path={ctrl}",
               "--qemu-arg=-tpmdev", "--qemu-arg=emulator,id=tpm0,chardev=chrtpm", "--qemu-arg=-device", "--qemu-arg=tpm-tis,tpmdev=tpm0",
               "--cmdline", " ".join([f"root=/dev/mapper/{root_map}", "rw", "plymouth.enable=0", f"rd.luks.uuid={luks.UUID}",
                                      f"rd.luks.uuid={PIN_UUID}", f"rd.luks.options={PIN_UUID}=tpm2-device=auto",
                                      "systemd.show_status=0", "rd.udev.log_level=3"])]
        sys.stdout.flush()
        t = time.monotonic()
        status = subprocess.call(cmd)
        log(f"boot {time.monotonic() - t:.1f} s, all {time.monotonic() - start:.1f} s")
        return status
    finally:
        stop(tpm)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    b = sub.add_parser("boot")
    b.add_argument("--bin-dir", required=True)
    b.add_argument("--work", required=True)
    b.add_argument("--shots-dir", required=True)
    b.add_argument("--timeout", type=float, default=240.0)
    d = sub.add_parser("dracut")
    d.add_argument("--bin-dir", required=True)
    d.add_argument("--work", required=True)
    db = sub.add_parser("dracut-boot")
    db.add_argument("--bin-dir", required=True)
    db.add_argument("--work", required=True)
    db.add_argument("--shots-dir", required=True)
    db.add_argument("--timeout", type=float, default=300.0)  # the unlock, as luks-boot's
    sb = sub.add_parser("sd-boot")
    sb.add_argument("--bin-dir", required=True)
    sb.add_argument("--work", required=True)
    sb.add_argument("--shots-dir", required=True)
    sb.add_argument("--timeout", type=float, default=300.0)
    a = ap.parse_args()
    return {"boot": boot, "dracut": dracut, "dracut-boot": dracut_boot, "sd-boot": sd_boot}[a.cmd](a)


if __name__ == "__main__":
    sys.exit(main())
