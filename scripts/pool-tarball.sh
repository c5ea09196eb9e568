# SPDX-License-Identifier: MIT
# shellcheck shell=bash
# Sourced by scripts/text-libraries.sh and scripts/qrencode-library.sh (which define `die`): an
# upstream tarball from Debian's pool, its checksum pinned, unpacked once into a cache directory.
#
#   pool_tarball DEST URL SHA256 OVERRIDE-VARIABLE
#
# Unpacks URL's tarball (gz, bz2 or xz) into DEST unless DEST exists, after checking its SHA-256; or
# copies the unpacked tree the variable named OVERRIDE-VARIABLE gives (builds without network).
# Writes DEST/.splashhud-origin, which scripts/third-party-notices.py names as the tree's origin.
pool_tarball() {
    local dest=$1 url=$2 sha256=$3 var=$4
    [[ -d $dest ]] && return
    rm -rf "$dest.tmp" && mkdir "$dest.tmp"
    if [[ -n ${!var:-} ]]; then
        cp -r "${!var}" "$dest.tmp/given"
    else
        curl -fsSL -o "$dest.tmp/orig.tar" "$url" || die "cannot download $url (network?). Set $var to an unpacked source tree of it."
        echo "$sha256  $dest.tmp/orig.tar" | sha256sum -c --quiet - || die "$url does not have the pinned checksum"
        tar -xaf "$dest.tmp/orig.tar" -C "$dest.tmp" 2>/dev/null || tar -xf "$dest.tmp/orig.tar" -C "$dest.tmp"
        rm "$dest.tmp/orig.tar"
    fi
    mv "$dest.tmp"/*/ "$dest" && rm -rf "$dest.tmp"
    echo "${!var:-$(basename "$url") from the Debian pool}" > "$dest/.splashhud-origin"
}
