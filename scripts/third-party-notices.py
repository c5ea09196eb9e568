#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes THIRD-PARTY-NOTICES from what each installed binary really contains or loads.

    third-party-notices.py [--record RECORD.json]... [--kit-dir DIR] [-o FILE] BINARY...

For each BINARY: the object files and archive members its link took (RECORD, written by
scripts/relink/record-link.py when it was built; a static binary needs one) and the shared
libraries it loads (readelf -d NEEDED, recursively, as the dynamic loader would find them). Each
file is traced to its library (the table below) and to its copyright text: the Debian package
that installed it (/usr/share/doc/PACKAGE/copyright), the Debian source a library was built from
(its debian/copyright, else the upstream licence file), the Swift toolchain's LICENSE.txt, or a
SwiftPM dependency's LICENSE.txt and NOTICE.txt. The full texts of the licences those files only
name (/usr/share/common-licenses) follow at the end. A file no entry claims is an error: exit 1,
naming it, so a new library cannot be linked in without its notice.
"""
import argparse
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap

# name, SPDX licence (the one SplashHUD uses it under), whether LGPL 2.1 §6 applies to a static
# link of it, and the file names (without directory) that belong to it; the first match counts.
LIBRARIES = [
    ("GNU C Library (glibc)", "LGPL-2.1-or-later", True,
     r"(libc|libm|libmvec|libpthread|libdl|librt|libresolv|libutil|libanl|libc_nonshared|libBrokenLocale|libnss_\w+)(-[0-9.]+)?\.(a|so(\.[0-9.]+)?)"
     r"|[SR]?crt1\.o|crt[in]\.o|ld-linux[-\w.]*\.so(\.[0-9.]+)?"),
    ("GCC runtime libraries (libgcc, libstdc++)", "GPL-3.0-or-later WITH GCC-exception-3.1", False,
     r"(libgcc|libgcc_eh|libgcc_s|libstdc\+\+|libatomic)\.(a|so(\.[0-9.]+)?)|crt(begin|end)[ST]?\.o|crtfastmath\.o"),
    # Before the Swift runtime's entry, whose Foundation pattern would take it.
    ("ICU (swift-foundation-icu)", "Unicode-3.0", False, r"lib_FoundationICU\.(a|so)"),
    ("Swift runtime, standard library and Foundation (swift.org toolchain)", "Apache-2.0 WITH Swift-exception", False,
     r"swiftrt\.o|lib(swift\w*|_?Foundation\w*|_FoundationCShims|_FoundationCollections|dispatch|BlocksRuntime|CoreFoundation)\.(a|so)"),
    ("libdrm", "MIT", False, r"libdrm\.(a|so(\.[0-9.]+)?)"),
    ("FreeType", "FTL", False, r"libfreetype\.(a|so(\.[0-9.]+)?)"),
    ("libpng", "libpng-2.0", False, r"libpng(16)?\.(a|so(\.[0-9.]+)?)"),
    ("zlib", "Zlib", False, r"libz\.(a|so(\.[0-9.]+)?)"),
    ("Brotli", "MIT", False, r"libbrotli(common|dec|enc)\.(a|so(\.[0-9.]+)?)"),
    ("HarfBuzz", "MIT-Modern-Variant", False, r"libharfbuzz\.(a|so(\.[0-9.]+)?)"),
    ("GNU FriBidi", "LGPL-2.1-or-later", True, r"libfribidi\.(a|so(\.[0-9.]+)?)"),
    ("libthai", "LGPL-2.1-or-later", True, r"libthai\.(a|so(\.[0-9.]+)?)"),
    ("libdatrie", "LGPL-2.1-or-later", True, r"libdatrie\.(a|so(\.[0-9.]+)?)"),
    ("libunibreak", "Zlib", False, r"libunibreak\.(a|so(\.[0-9.]+)?)"),
    # The daemon's support QR code (scripts/qrencode-library.sh builds the static archive).
    ("libqrencode", "LGPL-2.1-or-later", True, r"libqrencode\.(a|so(\.[0-9.]+)?)"),
    ("Mosquitto client library (libmosquitto)", "EPL-2.0 OR BSD-3-Clause", False, r"libmosquitto\.so(\.[0-9.]+)?"),
    ("OpenSSL", "Apache-2.0", False, r"lib(ssl|crypto)\.so(\.[0-9.]+)?"),
    ("cJSON", "MIT", False, r"libcjson\.so(\.[0-9.]+)?"),
    # libsystemd (sd-bus, splashhud-updates' RAUC source) and what Debian's build of it loads.
    ("libsystemd (sd-bus)", "LGPL-2.1-or-later", True, r"libsystemd\.so(\.[0-9.]+)?"),
    ("libcap", "BSD-3-Clause OR GPL-2.0-only", False, r"libcap\.so(\.[0-9.]+)?"),
    ("libgcrypt", "LGPL-2.1-or-later", True, r"libgcrypt\.so(\.[0-9.]+)?"),
    ("libgpg-error", "LGPL-2.1-or-later", True, r"libgpg-error\.so(\.[0-9.]+)?"),
    ("XZ Utils' liblzma", "LicenseRef-public-domain", False, r"liblzma\.so(\.[0-9.]+)?"),
    ("Zstandard (libzstd)", "BSD-3-Clause OR GPL-2.0-only", False, r"libzstd\.so(\.[0-9.]+)?"),
    ("LZ4 (liblz4)", "BSD-2-Clause", False, r"liblz4\.so(\.[0-9.]+)?"),
    # What Debian's shared HarfBuzz loads (the dynamic build, --dynamic).
    ("GLib", "LGPL-2.1-or-later", True, r"libglib-2\.0\.so(\.[0-9.]+)?"),
    ("Graphite2", "LGPL-2.1-or-later OR MPL-2.0 OR GPL-2.0-or-later", True, r"libgraphite2\.so(\.[0-9.]+)?"),
    ("PCRE2", "BSD-3-Clause", False, r"libpcre2-8\.so(\.[0-9.]+)?"),
]

# SwiftPM dependencies compiled into the binaries: checkout directory -> (name, SPDX).
SWIFT_PACKAGES = {
    "swift-argument-parser": ("Swift Argument Parser", "Apache-2.0"),
    "swift-system": ("Swift System", "Apache-2.0"),
    "swift-log": ("SwiftLog", "Apache-2.0"),
}

# The /usr/share/common-licenses text each licence of the table needs beside the copyright files.
COMMON_LICENCES = {"LGPL-2.1": "LGPL-2.1", "GPL-3.0": "GPL-3", "Apache-2.0": "Apache-2.0"}


class NoticeError(Exception):
    pass


def run(argv):
    return subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def library_of(path):
    base = os.path.basename(path)
    for name, spdx, lgpl, pattern in LIBRARIES:
        if re.fullmatch(pattern, base):
            return name, spdx, lgpl
    raise NoticeError(f"no notice entry for {path}: add its library to LIBRARIES in {sys.argv[0]}")


@functools.lru_cache(maxsize=None)
def dpkg_files():
    """Every file dpkg installed -> its package (PACKAGE or PACKAGE:ARCH): the lists read once, as
    dpkg-query -S would for each file (a second each)."""
    owners, info = {}, "/var/lib/dpkg/info"
    for name in os.listdir(info):
        if name.endswith(".list"):
            with open(os.path.join(info, name), encoding="utf-8", errors="replace") as f:
                for line in f:
                    owners.setdefault(line.rstrip("\n"), name[:-5])
    return owners


@functools.lru_cache(maxsize=None)
def package_version(package):
    return run(["dpkg-query", "-W", "-f", "${Version}", package]).stdout.strip()


@functools.lru_cache(maxsize=None)
def swift_version(swiftc):
    return run([swiftc, "--version"]).stdout.split("\n")[0]


@functools.lru_cache(maxsize=None)
def debian_package(path):
    """(package, version, copyright file) of the Debian package that installed path, or None.
    With /usr merged, dpkg may know a file by its /lib path or by its /usr/lib one."""
    real = os.path.realpath(path)
    candidates = [path, real] + [p[4:] if p.startswith("/usr/") else "/usr" + p for p in (path, real)]
    for p in dict.fromkeys(candidates):
        arch_pkg = dpkg_files().get(p)
        if arch_pkg:
            pkg = arch_pkg.split(":")[0]
            version = package_version(arch_pkg)
            copyright_file = f"/usr/share/doc/{pkg}/copyright"
            if not os.path.exists(copyright_file):
                raise NoticeError(f"{path} is from {pkg}, which has no {copyright_file}")
            return pkg, version, copyright_file
    return None


def source_tree_notice(path):
    """For a library built from a source tree (scripts/text-libraries.sh): that tree's Debian
    copyright file, else its upstream licence file; with the tree's recorded origin."""
    d = os.path.dirname(os.path.realpath(path))
    while d != "/":
        if os.path.exists(os.path.join(d, ".splashhud-origin")) or os.path.isdir(os.path.join(d, "debian")):
            for name in ("debian/copyright", "LICENCE", "LICENSE", "COPYING"):
                if os.path.exists(os.path.join(d, name)):
                    origin = open(os.path.join(d, ".splashhud-origin")).read().strip() \
                        if os.path.exists(os.path.join(d, ".splashhud-origin")) else d
                    return f"built from source ({origin})", os.path.basename(d), os.path.join(d, name)
        d = os.path.dirname(d)
    return None


@functools.lru_cache(maxsize=None)
def swift_toolchain_notice(path):
    swiftc = shutil.which("swiftc") or ""
    root = os.path.dirname(os.path.dirname(os.path.realpath(swiftc))) if swiftc else ""
    real = os.path.realpath(path)
    for d in (root, os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(real))))):
        lic = os.path.join(d, "share", "swift", "LICENSE.txt")
        if d and real.startswith(d + "/") and os.path.exists(lic):
            version = swift_version(os.path.join(d, "bin", "swiftc"))
            if re.match(r"lib_FoundationICU\.", os.path.basename(path)):
                # The toolchain carries ICU (swift-foundation-icu) without its licence file: ICU's
                # licence is the one Debian's libicu package reproduces.
                icu = sorted(f for f in os.listdir("/usr/share/doc") if re.fullmatch(r"libicu[0-9]+", f))
                if not icu:
                    raise NoticeError(f"{path} is ICU: its licence is read from Debian's libicu package, which is not installed")
                return "Swift toolchain", version, [lic, f"/usr/share/doc/{icu[-1]}/copyright"]
            return "Swift toolchain", version, [lic]
    return None


@functools.lru_cache(maxsize=None)
def origin_of(path):
    """(package, version, [copyright files]) for a library file."""
    deb = debian_package(path)
    if deb:
        return deb[0], deb[1], [deb[2]]
    found = source_tree_notice(path)
    if found:
        return found[0], found[1], [found[2]]
    found = swift_toolchain_notice(path)
    if found:
        return found
    raise NoticeError(f"{path}: neither a Debian package, a source tree nor the Swift toolchain: no copyright text for it")


def needed_closure(binary):
    """The shared libraries the dynamic loader would load for binary: readelf -d NEEDED, recursively,
    found by RPATH/RUNPATH ($ORIGIN expanded), the loader's cache, then the default directories."""
    cache = {}
    for line in run(["ldconfig", "-p"]).stdout.splitlines()[1:]:
        m = re.match(r"\s*(\S+) \((.*)\) => (\S+)", line)
        if m and "x86-64" in m.group(2) or m and "AArch64" in m.group(2):
            cache.setdefault(m.group(1), m.group(3))
    found, queue = [], [binary]
    while queue:
        f = queue.pop(0)
        out = run(["readelf", "-dW", f]).stdout
        paths = []
        for m in re.finditer(r"\((?:RPATH|RUNPATH)\)\s+Library (?:rpath|runpath): \[(.*)\]", out):
            paths += [p.replace("$ORIGIN", os.path.dirname(os.path.realpath(f))) for p in m.group(1).split(":")]
        for name in re.findall(r"\(NEEDED\)\s+Shared library: \[(.*)\]", out):
            candidates = [os.path.join(p, name) for p in paths] + [cache.get(name, "")] + \
                [os.path.join(d, name) for d in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu", "/lib64", "/usr/lib")]
            path = next((c for c in candidates if c and os.path.exists(c)), None)
            if path is None:
                raise NoticeError(f"{f} needs {name}, which is nowhere the loader looks")
            if path not in found:
                found.append(path)
                queue.append(path)
    return found


def load_record(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def record_files(record):
    """Library files of a link record, and the SwiftPM dependencies its own objects came from."""
    scratch, root = record["scratch_path"], record["package_root"]
    files, packages = [], set()
    for i in record["inputs"]:
        f = i["file"]
        if f.startswith(scratch + "/") and "member" not in i:
            src = record["sources"].get(f)
            m = re.match(re.escape(scratch) + r"/checkouts/([^/]+)/", src or "")
            if m:
                packages.add(m.group(1))
            elif not src or not src.startswith(root + "/"):
                raise NoticeError(f"{f}: compiled from {src}, neither SplashHUD's source nor a SwiftPM dependency")
            continue
        if f.endswith(".so") or ".so." in f:
            continue  # a shared library named on the link line: readelf -d lists what is really loaded
        files.append(f)
    return sorted(set(files)), packages, scratch


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", action="append", default=[], help="a link record of one of the binaries")
    ap.add_argument("--kit-dir", default="/usr/lib/splashhud/relink", help="where the relink kit is installed")
    ap.add_argument("-o", "--output", help="write here instead of standard output")
    ap.add_argument("binaries", nargs="+")
    a = ap.parse_args()
    records = {}
    for r in map(load_record, a.record):
        records[os.path.basename(r["binary"])] = r

    libraries = {}  # name -> dict
    usage = {}      # binary -> [(library, how)]
    try:
        for binary in a.binaries:
            name = os.path.basename(binary)
            static_files, packages, scratch = [], set(), None
            if name in records:
                static_files, packages, scratch = record_files(records[name])
            elif "(NEEDED)" not in run(["readelf", "-dW", binary]).stdout or "Shared library" not in run(["readelf", "-dW", binary]).stdout:
                raise NoticeError(f"{binary} loads no shared library and has no link record: what it contains is unknown")
            else:
                print(f"third-party-notices: {binary}: no link record; only its shared libraries are listed "
                      "(the SwiftPM dependencies compiled into it are not)", file=sys.stderr)
            dynamic = needed_closure(binary)
            uses = []
            for files, how in ((static_files, "linked in"), (dynamic, "loaded")):
                for f in files:
                    lib, spdx, lgpl = library_of(f)
                    entry = libraries.setdefault(lib, {"spdx": spdx, "lgpl": lgpl, "origins": {}, "files": set(), "static_in": set()})
                    pkg, version, texts = origin_of(f)
                    entry["origins"].setdefault((pkg, version), texts)
                    entry["files"].add(os.path.basename(f))
                    # glibc's start files and libc_nonshared.a, which every program links, carry
                    # the LGPL's exception for them: only an archive makes a program need relinking.
                    if how == "linked in" and f.endswith(".a") and not f.endswith("libc_nonshared.a"):
                        entry["static_in"].add(name)
                    if (lib, how) not in uses:
                        uses.append((lib, how))
            for p in sorted(packages):
                if p not in SWIFT_PACKAGES:
                    raise NoticeError(f"{binary} contains the SwiftPM package {p}: add it to SWIFT_PACKAGES in {sys.argv[0]}")
                lib, spdx = SWIFT_PACKAGES[p]
                texts = [os.path.join(scratch, "checkouts", p, t) for t in ("LICENSE.txt", "LICENSE", "NOTICE.txt")
                         if os.path.exists(os.path.join(scratch, "checkouts", p, t))]
                if not texts:
                    raise NoticeError(f"the SwiftPM package {p} has no LICENSE.txt in its checkout")
                entry = libraries.setdefault(lib, {"spdx": spdx, "lgpl": False, "origins": {}, "files": set(), "static_in": set()})
                entry["origins"].setdefault((f"SwiftPM package {p}", "source compiled in"), texts)
                uses.append((lib, "compiled in"))
            usage[name] = uses
    except NoticeError as e:
        print(f"third-party-notices: {e}", file=sys.stderr)
        return 1

    out = open(a.output, "w", encoding="utf-8") if a.output else sys.stdout
    out.write("SplashHUD: third-party notices\n==============================\n\n")
    out.write("SplashHUD itself is under the MIT licence (LICENSE, beside this file). Its programs contain\n"
              "(\"linked in\", \"compiled in\") or load at run time (\"loaded\") the software below, under the\n"
              "licences named here and given in full after. This list was generated from the programs as\n"
              "they were built: the files their link used and the shared libraries they need.\n\n")
    for name, uses in usage.items():
        out.write(f"{name}:\n")
        for lib, how in uses:
            out.write(f"  - {lib} ({libraries[lib]['spdx']}), {how}\n")
        out.write("\n")
    lgpl_static = sorted(lib for lib, e in libraries.items() if e["lgpl"] and e["static_in"])
    if lgpl_static:
        progs = sorted(set().union(*(libraries[lib]["static_in"] for lib in lgpl_static)))
        out.write("Replacing the LGPL libraries (LGPL 2.1, section 6)\n"
                  "--------------------------------------------------\n")
        out.write(textwrap.fill(
            f"{', '.join(lgpl_static)} are linked statically into {', '.join(progs)}. So that you can link "
            "these programs again with a modified version of those libraries, the rest of each program is "
            f"installed as one relocatable object with a relink script in {a.kit_dir} (see its README there). "
            "The libraries' source is Debian's (apt-get source PACKAGE).", 96) + "\n\n")
    out.write("Fonts\n-----\n"
              "No font is installed with SplashHUD. The initramfs integration copies DejaVu Sans\n"
              "(/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf, Debian package fonts-dejavu-core) and the\n"
              "faces named by the board profile's font chain and SPLASHHUD_FONTS into the boot image from\n"
              "the system's own font packages; their notices are those packages' /usr/share/doc/PACKAGE/copyright.\n")
    dejavu = debian_package("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if dejavu:
        out.write(f"DejaVu Sans's is reproduced below ({dejavu[0]} {dejavu[1]}).\n")
    out.write("\n")

    needed_common = set()
    sections = sorted(libraries.items())
    if dejavu:
        sections.append(("DejaVu fonts", {"spdx": "Bitstream-Vera AND LicenseRef-Public-Domain", "lgpl": False,
                                           "origins": {(dejavu[0], dejavu[1]): [dejavu[2]]}, "files": {"DejaVuSans.ttf"}}))
    for lib, e in sections:
        title = f"{lib}"
        out.write("=" * 78 + f"\n{title}\n" + "=" * 78 + "\n")
        out.write(f"Licence: {e['spdx']}\nFiles: {', '.join(sorted(e['files'])) or 'compiled from its source'}\n")
        for (pkg, version), texts in sorted(e["origins"].items()):
            out.write(f"From: {pkg} {version}\n")
        for spdx_part, common in COMMON_LICENCES.items():
            if spdx_part in e["spdx"]:
                needed_common.add(common)
        seen = set()
        for (pkg, version), texts in sorted(e["origins"].items()):
            for t in texts:
                body = open(t, encoding="utf-8", errors="replace").read()
                if body in seen:
                    continue
                seen.add(body)
                out.write(f"\n--- {os.path.basename(os.path.dirname(t)) if t.endswith('copyright') else os.path.basename(t)} ---\n")
                out.write(body.rstrip("\n") + "\n")
        out.write("\n")
    for common in sorted(needed_common):
        path = f"/usr/share/common-licenses/{common}"
        out.write("=" * 78 + f"\nThe licence text {path}\n" + "=" * 78 + "\n")
        out.write(open(path, encoding="utf-8").read().rstrip("\n") + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
