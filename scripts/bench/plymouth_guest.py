# SPDX-License-Identifier: MIT
"""Debian's Plymouth in the harness's busybox guest: its binaries, plugins, themes, fonts and
configuration, with the libraries of everything, as vmtest's extra files (shared by
against-plymouth.py and seamless-plymouth.py)."""
import glob
import os

import vmtest

ARCH_LIB = "/usr/lib/x86_64-linux-gnu"
PLY_PLUGINS = [f"{ARCH_LIB}/plymouth/{p}" for p in
               ("two-step.so", "label.so", "text.so", "details.so", "renderers/drm.so", "renderers/frame-buffer.so")]
PLY_BINARIES = ["/usr/sbin/plymouthd", "/usr/bin/plymouth"]
PLY_THEMES = ["/usr/share/plymouth/themes/spinner", "/usr/share/plymouth/themes/text",
              "/usr/share/plymouth/themes/details"]


def ldd_closure(paths):
    libs = []
    for p in paths:
        for lib in vmtest.shared_libraries(p):
            if lib not in libs:
                libs.append(lib)
    return libs


def tree_files(path):
    if os.path.isfile(path):
        return [path]
    return sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)


def guest_files(hudd, hud, workdir, theme="spinner", programs=()):
    """Everything Plymouth (its `theme` as the default), SplashHUD and `programs` need in the
    guest, at their host paths (the harness copies only the guest program's own libraries)."""
    conf = os.path.join(workdir, "plymouthd.conf")
    with open(conf, "w") as f:
        f.write(f"[Daemon]\nTheme={theme}\nShowDelay=0\nDeviceTimeout=8\n")
    passwd = os.path.join(workdir, "passwd")
    with open(passwd, "w") as f:
        f.write("root:x:0:0:root:/root:/bin/sh\n")
    nss = os.path.join(workdir, "nsswitch.conf")
    with open(nss, "w") as f:
        f.write("passwd: files\n")
    files = [f"{conf}:/etc/plymouth/plymouthd.conf", f"{passwd}:/etc/passwd", f"{nss}:/etc/nsswitch.conf"]
    host = PLY_BINARIES + PLY_PLUGINS + ["/usr/share/plymouth/plymouthd.defaults", "/usr/share/plymouth/debian-logo.png",
                                         "/etc/fonts/fonts.conf", "/etc/fonts/conf.d/60-latin.conf"]
    host += glob.glob(f"{ARCH_LIB}/libnss_files*") + glob.glob("/usr/share/fonts/opentype/cantarell/Cantarell-*.otf")
    for t in PLY_THEMES + [f"/usr/share/plymouth/themes/{theme}"]:
        host += tree_files(t)
    host += ldd_closure(PLY_BINARIES + PLY_PLUGINS)
    host += [hudd, hud] + ldd_closure([hudd, hud])
    host += list(programs) + ldd_closure(programs)
    seen = set()
    for h in host:
        if os.path.exists(h) and h not in seen:
            seen.add(h)
            files.append(h)
    return files
