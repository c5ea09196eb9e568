#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs a host-built program under QEMU against real Linux display drivers and captures the screen.

    vmtest.py run --display bochs --program PATH [--args ARG ...] --shots-dir DIR [--timeout S] [--modules M,...] [--input]
    vmtest.py boot --display virtio --initrd IMG [--drive DISK] [--cmdline WORDS] [--input] --shots-dir DIR [--timeout S]
    vmtest.py selftest [--displays bochs,virtio,...] [--shots-dir DIR]
    vmtest.py displays

The guest is Debian's linux-image-amd64 kernel booted with QEMU TCG on a busybox initramfs holding
the kernel modules of the display configuration, the program (at its host path) and every shared
library ldd names, and the DejaVu / Droid fonts. The guest talks to the host over its second serial
port (/dev/ttyS1) in lines: "SHOT <name>" asks for a screendump into <shots-dir>/<name>.ppm (and
.png) and waits for "OK"; "DEVICE_ADD"/"DEVICE_DEL"/"WAIT_DELETED" hot-plug devices over QMP;
"TAP"/"PRESS"/"RELEASE"/"KEY" inject input (with --input: a virtio tablet and keyboard) through QMP's
input-send-event; "UPTIME <seconds>" (the guest's /proc/uptime) is logged with the host's seconds
since the start, which places the kernel's start on the host's clock; with --first-frame the
screen is dumped every 100 ms from the start until its centre lights up (a splash), logged as
"FIRST-FRAME <seconds since the start>"; "EXIT <code>" ends the run, and so does QEMU's own end (exit status 0) after
"POWEROFF", which a guest sends before it powers off. /init sends "EXIT <status>" when the program
returns. The exit status of `run` is the program's. See README.md beside this file.
Python 3 standard library only.
"""
import argparse
import gzip
import hashlib
import json
import os
import re
import shlex
import shutil
import socket
import stat
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CACHE_DIR = os.path.join(REPO, ".build", "qemu")

# Display configurations: QEMU device arguments, kernel modules to insmod (dependencies are added),
# extra kernel command line, and the device node the guest waits for before running the program.
DISPLAYS = {
    "bochs": {"qemu": ["-vga", "std"], "modules": ["bochs"], "cmdline": "", "wait_for": "/dev/fb0"},
    "virtio": {"qemu": ["-vga", "none", "-device", "virtio-gpu-pci"],
               "modules": ["virtio_pci", "virtio-gpu"], "cmdline": "", "wait_for": "/dev/fb0"},
    "cirrus": {"qemu": ["-vga", "cirrus"], "modules": ["cirrus"], "cmdline": "", "wait_for": "/dev/fb0"},
    "qxl": {"qemu": ["-vga", "qxl"], "modules": ["qxl"], "cmdline": "", "wait_for": "/dev/fb0"},
    # The kernel's built-in vesafb, set up by the kernel's boot code through the VGA BIOS's VBE modes
    # (SeaBIOS's bochs table; vga= is 0x200 + the VBE mode); no DRM module is loaded.
    "vesafb32": {"qemu": ["-vga", "std"], "modules": [], "cmdline": "vga=0x344", "wait_for": "/dev/fb0"},  # 1024x768x32
    "vesafb24": {"qemu": ["-vga", "std"], "modules": [], "cmdline": "vga=0x318", "wait_for": "/dev/fb0"},  # 1024x768x24
    "vesafb16": {"qemu": ["-vga", "std"], "modules": [], "cmdline": "vga=0x317", "wait_for": "/dev/fb0"},  # 1024x768 RGB565
    # The std VGA with its DRM driver NOT loaded at boot: /modules/late lists bochs and what it
    # needs, for the program to insmod once it runs (a driver arriving after the splash started).
    "bochs-late": {"qemu": ["-vga", "std"], "modules": [], "late_modules": ["bochs"], "cmdline": "", "wait_for": "/dev/ttyS1"},
    # UEFI firmware (Debian's OVMF) in front of the std VGA: the firmware draws its logo and
    # publishes it in ACPI's BGRT; the kernel (still given with -kernel) gets efifb's /dev/fb0
    # until bochs, listed in /modules/late, is loaded. fbcon=map:9 keeps the console off efifb, so
    # the firmware's logo stays on the screen.
    "efifb": {"qemu": ["-vga", "std", "-bios", "/usr/share/ovmf/OVMF.fd"], "modules": [], "late_modules": ["bochs"],
              "cmdline": "fbcon=map:9", "wait_for": "/dev/fb0"},
    # The same with virtio-vga (virtio-gpu with a VGA front end): efifb on its VGA side, then
    # virtio_gpu.
    "efifb-virtio": {"qemu": ["-vga", "none", "-device", "virtio-vga", "-bios", "/usr/share/ovmf/OVMF.fd"], "modules": [],
                     "late_modules": ["virtio_pci", "virtio-gpu"], "cmdline": "fbcon=map:9", "wait_for": "/dev/fb0"},
    # vkms, the kernel's virtual KMS driver: no QEMU device (so no screendump), but a 60 Hz vblank
    # from an hrtimer, flips completed at vblank and per-vblank CRCs under debugfs
    # (/sys/kernel/debug/dri/0/crtc-0/crc/{control,data}). Debian does not build it; it is built out
    # of tree for the guest kernel by scripts/qemu/build-vkms.sh (scripts/setup.sh --tests).
    # preempt=full: vkms composes and checksums every frame in a kernel worker right after each
    # vblank, and Debian's kernel (PREEMPT_VOLUNTARY by default) lets nothing else run on the one
    # vCPU until it is done: a program's timer woke 13 ms late (median; 24 ms at p90) of a 16.7 ms
    # refresh. Boards compose in hardware, where this wait does not exist.
    "vkms": {"qemu": ["-vga", "none"], "modules": ["vkms"], "cmdline": "preempt=full", "wait_for": "/dev/dri/card0", "debugfs": True},
}
DISPLAYS["vesafb"] = DISPLAYS["vesafb32"]

FONT_GLOBS = [
    "/usr/share/fonts/truetype/dejavu",
    "/usr/share/fonts/truetype/droid",
]

# Modules Debian's kernel does not ship, built out of tree for it (scripts/qemu/build-vkms.sh), and
# the package names that get their sources and the guest kernel's headers.
OUT_OF_TREE_MODULES = {"vkms": "scripts/setup.sh --tests (linux-source-6.1 and linux-headers-VERSION, then scripts/qemu/build-vkms.sh)"}

EXIT_TIMEOUT = 124
EXIT_VM_FAILED = 125


class VMError(Exception):
    pass


def log(msg):
    print(f"vmtest: {msg}", file=sys.stderr, flush=True)


# ---------------------------------------------------------------------------------------------
# Kernel and modules

def kernel_version():
    mods = sorted(os.listdir("/lib/modules")) if os.path.isdir("/lib/modules") else []
    for v in reversed(mods):
        if os.path.exists(f"/boot/vmlinuz-{v}"):
            return v
    raise VMError("no kernel found (/boot/vmlinuz-* with /lib/modules/*): run scripts/setup.sh, "
                  "which installs linux-image-amd64, qemu-system-x86 and busybox-static")


def out_of_tree_module_path(version, name):
    """Where scripts/qemu/build-vkms.sh caches an out-of-tree module for kernel `version`: outside
    the repository (shared by worktrees, never committed), $SPLASHHUD_MODULE_CACHE or
    ${XDG_CACHE_HOME:-~/.cache}/splashhud/modules, then VERSION/NAME.ko."""
    root = os.environ.get("SPLASHHUD_MODULE_CACHE") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "splashhud", "modules")
    return os.path.join(root, version, f"{name}.ko")


def out_of_tree_module(version, name):
    """The built module's path, or a VMError saying how to build it (a test skips on it)."""
    path = out_of_tree_module_path(version, name)
    if not os.path.exists(path):
        raise VMError(f"{name}.ko is not built for the guest kernel {version} ({path} is missing): "
                      f"run {OUT_OF_TREE_MODULES[name].replace('VERSION', version)}")
    return path


def modinfo(version, module, field):
    out = subprocess.run(["modinfo", "-k", version, "-F", field, module], capture_output=True, text=True)
    if out.returncode != 0:
        raise VMError(f"modinfo -k {version} -F {field} {module} failed: {out.stderr.strip()}")
    return out.stdout.strip()


def module_load_order(version, names):
    """The modules' files with their dependencies first (depth-first post-order)."""
    order, seen = [], set()

    def visit(name):
        key = name.replace("-", "_")
        if key in seen:
            return
        seen.add(key)
        built = out_of_tree_module(version, key) if key in OUT_OF_TREE_MODULES else None
        deps = modinfo(version, built or name, "depends")
        for dep in filter(None, deps.split(",")):
            visit(dep)
        path = built or modinfo(version, name, "filename")
        if path == "(builtin)" or not path:
            return
        order.append(path)

    for n in names:
        visit(n)
    return order


def module_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".xz"):
        import lzma
        data = lzma.decompress(data)
    elif path.endswith(".zst"):
        data = subprocess.run(["zstd", "-dc", path], capture_output=True, check=True).stdout
    elif path.endswith(".gz"):
        data = gzip.decompress(data)
    return data


# ---------------------------------------------------------------------------------------------
# newc cpio writer: enough for an initramfs (directories, regular files, symlinks)

class Cpio:
    def __init__(self):
        self.entries = {}  # archive path (no leading /) -> (mode, data)

    def _add(self, path, mode, data):
        path = path.lstrip("/")
        if path and path not in self.entries:
            self.entries[path] = (mode, data)

    def dir(self, path):
        parts = path.strip("/").split("/")
        for i in range(1, len(parts) + 1):
            self._add("/".join(parts[:i]), stat.S_IFDIR | 0o755, b"")

    def file(self, path, data, mode=0o644):
        self.dir(os.path.dirname(path))
        self._add(path, stat.S_IFREG | mode, data)

    def symlink(self, path, target):
        self.dir(os.path.dirname(path))
        self._add(path, stat.S_IFLNK | 0o777, target.encode())

    def host_path(self, path):
        """Copies a host file to the same path, reproducing every symlink on the way (/lib ->
        usr/lib, libfoo.so.1 -> libfoo.so.1.2), so the dynamic loader finds it as on the host."""
        path = os.path.abspath(path)
        parts = path.strip("/").split("/")
        cur = ""
        for i, part in enumerate(parts):
            cur = cur + "/" + part
            if os.path.islink(cur):
                target = os.readlink(cur)
                self.symlink(cur, target)
                resolved = os.path.normpath(os.path.join(os.path.dirname(cur), target))
                rest = "/".join(parts[i + 1:])
                return self.host_path(resolved + ("/" + rest if rest else ""))
            if i < len(parts) - 1:
                self.dir(cur)
        st = os.stat(path)
        with open(path, "rb") as f:
            self.file(path, f.read(), stat.S_IMODE(st.st_mode))

    def encode(self):
        out = bytearray()
        ino = 1
        for path in sorted(self.entries):
            mode, data = self.entries[path]
            out += _cpio_entry(path, mode, data, ino)
            ino += 1
        out += _cpio_entry("TRAILER!!!", 0, b"", 0)
        return bytes(out)


def _cpio_entry(name, mode, data, ino):
    name_b = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, 1, 0, len(data), 0, 0, 0, 0, len(name_b), 0]
    hdr = b"070701" + b"".join(b"%08X" % v for v in fields)
    out = hdr + name_b
    out += b"\0" * (-len(out) % 4)
    out += data
    out += b"\0" * (-len(out) % 4)
    return out


# ---------------------------------------------------------------------------------------------
# initramfs

INIT_TEMPLATE = """#!/bin/sh
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
mount -t devtmpfs devtmpfs /dev
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mkdir -p /tmp /run  # the rootfs is writable already; a tmpfs on /tmp would hide programs there
for m in $(cat /modules/order); do
  # module.param=value words of the kernel command line, as modprobe would pass them
  n=$(echo ${{m%.ko}} | tr - _)
  insmod /modules/$m $(tr ' ' '\n' < /proc/cmdline | sed -n "s/^$n\.//p") || echo "init: insmod $m failed"
done
{setup}i=0
while [ ! -e {wait_for} ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i+1)); done
[ -e {wait_for} ] || echo "init: {wait_for} did not appear"
stty -F /dev/ttyS1 raw -echo 115200
echo "init: up $(cut -d' ' -f1 /proc/uptime) s; devices:" $(ls /dev/dri/card* /dev/dri/render* /dev/fb* 2>/dev/null)
echo READY > /dev/ttyS1
cd {cwd}
{env} {program} {args}
rc=$?
echo "init: program exited with status $rc"
echo "EXIT $rc" > /dev/ttyS1
sleep 1
poweroff -f
"""


def _atomic_write(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path))
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def base_initramfs(version, display, extra_modules=()):
    """busybox, the display's modules (plus `extra_modules`, e.g. a driver for a device hot-plugged
    later) and the fonts; cached per kernel, display and module list."""
    cfg = DISPLAYS[display]
    busybox = shutil.which("busybox") or "/bin/busybox"
    if not os.path.exists(busybox):
        raise VMError("busybox not found: run scripts/setup.sh (installs busybox-static)")
    modules = list(cfg["modules"]) + [m for m in extra_modules if m not in cfg["modules"]]
    paths = module_load_order(version, modules) if modules else []
    late = [p for p in module_load_order(version, cfg.get("late_modules", [])) if p not in paths] if cfg.get("late_modules") else []
    variant = display + ("+" + "+".join(sorted(extra_modules)) if extra_modules else "")
    # Rebuilt when busybox, the kernel, the module list or this script changes.
    key_src = [busybox, os.stat(busybox).st_mtime, version, paths, [os.stat(p).st_mtime for p in paths], late,
               FONT_GLOBS, os.stat(__file__).st_mtime]
    key = hashlib.sha1(json.dumps(key_src).encode()).hexdigest()[:12]
    out = os.path.join(CACHE_DIR, f"base-{version}-{variant}-{key}.cpio.gz")
    if os.path.exists(out):
        return out
    c = Cpio()
    for d in ["dev", "proc", "sys", "tmp", "run", "etc", "root", "bin", "sbin", "usr/bin", "usr/sbin"]:
        c.dir(d)
    with open(busybox, "rb") as f:
        c.file("bin/busybox", f.read(), 0o755)
    applets = subprocess.run([busybox, "--list-full"], capture_output=True, text=True, check=True).stdout
    for a in applets.split():
        if a != "bin/busybox":
            c.symlink(a, "/bin/busybox")
    def add_modules(paths):
        names = []
        for p in paths:
            name = os.path.basename(p)
            for ext in (".xz", ".zst", ".gz"):
                if name.endswith(ext):
                    name = name[: -len(ext)]
            c.file(f"modules/{name}", module_bytes(p))
            names.append(name)
        return names
    names = add_modules(paths)
    c.file("modules/order", ("\n".join(names) + "\n").encode())
    c.file("modules/late", ("\n".join(add_modules(late)) + "\n").encode())
    for d in FONT_GLOBS:
        if os.path.isdir(d):
            for fn in sorted(os.listdir(d)):
                if fn.endswith((".ttf", ".ttc", ".otf")):
                    c.host_path(os.path.join(d, fn))
    _atomic_write(out, gzip.compress(c.encode(), compresslevel=1))
    for old in os.listdir(CACHE_DIR):  # older builds of the same base
        if old.startswith(f"base-{version}-{variant}-") and os.path.join(CACHE_DIR, old) != out:
            try:
                os.unlink(os.path.join(CACHE_DIR, old))
            except OSError:
                pass
    return out


def shared_libraries(program):
    out = subprocess.run(["ldd", program], capture_output=True, text=True)
    if out.returncode != 0:  # static executables: "not a dynamic executable"
        return []
    libs = []
    for line in out.stdout.splitlines():
        m = re.search(r"=>\s*(/\S+)", line) or re.match(r"\s*(/\S+)\s+\(", line)
        if m:
            libs.append(m.group(1))
        elif "=> not found" in line:
            raise VMError(f"ldd {program}: {line.strip()}")
    return libs


def program_initramfs(display, program, args, env, extra_files, workdir):
    cfg = DISPLAYS[display]
    program = os.path.abspath(program)
    c = Cpio()
    c.host_path(program)
    for lib in shared_libraries(program):
        c.host_path(lib)
    for spec in extra_files:
        src, _, dst = spec.partition(":")
        if dst:
            with open(src, "rb") as f:
                c.file(dst, f.read(), stat.S_IMODE(os.stat(src).st_mode))
        else:
            c.host_path(src)
    envs = " ".join(shlex.quote(e) for e in env)
    # debugfs for the configurations that read it (vkms's CRCs under /sys/kernel/debug/dri/N/crtc-0/crc).
    setup = "mount -t debugfs debugfs /sys/kernel/debug || echo 'init: no debugfs'\n" if cfg.get("debugfs") else ""
    init = INIT_TEMPLATE.format(
        setup=setup, wait_for=cfg["wait_for"], cwd=shlex.quote(os.path.dirname(program)),
        env=("env " + envs) if envs else "", program=shlex.quote(program),
        args=" ".join(shlex.quote(a) for a in args))
    c.file("init", init.encode(), 0o755)
    path = os.path.join(workdir, "program.cpio")
    with open(path, "wb") as f:
        f.write(c.encode())
    return path


# ---------------------------------------------------------------------------------------------
# PPM / PNG

def read_ppm(path):
    with open(path, "rb") as f:
        data = f.read()
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+(\d+)\s", data)
    if not m:
        raise VMError(f"{path} is not a binary PPM")
    w, h, maxval = int(m.group(1)), int(m.group(2)), int(m.group(3))
    pixels = data[m.end():]
    if maxval != 255 or len(pixels) < w * h * 3:
        raise VMError(f"{path}: truncated or unsupported PPM ({len(pixels)} bytes for {w}x{h})")
    return w, h, pixels[: w * h * 3]


def ppm_complete(path):
    try:
        read_ppm(path)
        return True
    except (OSError, VMError):
        return False


def write_png(path, w, h, rgb):
    """A minimal RGB8 PNG encoder: one IDAT, filter type 0 on every row."""
    import struct
    import zlib

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    stride = w * 3
    raw = b"".join(b"\0" + rgb[y * stride:(y + 1) * stride] for y in range(h))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(png)


# ---------------------------------------------------------------------------------------------
# QEMU

class QMP:
    def __init__(self, path, deadline):
        self.sock = _connect_unix(path, deadline)
        self.buf = b""
        self.events = []
        self.read_message(deadline)  # greeting
        self.command("qmp_capabilities", deadline=deadline)

    def read_message(self, deadline):
        while b"\n" not in self.buf:
            self.sock.settimeout(max(0.01, deadline - time.monotonic()))
            data = self.sock.recv(65536)
            if not data:
                raise VMError("QEMU closed the QMP socket")
            self.buf += data
        line, self.buf = self.buf.split(b"\n", 1)
        return json.loads(line)

    def command(self, name, deadline, **arguments):
        msg = {"execute": name}
        if arguments:
            msg["arguments"] = arguments
        self.sock.sendall(json.dumps(msg).encode() + b"\n")
        while True:
            reply = self.read_message(deadline)
            if "return" in reply:
                return reply["return"]
            if "error" in reply:
                raise VMError(f"QMP {name}: {reply['error'].get('desc', reply)}")
            if "event" in reply:  # asynchronous: kept for wait_event (DEVICE_DELETED after device_del)
                self.events.append(reply)

    def wait_event(self, name, deadline, **data):
        """Waits for an event `name` whose data has these values (already received or arriving
        before `deadline`); returns it, or None on timeout."""
        while True:
            for i, e in enumerate(self.events):
                if e.get("event") == name and all(e.get("data", {}).get(k) == v for k, v in data.items()):
                    return self.events.pop(i)
            if time.monotonic() > deadline:
                return None
            try:
                msg = self.read_message(min(deadline, time.monotonic() + 0.1))
            except (socket.timeout, TimeoutError):
                continue
            if "event" in msg:
                self.events.append(msg)


def _connect_unix(path, deadline):
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise VMError(f"could not connect to {path}")
            time.sleep(0.02)


def _vcpu_wait_seconds(pid):
    """How long QEMU's vCPU threads ("CPU 0/TCG", "CPU 0/KVM") have waited runnable on the host's
    run queues, from /proc/<pid>/task/*/schedstat (run ns, wait ns, slices); 0 where unreadable."""
    total = 0
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return 0.0
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/comm") as f:
                if not f.read().startswith("CPU "):
                    continue
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return total / 1e9


def _screendump(qmp, ppm, deadline, device=None, head=None):
    if os.path.exists(ppm):
        os.unlink(ppm)
    args = {"filename": ppm}
    if device is not None:  # a graphic console other than the first (QEMU 2.12+)
        args["device"] = device
    if head is not None:
        args["head"] = head
    qmp.command("screendump", deadline=deadline, **args)
    while not ppm_complete(ppm):  # QMP answers once written; this guards against a short file
        if time.monotonic() > deadline:
            raise VMError(f"screendump {ppm} never completed")
        time.sleep(0.01)


def _centre_lit(qmp, ppm, deadline):
    """Whether the screen's centre (its middle third each way, every 4th pixel) has 20 or more
    pixels brighter than 40 of 255: a splash's picture, where a quiet boot's console has at
    most a line of text at the top. QEMU's 640x480 placeholder while no output is active has
    its message in the centre: it does not count."""
    _screendump(qmp, ppm, deadline)
    w, h, rgb = read_ppm(ppm)
    if (w, h) == (640, 480):
        return False
    lit = 0
    for y in range(h // 3, 2 * h // 3, 4):
        row = y * w * 3
        for x in range(w // 3, 2 * w // 3, 4):
            i = row + x * 3
            if max(rgb[i], rgb[i + 1], rgb[i + 2]) > 40:
                lit += 1
                if lit >= 20:
                    return True
    return False


def _record_frame(qmp, rec, deadline):
    """One screendump of a RECORD: kept as <name>-NNNN.ppm when it differs from the one before."""
    tmp = os.path.join(rec["dir"], rec["name"] + ".tmp.ppm")
    _screendump(qmp, tmp, deadline)
    at = (time.monotonic() - rec["start"]) * 1000
    with open(tmp, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    if digest != rec["last"]:
        rec["last"] = digest
        rec["file"] = f"{rec['name']}-{rec['distinct']:04d}.ppm"
        os.replace(tmp, os.path.join(rec["dir"], rec["file"]))
        rec["distinct"] += 1
    rec["dumps"] += 1
    rec["index"].write(f"{at:.1f} {rec['file']}\n")


def _hotplug_request(qmp, word, words, deadline, result):
    """The guest's hotplug requests (see README.md), answered "OK ..." or "ERR ...":
    DEVICE_ADD <id> <driver> [prop=value ...]   QMP device_add (e.g. virtio-gpu-pci on pci.0)
    DEVICE_DEL <id>                             QMP device_del: asks the guest's ACPI to eject;
                                                the device is gone at QEMU's DEVICE_DELETED event
    WAIT_DELETED <id> <milliseconds>            waits for that event or for the device to leave
                                                the bus: "OK <ms since DEVICE_DEL> deleted|ejected"
    """
    try:
        if word == "DEVICE_ADD" and len(words) >= 2:
            # QMP wants JSON types: numbers as numbers (a string xres makes QEMU 7.2 abort).
            props = {k: int(v) if re.fullmatch(r"\d+", v) else v for k, v in (w.split("=", 1) for w in words[2:])}
            qmp.command("device_add", deadline=deadline, driver=words[1], id=words[0], **props)
            result.hotplug.append(("add", words[0], time.monotonic()))
            return "OK"
        if word == "DEVICE_DEL" and len(words) == 1:
            qmp.command("device_del", deadline=deadline, id=words[0])
            result.hotplug.append(("del", words[0], time.monotonic()))
            return "OK"
        if word == "WAIT_DELETED" and len(words) == 2:
            asked = [t for kind, i, t in result.hotplug if kind == "del" and i == words[0]]
            since = lambda: (time.monotonic() - asked[-1]) * 1000 if asked else 0
            until = min(deadline, time.monotonic() + int(words[1]) / 1000)
            # QEMU 7.2 sends DEVICE_DELETED from device_finalize; a hot-unplugged bochs-display is
            # ejected (gone from the bus and /machine/peripheral) but never finalized, so the event
            # never comes: the device leaving the bus is the guest's part done.
            event = None
            while event is None and time.monotonic() < until:
                event = qmp.wait_event("DEVICE_DELETED", min(until, time.monotonic() + 0.1), device=words[0])
                if event is None:
                    buses = qmp.command("query-pci", deadline=deadline)
                    if not any(d.get("qdev_id") == words[0] for b in buses for d in b.get("devices", [])):
                        return f"OK {since():.0f} ejected"
            if event is not None:
                return f"OK {since():.0f} deleted"
            if event is None:
                # Say whether the guest ejected the slot (the device left the bus) or not.
                buses = qmp.command("query-pci", deadline=deadline)
                on_bus = any(d.get("qdev_id") == words[0] for b in buses for d in b.get("devices", []))
                paths = qmp.command("qom-list", deadline=deadline, path="/machine/peripheral")
                alive = any(p.get("name") == words[0] for p in paths)
                return (f"ERR no DEVICE_DELETED for {words[0]} within {words[1]} ms "
                        f"({'still on' if on_bus else 'gone from'} the PCI bus, "
                        f"{'still' if alive else 'no longer'} in /machine/peripheral)")
        return f"ERR bad {word} line"
    except (VMError, ValueError) as e:
        return f"ERR {e}"
    except OSError as e:  # QEMU died on the request
        raise VMError(f"QMP {word.lower()} {' '.join(words)}: {e}")


def _input_request(qmp, word, words, deadline):
    """The guest's input requests (with --input: virtio-tablet-pci and virtio-keyboard-pci), through
    QMP's input-send-event, answered "OK" or "ERR ...":
    TAP <x> <y> <width> <height>       the pointer to scanout pixel (x, y) of a width x height
                                       screen, the left button pressed and released
    PRESS <x> <y> <width> <height>     the same without the release; RELEASE <x> <y> <width> <height>
                                       moves there and releases
    KEY <qcode>                        a key (QEMU's qcode: ret, spc, esc, a) pressed and released
    KEY <qcode>+<qcode>...             a chord: the keys pressed in that order, released in the
                                       reverse one (shift+z, alt_r+q: AltGr on a German layout)
    The tablet's axes run 0...32767 across the screen: pixel x is at (x + 0.5) / width of it.
    """
    def send(*events):
        qmp.command("input-send-event", deadline=deadline, events=list(events))
    try:
        if word in ("TAP", "PRESS", "RELEASE") and len(words) == 4:
            x, y, w, h = (int(v) for v in words)
            if not (0 <= x < w and 0 <= y < h):
                return f"ERR {x},{y} is not on a {w}x{h} screen"
            ax, ay = (round((v + 0.5) / n * 32767) for v, n in ((x, w), (y, h)))
            move = [{"type": "abs", "data": {"axis": "x", "value": ax}}, {"type": "abs", "data": {"axis": "y", "value": ay}}]
            send(*move)
            if word in ("TAP", "PRESS"):
                send({"type": "btn", "data": {"down": True, "button": "left"}})
            if word in ("TAP", "RELEASE"):
                send({"type": "btn", "data": {"down": False, "button": "left"}})
            return "OK"
        if word == "KEY" and len(words) == 1 and all(words[0].split("+")):
            keys = words[0].split("+")
            for down, order in ((True, keys), (False, keys[::-1])):
                for k in order:
                    send({"type": "key", "data": {"down": down, "key": {"type": "qcode", "data": k}}})
            return "OK"
        return f"ERR bad {word} line"
    except (VMError, ValueError) as e:
        return f"ERR {e}"
    except OSError as e:
        raise VMError(f"QMP input-send-event {word} {' '.join(words)}: {e}")


class RunResult:
    def __init__(self):
        self.status = None
        self.shots = []
        self.console = ""
        self.ready_seconds = None  # QEMU start to /init's READY (kernel, modules, device node up)
        self.total_seconds = None
        self.error = None
        self.hotplug = []  # (add|del, device id, monotonic time) of the guest's hotplug requests
        self.first_frame = None  # seconds from the start to the first lit centre (--first-frame)


def run_vm(display, program, args=(), shots_dir=".", timeout=120.0, env=(), extra_files=(),
           cmdline="", memory=1024, png=True, verbose=False, extra_modules=(), input_devices=False,
           initrd=None, drives=(), tb_size=None, first_frame=False, extra_qemu=()):
    """Boots the guest with `program` and serves its requests; returns a RunResult. With `initrd`
    (an image built elsewhere, e.g. by mkinitramfs) that image boots instead of the harness's own
    and `program` is unused; `drives` are raw disk images attached as virtio disks (vda, vdb...).
    `tb_size`: TCG's translation cache in MiB (QEMU's default: 1 GiB). `first_frame`: watch for
    the first splash frame (see the header). `extra_qemu`: more QEMU arguments (a TPM:
    -chardev, -tpmdev, -device tpm-tis)."""
    if display not in DISPLAYS:
        raise VMError(f"unknown display '{display}' (have: {', '.join(sorted(DISPLAYS))})")
    qemu = shutil.which("qemu-system-x86_64")
    if not qemu:
        raise VMError("qemu-system-x86_64 not found: run scripts/setup.sh (installs qemu-system-x86)")
    version = kernel_version()
    cfg = DISPLAYS[display]
    shots_dir = os.path.abspath(shots_dir)
    os.makedirs(shots_dir, exist_ok=True)
    result = RunResult()
    start = time.monotonic()
    deadline = start + timeout
    work = tempfile.mkdtemp(prefix="vmtest-")
    proc = None
    try:
        if input_devices:
            # The tablet and keyboard QMP's input-send-event reaches, and their drivers.
            extra_modules = list(extra_modules) + [m for m in ("virtio_pci", "virtio_input", "evdev") if m not in extra_modules]
        if initrd is None:
            base = base_initramfs(version, display, extra_modules)
            prog = program_initramfs(display, program, list(args), list(env), list(extra_files), work)
            initrd = os.path.join(work, "initrd")
            # The kernel unpacks concatenated archives; the uncompressed one goes first because after a
            # gzip member the kernel misreads what follows ("invalid magic at start of compressed archive").
            with open(initrd, "wb") as out:
                for part in (prog, base):
                    with open(part, "rb") as f:
                        shutil.copyfileobj(f, out)
        console = os.path.join(work, "console.log")
        qmp_path, ctl_path = os.path.join(work, "qmp"), os.path.join(work, "ctl")
        # The caller's words go before the configuration's: QEMU's loader takes the first vga=.
        append = " ".join(filter(None, ["console=ttyS0 quiet panic=-1", cmdline, cfg["cmdline"]]))
        accel = "tcg" if tb_size is None else f"tcg,tb-size={tb_size}"
        # debug-threads names the vCPU threads ("CPU 0/TCG"), for _vcpu_wait_seconds.
        argv = [qemu, "-nodefaults", "-accel", accel, "-m", str(memory), "-display", "none", "-no-reboot",
                "-name", "vmtest,debug-threads=on", "-kernel", f"/boot/vmlinuz-{version}", "-initrd", initrd, "-append", append,
                "-qmp", f"unix:{qmp_path},server=on,wait=off",
                "-chardev", f"file,id=con,path={console}", "-serial", "chardev:con",
                "-chardev", f"socket,id=ctl,path={ctl_path},server=on,wait=off", "-serial", "chardev:ctl",
                "-S"] + cfg["qemu"]
        if input_devices:
            argv += ["-device", "virtio-tablet-pci,id=tablet0", "-device", "virtio-keyboard-pci,id=kbd0"]
        for drive in drives:
            argv += ["-drive", f"file={os.path.abspath(drive)},if=virtio,format=raw"]
        argv += list(extra_qemu)
        if verbose:
            log(" ".join(shlex.quote(a) for a in argv))
        boot_start = time.monotonic()
        # QEMU's own output goes to a file: a pipe read only after exit would stall QEMU once full.
        qemu_log = open(os.path.join(work, "qemu.log"), "wb")
        proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=qemu_log, stderr=subprocess.STDOUT)
        qemu_log.close()
        qmp = QMP(qmp_path, deadline)
        ctl = _connect_unix(ctl_path, deadline)
        qmp.command("cont", deadline=deadline)  # started paused (-S) so no guest byte is lost
        buf = b""
        powering_off = False  # the guest said POWEROFF: QEMU ending by itself is its end
        recording = None  # RECORD <name>: screendumps as fast as QMP gives them, until RECORD STOP
        watch_at = boot_start if first_frame else None  # the next --first-frame dump
        while result.status is None:
            if recording is not None:
                _record_frame(qmp, recording, deadline)
            now = time.monotonic()
            if watch_at is not None and now >= watch_at:
                watch_at = now + 0.1
                if _centre_lit(qmp, os.path.join(work, "watch.ppm"), deadline):
                    result.first_frame = now - boot_start
                    log(f"FIRST-FRAME {result.first_frame:.3f}")
                    watch_at = None
            if now > deadline:
                result.status = EXIT_TIMEOUT
                result.error = f"timed out after {timeout:.0f} s"
                break
            if proc.poll() is not None:
                if powering_off and proc.returncode == 0:
                    result.status = 0
                    log("the guest powered off")
                    break
                result.status = EXIT_VM_FAILED
                result.error = f"QEMU exited ({proc.returncode}) before the guest reported EXIT"
                break
            ctl.settimeout(0.001 if recording is not None else min(0.05 if watch_at else 0.2, max(0.01, deadline - now)))
            try:
                data = ctl.recv(4096)
            except socket.timeout:
                continue
            if not data:
                if powering_off:
                    try:  # QEMU is ending: its exit status decides, above
                        proc.wait(timeout=5)
                    except subprocess.TimeoutExpired:
                        pass
                    continue
                result.status = EXIT_VM_FAILED
                result.error = "control channel closed"
                break
            buf += data
            while b"\n" in buf and result.status is None:
                raw, buf = buf.split(b"\n", 1)
                line = raw.decode(errors="replace").strip()
                if not line:
                    continue
                word, _, rest = line.partition(" ")
                if word == "READY":  # /init is about to start the program
                    result.ready_seconds = time.monotonic() - boot_start
                elif word == "UPTIME":
                    log(f"UPTIME guest {rest.strip()} host {time.monotonic() - boot_start:.3f}")
                elif word == "SHOT":
                    # SHOT <name> [stable|settled] [device=<qdev id>] [head=<n>]
                    words = rest.split()
                    name = words[0] if words else ""
                    opts = dict(w.split("=", 1) for w in words[1:] if "=" in w)
                    flags = [w for w in words[1:] if "=" not in w]
                    mode = flags[0] if len(flags) == 1 else ""
                    if (not re.fullmatch(r"[A-Za-z0-9_.-]+", name) or set(opts) - {"device", "head"}
                            or len(flags) > 1 or any(w not in ("stable", "settled") for w in flags)
                            or not re.fullmatch(r"\d*", opts.get("head", ""))):
                        ctl.sendall(b"ERR bad SHOT line\n")
                        continue
                    dev = opts.get("device")
                    head = int(opts["head"]) if "head" in opts else None
                    ppm = os.path.join(shots_dir, name + ".ppm")
                    try:
                        _screendump(qmp, ppm, deadline, dev, head)
                    except VMError as e:
                        ctl.sendall(f"ERR {e}\n".encode())
                        continue
                    # "stable": repeat until two dumps 50 ms apart agree, for drivers that reach the
                    # screen asynchronously (DRM fbdev emulation's deferred-I/O worker).
                    # "settled": two dumps 1 s apart, for an animation that must have ended (a
                    # guest stalled by a loaded host can hold a fade's frame for 50 ms).
                    # Equal dumps prove nothing if the host kept the guest's vCPUs off the CPU
                    # between them (a blit stalled half way shows twice): such a pair is not counted.
                    tries, pause = 0, (1.0 if mode == "settled" else 0.05)
                    while mode and tries < (30 if mode == "settled" else 40):
                        waited = _vcpu_wait_seconds(proc.pid)
                        time.sleep(pause)
                        prev = read_ppm(ppm)
                        _screendump(qmp, ppm, deadline, dev, head)
                        tries += 1
                        starved = _vcpu_wait_seconds(proc.pid) - waited > pause / 2
                        if starved:
                            log(f"SHOT {name}: the guest's vCPUs waited for the host's CPU; dumping again")
                        if read_ppm(ppm) == prev and not starved:
                            break
                    if png:
                        write_png(os.path.join(shots_dir, name + ".png"), *read_ppm(ppm))
                    result.shots.append(ppm)
                    ctl.sendall(b"OK\n")
                elif word == "RECORD":
                    # RECORD <name>: dump the screen continuously; RECORD STOP ends it and answers
                    # "OK <dumps> <distinct>". Distinct frames go to <name>-NNNN.ppm, and
                    # <name>.index lists every dump as "<ms since RECORD> <file>".
                    arg = rest.strip()
                    if arg == "STOP" and recording is not None:
                        recording["index"].close()
                        ctl.sendall(f"OK {recording['dumps']} {recording['distinct']}\n".encode())
                        recording = None
                    elif re.fullmatch(r"[A-Za-z0-9_.-]+", arg) and arg != "STOP" and recording is None:
                        recording = {"name": arg, "dir": shots_dir, "start": time.monotonic(), "dumps": 0, "distinct": 0,
                                     "last": None, "index": open(os.path.join(shots_dir, arg + ".index"), "w")}
                        ctl.sendall(b"OK\n")
                    else:
                        ctl.sendall(b"ERR bad RECORD line\n")
                elif word == "MARK":
                    # MARK <words>: a line "# <ms since RECORD> <words>" in the recording's index.
                    if recording is not None:
                        recording["index"].write(f"# {(time.monotonic() - recording['start']) * 1000:.1f} {rest.strip()}\n")
                    ctl.sendall(b"OK\n")
                elif word in ("DEVICE_ADD", "DEVICE_DEL", "WAIT_DELETED"):
                    ctl.sendall((_hotplug_request(qmp, word, rest.split(), deadline, result) + "\n").encode())
                elif word in ("TAP", "PRESS", "RELEASE", "KEY"):
                    ctl.sendall((_input_request(qmp, word, rest.split(), deadline) + "\n").encode())
                elif word == "POWEROFF":
                    # The guest powers off next (-no-reboot: a reboot ends QEMU too); screendumps
                    # may still be asked for until then.
                    powering_off = True
                elif word == "EXIT":
                    try:
                        result.status = int(rest.strip())
                    except ValueError:
                        result.status = EXIT_VM_FAILED
                        result.error = f"bad EXIT line: {line!r}"
                else:
                    log(f"guest said: {line}")
        try:
            qmp.command("quit", deadline=time.monotonic() + 2)
        except (VMError, OSError):
            pass
    except VMError as e:
        result.status = EXIT_VM_FAILED
        result.error = str(e)
    finally:
        if proc is not None:
            try:
                proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
            try:
                with open(os.path.join(work, "qemu.log"), "rb") as f:
                    qemu_out = f.read().decode(errors="replace")
            except OSError:
                qemu_out = ""
            if qemu_out.strip():
                result.console += "[qemu] " + qemu_out.strip() + "\n"
        try:
            with open(os.path.join(work, "console.log"), "rb") as f:
                # the guest's tty turns \n into \r\n
                result.console += f.read().decode(errors="replace").replace("\r\n", "\n")
        except OSError:
            pass
        shutil.rmtree(work, ignore_errors=True)
        result.total_seconds = time.monotonic() - start
    return result


# ---------------------------------------------------------------------------------------------
# selftest: fbfill on each display, screendump compared with the expected pattern

def expected_rgb(x, y, w, h):
    """Mirror of pattern_rgb() in fbfill.c."""
    band = h // 16
    if h // 2 - band <= y < h // 2 + band:
        v = (x * 255) // (w - 1)
        return (v, v, v)
    right, bottom = x >= w // 2, y >= h // 2
    return [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)][bottom * 2 + right]


def parse_fbinfo(console):
    m = re.search(r"^fbinfo: (.*)$", console, re.M)
    if not m:
        return None
    info = {}
    for tok in m.group(1).split():
        k, _, v = tok.partition("=")
        info[k] = v
    return info


def widen(value, length):
    """An 8-bit value as it comes back from a `length`-bit channel: fbfill truncates, QEMU widens
    by repeating the high bits (RGB565: 124 -> 15 -> 123)."""
    if length >= 8:
        return value
    q = value >> (8 - length)
    out, filled = 0, 0
    while filled < 8:
        out = (out << length) | q
        filled += length
    return out >> (filled - 8)


def compare_pattern(ppm, info):
    """Returns (mismatching pixels, text naming the first). Exact, after quantising the expected
    colours to the framebuffer's channel lengths."""
    w, h, px = read_ppm(ppm)
    fw, fh = int(info["xres"]), int(info["yres"])
    if (w, h) != (fw, fh):
        return w * h, f"screendump is {w}x{h}, framebuffer is {fw}x{fh}"
    lengths = [int(info[ch].split("/")[1]) for ch in ("red", "green", "blue")]
    rows = {}  # the expected row for each kind of row (top, band, bottom)
    bad, first = 0, None
    for y in range(h):
        kind = (expected_rgb(0, y, w, h), expected_rgb(w - 1, y, w, h))
        if kind not in rows:
            rows[kind] = bytes(widen(c, lengths[i]) for x in range(w)
                               for i, c in enumerate(expected_rgb(x, y, w, h)))
        exp, got = rows[kind], px[y * w * 3:(y + 1) * w * 3]
        if exp == got:
            continue
        for x in range(w):
            if exp[x * 3:x * 3 + 3] != got[x * 3:x * 3 + 3]:
                bad += 1
                if first is None:
                    first = f"({x},{y}) is {tuple(got[x * 3:x * 3 + 3])}, expected {tuple(exp[x * 3:x * 3 + 3])}"
    return bad, first


def classify_pan(ppm, info):
    """What the screen showed after fbfill panned to page 1 (magenta page 0, the pattern in page 1):
    "page1" (panning works), "page0" (the driver ignores the offset), else "other:" and what the
    dump holds most (a driver that pans to memory the pattern never reached)."""
    bad, first = compare_pattern(ppm, info)
    if bad == 0:
        return "page1"
    w, h, px = read_ppm(ppm)
    lengths = [int(info[ch].split("/")[1]) for ch in ("red", "green", "blue")]
    magenta = bytes(widen(c, lengths[i]) for i, c in enumerate((255, 0, 255)))
    if px == magenta * (w * h):
        return "page0"
    counts = {}
    for i in range(0, len(px), 3 * 97):  # a sample is enough to name the main colour
        counts[px[i:i + 3]] = counts.get(px[i:i + 3], 0) + 1
    top = max(counts, key=counts.get)
    return f"other:{bad}-pixels-not-the-pattern,mostly-rgb{tuple(top)}".replace(" ", "")


def build_fbfill(out_dir):
    src = os.path.join(HERE, "fbfill.c")
    exe = os.path.join(out_dir, "fbfill")
    if not os.path.exists(exe) or os.stat(exe).st_mtime < os.stat(src).st_mtime:
        os.makedirs(out_dir, exist_ok=True)
        cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
        if not cc:
            raise VMError("no C compiler (cc, gcc or the Swift toolchain's clang) to build fbfill.c")
        subprocess.run([cc, "-O2", "-Wall", "-o", exe + ".tmp", src], check=True)
        os.replace(exe + ".tmp", exe)
    return exe


def selftest(displays, shots_dir, timeout, cmdline=""):
    exe = build_fbfill(CACHE_DIR)
    failures = []
    for d in displays:
        shots = os.path.join(shots_dir, d)
        if os.path.isdir(shots):
            shutil.rmtree(shots)
        r = run_vm(d, exe, shots_dir=shots, timeout=timeout, cmdline=cmdline)
        info = parse_fbinfo(r.console)
        pattern = [p for p in r.shots if os.path.basename(p) == "pattern.ppm"]
        pan1 = [p for p in r.shots if os.path.basename(p) == "pan1.ppm"]
        boot = f"{r.ready_seconds:.1f}" if r.ready_seconds is not None else "-"
        devices = re.search(r"devices: ?(.*)$", r.console, re.M)
        problem = None
        if r.status != 0:
            problem = f"guest status {r.status}" + (f" ({r.error})" if r.error else "")
        elif info is None:
            problem = "no fbinfo line on the console"
        elif not pattern:
            problem = "no screendump was taken"
        else:
            bad, first = compare_pattern(pattern[0], info)
            if bad:
                problem = f"{bad} pixels differ from the pattern, first {first}"
        summary = (f"{info['id']} {info['xres']}x{info['yres']} virtual {info['xres_virtual']}x{info['yres_virtual']} "
                   f"{info['bpp']} bpp r{info['red']} g{info['green']} b{info['blue']} a{info['transp']} "
                   f"pitch {info['line_length']} pan={info['pan_display']} vsync={info['waitforvsync']} "
                   f"({info['vsync_us']} us, waits={info.get('vsync_waits')}) "
                   f"pan-to-page1={info.get('pan1')} yoffset {info.get('pan1_yoffset')}"
                   + (f" shows {classify_pan(pan1[0], info)}" if pan1 else "")
                   + f" nodes: {devices.group(1) if devices else '?'}") if info else ""
        print(f"{d:9s} {'ok  ' if not problem else 'FAIL'} boot {boot} s total {r.total_seconds:.1f} s  {summary}",
              flush=True)
        if problem:
            print(f"  {problem}\n  --- guest console ---\n" + _indent(r.console[-6000:]), flush=True)
            failures.append(d)
    return failures


def _indent(text):
    return "\n".join("    " + line for line in text.splitlines())


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="boot the guest with a program and serve its screenshot requests")
    r.add_argument("--display", required=True, choices=sorted(DISPLAYS))
    r.add_argument("--program", required=True)
    r.add_argument("--args", nargs=argparse.REMAINDER, default=[], help="program arguments (the rest)")
    r.add_argument("--shots-dir", default=".")
    r.add_argument("--timeout", type=float, default=120.0)
    r.add_argument("--env", action="append", default=[], help="NAME=VALUE for the program")
    r.add_argument("--file", action="append", default=[], help="host file to copy: PATH or SRC:DEST")
    r.add_argument("--cmdline", default="", help="extra kernel command line")
    r.add_argument("--modules", default="", help="extra kernel modules for the initramfs, comma-separated "
                   "(insmodded at boot with their dependencies: drivers of devices hot-plugged later)")
    r.add_argument("--input", action="store_true", help="a virtio tablet and keyboard (TAP, KEY requests)")
    r.add_argument("--verbose", action="store_true")
    b = sub.add_parser("boot", help="boot a given initramfs (and disks) and serve its screenshot requests")
    b.add_argument("--display", required=True, choices=sorted(DISPLAYS))
    b.add_argument("--initrd", required=True, help="the initramfs image (mkinitramfs's, dracut's)")
    b.add_argument("--drive", action="append", default=[], help="a raw disk image, attached as a virtio disk")
    b.add_argument("--shots-dir", default=".")
    b.add_argument("--timeout", type=float, default=120.0)
    b.add_argument("--cmdline", default="", help="kernel command line (root=/dev/vda ...)")
    b.add_argument("--input", action="store_true", help="a virtio tablet and keyboard (TAP, KEY requests); "
                   "the image must load virtio_input itself")
    # A boot that switches root frees the initramfs's pages, whose code TCG has translated. With
    # QEMU's 1 GiB cache those translations outlive the pages, and the guest zeroing one reused
    # page (a DRM dumb buffer's, dm-crypt's) stores 8 bytes at a time through TCG's self-modifying
    # code path: the real root froze for 110 to 170 s in clear_page_rep in 6 of 10 dracut LUKS
    # boots. A 64 MiB cache is flushed often enough to forget them: 3 of 3 boots without it.
    b.add_argument("--tb-size", type=int, default=64, help="TCG's translation cache in MiB (0: QEMU's default, 1 GiB)")
    b.add_argument("--first-frame", action="store_true", help="log when the screen's centre first lights up (a splash)")
    b.add_argument("--qemu-arg", action="append", default=[], help="one more QEMU argument (repeat: -tpmdev, its value...)")
    b.add_argument("--verbose", action="store_true")
    s = sub.add_parser("selftest", help="fbfill on each display; screendumps checked against the pattern")
    s.add_argument("--displays", default="bochs,virtio,cirrus,vesafb32,vesafb24,vesafb16")
    s.add_argument("--shots-dir", default=os.path.join(CACHE_DIR, "selftest"))
    s.add_argument("--timeout", type=float, default=90.0)
    s.add_argument("--cmdline", default="", help="extra kernel command line "
                   "(drm_kms_helper.drm_fbdev_overalloc=200: two pages, so fbfill's pan probe runs)")
    sub.add_parser("displays", help="list the display configurations")
    sub.add_parser("kernel", help="print the guest kernel's version (the one the guests boot)")
    m = sub.add_parser("module-path", help="print where an out-of-tree module for the guest kernel is cached")
    m.add_argument("name", choices=sorted(OUT_OF_TREE_MODULES))
    m.add_argument("--kernel", help="kernel version (default: the guest kernel)")
    a = ap.parse_args()
    try:
        if a.cmd == "displays":
            for name, cfg in DISPLAYS.items():
                print(f"{name:9s} qemu {' '.join(cfg['qemu'])}; modules {','.join(cfg['modules']) or '-'}; "
                      f"cmdline {cfg['cmdline'] or '-'}")
            return 0
        if a.cmd == "kernel":
            print(kernel_version())
            return 0
        if a.cmd == "module-path":
            print(out_of_tree_module_path(a.kernel or kernel_version(), a.name))
            return 0
        if a.cmd == "selftest":
            failures = selftest([d for d in a.displays.split(",") if d], a.shots_dir, a.timeout, a.cmdline)
            print("selftest: " + ("all passed" if not failures else "FAILED: " + ", ".join(failures)))
            return 1 if failures else 0
        if a.cmd == "boot":
            res = run_vm(a.display, None, shots_dir=a.shots_dir, timeout=a.timeout, cmdline=a.cmdline,
                         verbose=a.verbose, initrd=os.path.abspath(a.initrd), drives=a.drive, input_devices=a.input,
                         tb_size=a.tb_size or None, first_frame=a.first_frame, extra_qemu=a.qemu_arg)
        else:
            res = run_vm(a.display, a.program, a.args, a.shots_dir, a.timeout, a.env, a.file, a.cmdline,
                         verbose=a.verbose, extra_modules=[m for m in a.modules.split(",") if m], input_devices=a.input)
        boot = f"{res.ready_seconds:.1f} s" if res.ready_seconds is not None else "-"
        log(f"{a.display}: status {res.status}, {len(res.shots)} shot(s), boot {boot}, total {res.total_seconds:.1f} s")
        if res.error or res.status != 0:
            if res.error:
                log(res.error)
            sys.stderr.write("--- guest console ---\n" + res.console + "\n")
        elif a.verbose:
            sys.stderr.write(res.console)
        return res.status
    except VMError as e:
        log(str(e))
        return EXIT_VM_FAILED


if __name__ == "__main__":
    sys.exit(main())
