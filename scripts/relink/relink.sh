#!/bin/sh
# SPDX-License-Identifier: MIT
# Links a SplashHUD program again from its relink kit, against the static libraries the compiler
# finds: Debian's by default (libc6-dev, libfribidi-dev, libthai-dev, libdatrie-dev, gcc; libqrencode.a,
# which Debian does not ship, from the kit's lib/), or your modified ones first from each -L DIR.
# See README beside this script.
#
#   relink.sh [-L DIR]... PROGRAM OUTPUT      (PROGRAM: splashhudd or splashhud)
#
# CC names the compiler driver (default cc); extra linker options may follow in LDFLAGS.
set -eu
kit="$(dirname "$0")"
dirs=""
while [ $# -gt 0 ]; do
    case "$1" in
        -L) dirs="$dirs -L${2:?-L needs a directory}"; shift 2 ;;
        -L*) dirs="$dirs $1"; shift ;;
        -h|--help) sed -n '3,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || { echo "usage: relink.sh [-L DIR]... PROGRAM OUTPUT" >&2; exit 64; }
program="$1" output="$2"
if [ ! -f "$kit/$program.o.xz" ] || [ ! -f "$kit/$program.args" ]; then
    echo "relink.sh: no kit for '$program' in $kit" >&2
    exit 66
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
xz -dc "$kit/$program.o.xz" > "$tmp/$program.o"
# The LGPL archives Debian does not ship (libqrencode.a), as built for the kit: after yours.
[ -d "$kit/lib" ] && dirs="$dirs -L$kit/lib"
# The arguments file has one word per line and no spaces in any.
# shellcheck disable=SC2046,SC2086
"${CC:-cc}" -o "$output" "$tmp/$program.o" $dirs $(cat "$kit/$program.args") ${LDFLAGS:-}
