#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Makes the relink kit of a fully static program from its link record (record-link.py).

    make-kit.py --out DIR RECORD.json...

For each record: DIR/PRODUCT.o.xz, everything the link used except the LGPL libraries (glibc, FriBidi,
libthai, libdatrie, libqrencode) and the compiler's own start files and libgcc, as one relocatable object
(ld -r of our objects and of the very archive members the link took, debug information dropped,
compressed with xz);
and DIR/PRODUCT.args, the arguments that link it again (the linker options the program needs and
the LGPL archives, in the original order). DIR/relink.sh and DIR/README come from this directory.
An LGPL archive no Debian package installs (libqrencode.a, which scripts/qrencode-library.sh
builds: Debian ships the library only shared) is copied into DIR/lib, which relink.sh searches
after the user's directories and before the system's.
So anyone can link the program again against modified versions of those libraries, as LGPL 2.1
section 6 asks of a program linked statically with them.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
notices = __import__("third-party-notices")

# What the relink takes from the system (or from the user's directories) instead of the kit: the
# LGPL libraries, and the compiler's start files and libgcc, which its driver adds itself.
GCC_DRIVER_FILES = r"crt(begin|end)[ST]?\.o|libgcc(_eh)?\.a"


def outside_kit(path):
    base = os.path.basename(path)
    return notices.library_of(path)[2] or re.fullmatch(GCC_DRIVER_FILES, base) is not None


def soname(path):
    out = subprocess.run(["readelf", "-dW", path], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"\(SONAME\)\s+Library soname: \[(.*)\]", out)
    return m.group(1) if m else os.path.basename(path)


def relink_arguments(record, lgpl_archives):
    """How the compiler driver links the kit again: -static or -pie as the program was, the linker
    options it needs (entry symbol, forced undefined symbols, -z), the LGPL archives where the
    original command had them, and the shared libraries it loaded (a program built with
    --static-swift-stdlib loads glibc's and a few others); the driver adds its start files."""
    ld = record["linker"]
    args = ["-static"] if record["static_executable"] else (["-pie"] if "-pie" in ld else ["-no-pie"])
    named = {os.path.basename(a): a for a in lgpl_archives}
    i = 0
    while i < len(ld):
        a = ld[i]
        if a == "--defsym" and i + 1 < len(ld):
            args.append(f"-Wl,--defsym,{ld[i + 1]}")
            i += 1
        elif a.startswith("-undefined=") or a.startswith("--undefined="):
            args.append(f"-Wl,{a}")
        elif a == "-z" and i + 1 < len(ld):
            args.append(f"-Wl,-z,{ld[i + 1]}")
            i += 1
        elif a in ("--gc-sections", "--build-id", "--no-export-dynamic"):
            args.append(f"-Wl,{a}")
        elif a.startswith("-l"):
            name = a[3:] if a.startswith("-l:") else f"lib{a[2:]}.a"
            if name in named and f"-l:{name}" not in args:
                args.append(f"-l:{name}")
        i += 1
    for i in record["inputs"]:
        f = i["file"]
        if "member" not in i and (f.endswith(".so") or ".so." in f) and not notices.library_of(f)[0].startswith("GNU C Library"):
            if f"-l:{soname(f)}" not in args:
                args.append(f"-l:{soname(f)}")
    # glibc's other archives after the LGPL libraries that call them; the driver adds -lc.
    return args + ["-lm", "-lpthread", "-ldl"]


def needs_kit(record):
    """Whether the program has an LGPL archive linked in (glibc's start files aside)."""
    return any(notices.library_of(i["file"])[2] for i in record["inputs"]
               if "member" in i and not i["file"].endswith("libc_nonshared.a"))


def make_kit(record, out):
    product = record["product"]
    kit_objects, lgpl_archives, members = [], [], {}
    for i in record["inputs"]:
        f = i["file"]
        if f.endswith(".so") or ".so." in f:
            continue  # loaded, not linked in: relink_arguments names it
        if f.startswith(record["scratch_path"] + "/") and "member" not in i:
            kit_objects.append(("file", f))
        elif outside_kit(f):
            # glibc's archives come from the compiler driver (-lc) and the -lm -lpthread -ldl below.
            lib, _, lgpl = notices.library_of(f)
            if lgpl and f.endswith(".a") and not lib.startswith("GNU C Library") and f not in lgpl_archives:
                lgpl_archives.append(f)
        elif "member" in i:
            members.setdefault(f, []).append(i["member"])
            kit_objects.append(("member", f, i["member"]))
        else:
            kit_objects.append(("file", f))  # swiftrt.o
    with tempfile.TemporaryDirectory(prefix="make-kit-") as tmp:
        paths, taken = [], {}
        for k in kit_objects:
            if k[0] == "file":
                paths.append(k[1])
                continue
            # An archive may hold two members of one name (libswiftCore.a has two Errors.cpp.o): the
            # trace names the member once for each taken, and ar's N picks the Nth.
            _, archive, member = k
            n = taken[(archive, member)] = taken.get((archive, member), 0) + 1
            if n == 1:
                listed = subprocess.run(["ar", "t", archive], check=True, stdout=subprocess.PIPE, text=True).stdout.split()
                if listed.count(member) > members[archive].count(member):
                    raise SystemExit(f"make-kit: {archive} holds {listed.count(member)} members called {member} "
                                     f"and the link took {members[archive].count(member)}: which is unknown")
            d = os.path.join(tmp, str(len(paths)))
            os.mkdir(d)
            subprocess.run(["ar", "xN", str(n), f"--output={d}", archive, member], check=True)
            paths.append(os.path.join(d, member))
        listing = os.path.join(tmp, "objects")
        with open(listing, "w") as f:
            f.write("\n".join(paths) + "\n")
        obj = os.path.join(out, f"{product}.o")
        # -S: no debug information (the installed programs are stripped too). xz -1 makes it a
        # sixth (the daemon's release kit 27.8 MB to 4.7 MB) in a few seconds; xz is in every Debian.
        subprocess.run(["ld", "-r", "-S", "-o", obj, f"@{listing}"], check=True)
        subprocess.run(["xz", "-1", "-T0", "-f", obj], check=True)
        obj += ".xz"
    with open(os.path.join(out, f"{product}.args"), "w") as f:
        f.write("\n".join(relink_arguments(record, lgpl_archives)) + "\n")
    for archive in lgpl_archives:
        if notices.debian_package(archive) is None:
            os.makedirs(os.path.join(out, "lib"), exist_ok=True)
            shutil.copy(archive, os.path.join(out, "lib", os.path.basename(archive)))
    return obj


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("records", nargs="+")
    a = ap.parse_args()
    made = 0
    for path in a.records:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        if not needs_kit(record):
            print(f"make-kit: {record['product']} has no LGPL archive linked in: no kit", file=sys.stderr)
            continue
        os.makedirs(a.out, exist_ok=True)
        obj = make_kit(record, a.out)
        made += 1
        print(f"make-kit: {obj}: {os.path.getsize(obj)} bytes", file=sys.stderr)
    if not made:
        return
    shutil.copy(os.path.join(HERE, "relink.sh"), os.path.join(a.out, "relink.sh"))
    os.chmod(os.path.join(a.out, "relink.sh"), 0o755)
    shutil.copy(os.path.join(HERE, "README"), os.path.join(a.out, "README"))


if __name__ == "__main__":
    main()
