#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Records what a SwiftPM product's link really used, for the third-party notices and the relink kit.

    record-link.py --scratch-path DIR [-c debug|release] --product NAME [-o RECORD.json]

Runs the product's link again, exactly as SwiftPM's build manifest (DIR/CONFIG.yaml) has it, into a
temporary file, with the linker's --trace (every object file and archive member it took) and the
compiler drivers' -v (the linker's own command line). Writes a JSON record: the binary, the linker
command, the inputs it used, the package each of our objects was compiled from, and whether the
repeated link gave the very bytes of the binary SwiftPM built (it should: same inputs, same flags).
Run it right after `swift build` of the product: the manifest holds the last build's flags.
"""
import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

def manifest_commands(path):
    """The manifest's commands: name -> {inputs, outputs, args} (each a JSON list on one line)."""
    commands, name = {}, None
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = re.match(r'^  "(.+)":$', line.rstrip("\n"))
            if m:
                name = m.group(1)
                commands[name] = {}
                continue
            m = re.match(r"^    (inputs|outputs|args): (\[.*\])$", line.rstrip("\n"))
            if m and name:
                commands[name][m.group(1)] = json.loads(m.group(2))
    return commands


def link_command(commands, product, config):
    for name, c in commands.items():
        if re.fullmatch(rf"C\.{re.escape(product)}-[a-z0-9_]+-[a-z]+-linux-[a-z]+-{config}\.exe", name) and "args" in c:
            return c
    print(f"record-link: no link command for {product} ({config}) in the manifest: build it first", file=sys.stderr)
    sys.exit(3)


def parse_trace(text):
    """lld's and BFD ld's --trace lines: FILE, or ARCHIVE(MEMBER) (BFD: (ARCHIVE)MEMBER)."""
    inputs = []
    for line in text.splitlines():
        line = line.strip()
        m = re.fullmatch(r"(/\S+\.a)\((.+)\)", line) or re.fullmatch(r"\((/\S+\.a)\)(.+)", line)
        if m:
            inputs.append({"file": os.path.realpath(m.group(1)), "member": m.group(2)})
        elif re.fullmatch(r"/\S+\.(o|so(\.[0-9.]+)?|lo)", line):
            inputs.append({"file": os.path.realpath(line)})
    return inputs


def linker_command(text):
    """The last command line clang's -v printed that runs a linker (ld, ld.lld, ld.gold)."""
    found = None
    for line in text.splitlines():
        if line.startswith(' "') or line.startswith('"'):
            argv = shlex.split(line)
            if argv and re.search(r"(^|/)(ld(\.lld|\.gold|\.bfd)?|lld)$", argv[0]):
                found = argv
    return found


def object_sources(commands, objects):
    """For each of our object files, the first source file that the command producing it reads."""
    producer = {}
    for c in commands.values():
        for out in c.get("outputs", []):
            producer.setdefault(out, c)
    sources = {}
    for o in objects:
        c = producer.get(o)
        srcs = [i for i in (c or {}).get("inputs", []) if re.search(r"\.(swift|c|cc|cpp|m|s|S)$", i)]
        sources[o] = srcs[0] if srcs else None
    # A module's wrapped .swiftmodule (MODULE.build/MODULE.swiftmodule.o) is made from no source:
    # it belongs where the module's other objects come from.
    by_dir = {os.path.dirname(o): s for o, s in sources.items() if s}
    return {o: s or by_dir.get(os.path.dirname(o)) for o, s in sources.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scratch-path", required=True)
    ap.add_argument("-c", "--configuration", default="debug", choices=["debug", "release"])
    ap.add_argument("--product", required=True)
    ap.add_argument("-o", "--output")
    a = ap.parse_args()
    scratch = os.path.realpath(a.scratch_path)
    manifest = os.path.join(scratch, f"{a.configuration}.yaml")
    if not os.path.exists(manifest):
        # Exit 3: the binary is not from a SwiftPM build here (install.sh --bin-dir tells it apart).
        print(f"record-link: no build manifest {manifest}", file=sys.stderr)
        sys.exit(3)
    commands = manifest_commands(manifest)
    link = link_command(commands, a.product, a.configuration)
    args = list(link["args"])
    binary = link["outputs"][0]
    i = args.index("-o")
    with tempfile.TemporaryDirectory(prefix="record-link-") as tmp:
        out = os.path.join(tmp, a.product)
        args[i + 1] = out
        # -v twice: swiftc prints clang's command, clang (through -Xclang-linker) the linker's.
        run = subprocess.run(args + ["-v", "-Xclang-linker", "-v", "-Xlinker", "--trace"],
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if run.returncode != 0:
            sys.stderr.write(run.stdout)
            raise SystemExit(f"record-link: the repeated link of {a.product} failed")
        with open(out, "rb") as f1, open(binary, "rb") as f2:
            identical = f1.read() == f2.read()
    ld = linker_command(run.stdout)
    if ld is None:
        raise SystemExit("record-link: clang -v printed no linker command")
    # The linker's argv names our output: put the binary's own path back.
    ld = [binary if x == out else x for x in ld]
    inputs = parse_trace(run.stdout)
    if not inputs:
        raise SystemExit("record-link: the linker's --trace listed no input")
    ours = [x["file"] for x in inputs if "member" not in x and x["file"].startswith(scratch + "/")]
    record = {
        "product": a.product,
        "binary": binary,
        "scratch_path": scratch,
        "package_root": os.path.dirname(scratch),
        "static_executable": "-static-executable" in args,
        "identical": identical,
        "swiftc": link["args"],
        "linker": ld,
        "inputs": inputs,
        "sources": object_sources(commands, ours),
    }
    text = json.dumps(record, indent=1) + "\n"
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    if not identical:
        print(f"record-link: note: the repeated link of {a.product} differs from {binary} (rebuilt since?)", file=sys.stderr)


if __name__ == "__main__":
    main()
