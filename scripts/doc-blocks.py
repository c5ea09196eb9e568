#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The shell blocks the docs mark for a run, as scripts: what DocsEndToEndTests runs in a guest.

    scripts/doc-blocks.py list [FILE ...]
    scripts/doc-blocks.py extract PHASE OUTDIR [FILE ...]

A block is marked by an HTML comment on the line right before its fence (invisible on GitHub):

    <!-- run: PHASE -->
    ```sh
    ...
    ```

PHASE says when the test runs it: `install` (a fresh Debian 12 with Plymouth, in the tree),
`check` (after the reboot, the splash up), `uninstall` (after the checks). FILEs default to
README.md and docs/install.md, read in that order; within a phase the blocks run in that order,
and a block whose text is that of an earlier one (the README repeats install.md's) runs once.
`list` prints PHASE FILE:LINE and the block's first line; `extract` writes OUTDIR/NN.sh, each
the block verbatim after a comment naming where it came from, and prints their names. A marker
not followed by a sh fence, an unknown phase or an unclosed fence is an error (exit 1).
Python 3 standard library only.
"""
import os
import re
import sys

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FILES = ["README.md", "docs/install.md"]
PHASES = ("install", "check", "uninstall")
MARKER = re.compile(r"^<!-- run: ([a-z-]+) -->\s*$")


def blocks(files):
    """(phase, file, line of the fence, body) for every marked block, in file order."""
    out = []
    for name in files:
        with open(os.path.join(REPO, name), encoding="utf-8") as f:
            lines = f.read().split("\n")
        i = 0
        while i < len(lines):
            m = MARKER.match(lines[i])
            if not m:
                i += 1
                continue
            phase = m.group(1)
            if phase not in PHASES:
                raise SystemExit(f"doc-blocks: {name}:{i + 1}: unknown phase '{phase}' (have: {', '.join(PHASES)})")
            if i + 1 >= len(lines) or lines[i + 1].strip() not in ("```sh", "```bash", "```shell"):
                raise SystemExit(f"doc-blocks: {name}:{i + 1}: the marker is not followed by a sh fence")
            end = i + 2
            while end < len(lines) and lines[end].strip() != "```":
                end += 1
            if end >= len(lines):
                raise SystemExit(f"doc-blocks: {name}:{i + 2}: the fence is not closed")
            out.append((phase, name, i + 2, "\n".join(lines[i + 2:end]) + "\n"))
            i = end + 1
    return out


def main(argv):
    if len(argv) >= 1 and argv[0] == "list":
        for phase, name, line, body in blocks(argv[1:] or FILES):
            print(f"{phase} {name}:{line} {body.splitlines()[0] if body.strip() else '(empty)'}")
        return 0
    if len(argv) >= 3 and argv[0] == "extract":
        phase, outdir = argv[1], argv[2]
        if phase not in PHASES:
            raise SystemExit(f"doc-blocks: unknown phase '{phase}' (have: {', '.join(PHASES)})")
        os.makedirs(outdir, exist_ok=True)
        seen, n = set(), 0
        for p, name, line, body in blocks(argv[3:] or FILES):
            if p != phase or body in seen:
                continue
            seen.add(body)
            n += 1
            path = os.path.join(outdir, f"{n:02d}.sh")
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"# {name}:{line}\n{body}")
            print(f"{os.path.basename(path)} {name}:{line}")
        return 0
    sys.stderr.write(__doc__.split("\n\n")[1] + "\n")
    return 64


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
