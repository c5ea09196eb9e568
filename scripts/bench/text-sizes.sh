#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# What text costs in bytes (issue 24, part 6):
#  1. the fully static daemon, as `scripts/install.sh --static-stdlib` builds it, at HEAD and at
#     BEFORE (default 9af663e, the parent of the first text commit, built from a worktree in
#     .build/sizes-before): file, stripped, text/data/bss, stripped and compressed;
#  2. what an Arabic, a Devanagari and a CJK status add to an initramfs: the faces they need (the
#     CJK one subset to the status with hb-subset), against the libraries Plymouth's Pango label
#     plugin (label.so) pulls in beyond what Plymouth's core and udev already put there.
# Compressed sizes are each file alone through zstd -9, which mkinitramfs runs on Debian 12
# (COMPRESS=zstd, no COMPRESSLEVEL), and zstd -19 beside it.
#
#   scripts/bench/text-sizes.sh [--before COMMIT] [--no-daemon] [--no-build]
#
# Needs fonts-noto-core, fonts-noto-cjk, libharfbuzz-bin (hb-subset), zstd, plymouth and
# plymouth-label (scripts/setup.sh --tests --bench) and, for the daemon, what the static build needs.
set -euo pipefail
cd "$(dirname "$0")/../.."
before=9af663e daemon=1 build=1
while (($#)); do
    case $1 in
        --before) before=$2; shift 2 ;;
        --no-daemon) daemon=0; shift ;;
        --no-build) build=0; shift ;;
        *) echo "usage: $0 [--before COMMIT] [--no-daemon] [--no-build]" >&2; exit 64 ;;
    esac
done
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
z9() { zstd -q -9 -c "$1" | wc -c; }
z19() { zstd -q -19 -c "$1" | wc -c; }
n() { printf "%'d" "$1"; }
declare -A v  # the daemons' sizes: v[before|after,column]

# static_daemon DIR: builds DIR's daemon fully static, as install.sh --static-stdlib does, and prints its path.
static_daemon() {
    local flags=(-c release -Xswiftc -enforce-exclusivity=unchecked -Xswiftc -static-executable
                 --scratch-path .build-static-executable)
    (
        cd "$1"
        if ((build)); then
            PKG_CONFIG_PATH="$(scripts/static-pkg-config.sh .build-static/pkgconfig)${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}" \
                nice -n 19 swift build "${flags[@]}" -Xlinker --no-export-dynamic --product splashhudd >&2
        fi
        echo "$(swift build "${flags[@]}" --show-bin-path)/splashhudd"
    )
}

if ((daemon)); then
    old="$PWD/.build/sizes-before"
    if [[ ! -d $old ]] || [[ $(git -C "$old" rev-parse HEAD) != $(git rev-parse "$before^{commit}") ]]; then
        [[ -d $old ]] && git worktree remove --force "$old"
        git worktree add --detach "$old" "$before" >&2
    fi
    # The same package versions on both sides.
    [[ -f Package.resolved ]] && cp Package.resolved "$old/"
    declare -A bin=([after]="$(static_daemon "$PWD")" [before]="$(static_daemon "$old")")
    echo "Static daemon (release, -static-executable, --no-export-dynamic, $(swift --version 2>&1 | head -1 | sed 's/ (.*//')), bytes"
    columns=(file stripped text data bss z9)
    printf '  %-34s %12s %12s %12s %12s %12s %12s\n' "" file stripped text data bss "zstd -9"
    for side in before after; do
        strip -o "$work/$side" "${bin[$side]}"
        read -r v[$side,text] v[$side,data] v[$side,bss] _ < <(size "${bin[$side]}" | tail -1)
        v[$side,file]=$(stat -c %s "${bin[$side]}") v[$side,stripped]=$(stat -c %s "$work/$side")
        v[$side,z9]=$(z9 "$work/$side") v[$side,z19]=$(z19 "$work/$side")
        label="$([[ $side == before ]] && echo "before text ($(git rev-parse --short "$before"))" || echo "with text ($(git rev-parse --short HEAD))")"
        printf '  %-34s' "$label"
        for c in "${columns[@]}"; do printf ' %12s' "$(n "${v[$side,$c]}")"; done
        echo
    done
    printf '  %-34s' difference
    for c in "${columns[@]}"; do printf ' %12s' "$(printf '%+d' $((v[after,$c] - v[before,$c])))"; done
    printf '\n\n'
fi

# The statuses, each in the face the default chain draws it with.
noto=/usr/share/fonts/truetype/noto cjk=/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc
arabic="جارٍ تحديث النظام" devanagari="सिस्टम अपडेट हो रहा है" chinese="正在更新系统，请勿关闭电源"
for f in "$noto/NotoSansArabic-Regular.ttf" "$noto/NotoSansDevanagari-Regular.ttf" "$cjk"; do
    [[ -f $f ]] || { echo "text-sizes.sh: $f is missing (fonts-noto-core, fonts-noto-cjk)" >&2; exit 66; }
done
# The chain's CJK face is the collection's first (Noto Sans CJK JP), which has every Han character of the status.
hb-subset --font-file="$cjk" --face-index=0 --text="$chinese" -o "$work/NotoSansCJK-subset.otf"

echo "What three statuses add to a compressed initramfs, bytes (each file alone)"
echo "  (Arabic \"$arabic\", Devanagari \"$devanagari\", Chinese \"$chinese\")"
printf '  %-52s %10s %10s %10s\n' "" file "zstd -9" "zstd -19"
ours9=0 ours19=0
row() { printf '  %-52s %10s %10s %10s\n' "$1" "$(n "$(stat -L -c %s "$2")")" "$(n "$(z9 "$2")")" "$(n "$(z19 "$2")")"; }
for entry in "Arabic|$noto/NotoSansArabic-Regular.ttf" "Devanagari|$noto/NotoSansDevanagari-Regular.ttf" \
             "Chinese, subset to the status|$work/NotoSansCJK-subset.otf"; do
    row "${entry%%|*}: $(basename "${entry#*|}")" "${entry#*|}"
    ours9=$((ours9 + $(z9 "${entry#*|}"))) ours19=$((ours19 + $(z19 "${entry#*|}")))
done
printf '  %-52s %10s %10s %10s\n' "SplashHUD: the three faces" "" "$(n $ours9)" "$(n $ours19)"
if ((daemon)); then
    printf '  %-52s %10s %10s %10s\n' "  + the daemon's text code (stripped, above)" "" "+$(n $((v[after,z9] - v[before,z9])))" "+$(n $((v[after,z19] - v[before,z19])))"
fi

# Plymouth's Pango stack: label.so and its libraries, less those Plymouth's core (plymouthd, the
# client, the spinner's two-step.so, the renderers) and udev (Debian's initramfs has both) load anyway.
lib=/usr/lib/x86_64-linux-gnu
label="$lib/plymouth/label.so"
[[ -f $label ]] || { echo "text-sizes.sh: $label is missing (plymouth-label)" >&2; exit 66; }
closure() { ldd "$@" | awk '/=>/ { print $3 }' | xargs -n1 readlink -f | sort -u; }
closure /usr/sbin/plymouthd /usr/bin/plymouth "$lib"/plymouth/two-step.so "$lib"/plymouth/renderers/*.so \
    /bin/udevadm /lib/systemd/systemd-udevd > "$work/base"
{ readlink -f "$label"; closure "$label"; } | sort -u | comm -23 - "$work/base" > "$work/pango"
pango9=0 pango19=0
while read -r f; do
    pango9=$((pango9 + $(z9 "$f"))) pango19=$((pango19 + $(z19 "$f")))
    printf '    %-50s %10s %10s %10s\n' "$(basename "$f")" "$(n "$(stat -c %s "$f")")" "$(n "$(z9 "$f")")" "$(n "$(z19 "$f")")"
done < "$work/pango" > "$work/pango-rows"
printf '  %-52s %10s %10s %10s\n' "Plymouth's Pango label: label.so and $(($(wc -l < "$work/pango") - 1)) libraries" "" "$(n $pango9)" "$(n $pango19)"
cat "$work/pango-rows"
awk -v a="$ours9" -v b="$pango9" -v c="${v[after,z9]:-0}" -v d="${v[before,z9]:-0}" -v daemon="$daemon" 'BEGIN {
    printf "\n  SplashHUD/Pango (zstd -9): the faces %.3f", a / b
    if (daemon) printf "; the faces and the daemon'"'"'s text code %.3f", (a + c - d) / b
    printf "; target <= 0.1: %s\n", (daemon ? a + c - d : a) / b <= 0.1 ? "met" : "NOT met"
    printf "  (Pango needs the same faces besides, and fontconfig'"'"'s configuration; neither is counted on its side.)\n"
}'
