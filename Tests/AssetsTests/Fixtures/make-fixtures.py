#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the PNG fixtures for AssetsTests (run from anywhere; outputs land beside this script).

Every good fixture is 13x11 (odd sizes: partial bytes at low bit depths, and every Adam7 pass is
non-empty) and its samples follow one formula, which PNGFixtureTests.swift recomputes:

    sample(x, y, c, depth) = (x*9973 + y*7919 + c*30011 + x*y*131) & (2**depth - 1)

c is the channel (0 R or gray or palette index, 1 G, 2 B, 3 alpha; gray+alpha uses c=3 for alpha).
Palette entry i is RGB ((i*53+7)&255, (i*97+11)&255, (i*151+13)&255); with tRNS, entries below
half the palette size have alpha (i*71+5)&255 and the rest are opaque. Palette images use index
sample(x, y, 0, depth) % entries. Rows use filter type (row % 5) so every unfilter path runs.

The script writes PNGs itself (zlib for deflate) so bit depths, colour types, filters and
interlacing are exactly what the name says, then, if ImageMagick's `convert` exists, checks each
good fixture against the formula with that independent decoder.
"""
import os
import shutil
import struct
import subprocess
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
W, H = 13, 11
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}  # colour type -> samples per pixel


def sample(x, y, c, depth):
    return (x * 9973 + y * 7919 + c * 30011 + x * y * 131) & ((1 << depth) - 1)


def palette(entries):
    return [((i * 53 + 7) & 255, (i * 97 + 11) & 255, (i * 151 + 13) & 255) for i in range(entries)]


def palette_alpha(entries):
    return [(i * 71 + 5) & 255 for i in range(entries // 2)]


def chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pixel_samples(x, y, color_type, depth, entries):
    if color_type == 3:
        return [sample(x, y, 0, depth) % entries]
    if color_type == 4:
        return [sample(x, y, 0, depth), sample(x, y, 3, depth)]
    return [sample(x, y, c, depth) for c in range(CHANNELS[color_type])]


def pack_row(values, depth):
    """Packs samples MSB first (depth < 8) or big-endian (depth 8/16)."""
    if depth == 16:
        return b"".join(struct.pack(">H", v) for v in values)
    if depth == 8:
        return bytes(values)
    out, acc, bits = bytearray(), 0, 0
    for v in values:
        acc = (acc << depth) | v
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_rows(rows, bpp):
    out, prev = bytearray(), bytes(len(rows[0])) if rows else b""
    for n, row in enumerate(rows):
        kind = n % 5
        f = bytearray()
        for i, v in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            f.append((v - predictor) & 255)
        out += bytes([kind]) + f
        prev = row
    return bytes(out)


def image_data(color_type, depth, interlaced, entries):
    bpp = max(1, CHANNELS[color_type] * depth // 8)
    passes = ADAM7 if interlaced else [(0, 0, 1, 1)]
    raw = b""
    for x0, y0, dx, dy in passes:
        xs, ys = range(x0, W, dx), range(y0, H, dy)
        if not xs or not ys:
            continue
        rows = [pack_row([s for x in xs for s in pixel_samples(x, y, color_type, depth, entries)], depth) for y in ys]
        raw += filter_rows(rows, bpp)
    return zlib.compress(raw, 9)


def png(color_type, depth, interlaced=False, trns=None, entries=0, extra=b""):
    out = b"\x89PNG\r\n\x1a\n"
    out += chunk(b"IHDR", struct.pack(">IIBBBBB", W, H, depth, color_type, 0, 0, 1 if interlaced else 0))
    out += extra
    if color_type == 3:
        out += chunk(b"PLTE", b"".join(bytes(rgb) for rgb in palette(entries)))
    if trns is not None:
        out += chunk(b"tRNS", trns)
    out += chunk(b"IDAT", image_data(color_type, depth, interlaced, entries))
    return out + chunk(b"IEND", b"")


def good_fixtures():
    f = {}
    for d in (1, 2, 4, 8, 16):
        f[f"gray{d}"] = png(0, d)
    f["gray8-trns"] = png(0, 8, trns=struct.pack(">H", sample(5, 2, 0, 8)))
    f["graya8"] = png(4, 8)
    f["graya16"] = png(4, 16)
    f["rgb8"] = png(2, 8)
    f["rgb16"] = png(2, 16)
    f["rgb8-trns"] = png(2, 8, trns=struct.pack(">HHH", *[sample(3, 4, c, 8) for c in range(3)]))
    f["rgba8"] = png(6, 8)
    f["rgba16"] = png(6, 16)
    f["palette1"] = png(3, 1, entries=2)
    f["palette2"] = png(3, 2, entries=4)
    f["palette4-trns"] = png(3, 4, entries=16, trns=bytes(palette_alpha(16)))
    f["palette8-trns"] = png(3, 8, entries=200, trns=bytes(palette_alpha(200)))
    f["gray1-adam7"] = png(0, 1, interlaced=True)
    f["graya8-adam7"] = png(4, 8, interlaced=True)
    f["palette4-trns-adam7"] = png(3, 4, interlaced=True, entries=16, trns=bytes(palette_alpha(16)))
    f["rgba8-adam7"] = png(6, 8, interlaced=True)
    f["rgba16-adam7"] = png(6, 16, interlaced=True)
    return f


def bad_fixtures(rgba8):
    f = {}
    f["truncated"] = rgba8[: len(rgba8) // 2]  # cut inside IDAT
    idat = rgba8.index(b"IDAT")
    length = struct.unpack(">I", rgba8[idat - 4: idat])[0]
    crc_at = idat + 4 + length
    bad = bytearray(rgba8)
    bad[crc_at] ^= 0xFF
    f["bad-crc"] = bytes(bad)
    # A valid chunk whose zlib stream is garbage: the CRC is right, inflate fails.
    garbage = bytes((i * 89 + 17) & 255 for i in range(64))
    f["bad-zlib"] = rgba8[: idat - 4] + chunk(b"IDAT", b"\x78\x9c" + garbage) + chunk(b"IEND", b"")
    f["not-png"] = b"GIF89a: this is not a PNG file, just some text.\n"
    # Headers that ask for far too much memory, in tiny files.
    tiny_idat = chunk(b"IDAT", zlib.compress(b"\x00" * 8))
    for name, (w, h) in {"enormous": (100000, 100000), "over-budget": (8000, 8000)}.items():
        f[name] = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)) + tiny_idat + chunk(b"IEND", b"")
    # 2 MiB of text deflated to a few KiB: over the default 1 MiB per-chunk limit.
    ztxt = chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"A" * (2 << 20), 9))
    f["huge-ztxt"] = png(6, 8, extra=ztxt)
    return f


def check_with_imagemagick(name, data):
    """Compares ImageMagick's 16-bit RGBA decode with the formula (an independent decoder)."""
    color_type, depth = data[25], data[24]
    entries = {"palette1": 2, "palette2": 4, "palette4-trns": 16, "palette8-trns": 200, "palette4-trns-adam7": 16}.get(name, 0)
    path = os.path.join(HERE, name + ".png")
    out = subprocess.run(["convert", path, "-depth", "16", "-endian", "MSB", "rgba:-"], check=True, capture_output=True).stdout
    trns = name.endswith("-trns") or "-trns-" in name
    for y in range(H):
        for x in range(W):
            got = struct.unpack(">HHHH", out[(y * W + x) * 8: (y * W + x) * 8 + 8])
            want = expected16(x, y, color_type, depth, entries, trns)
            assert got == want, f"{name} ({x},{y}): ImageMagick {got}, formula {want}"


def widen(v, depth):
    return v * 65535 // ((1 << depth) - 1)


def expected16(x, y, color_type, depth, entries, trns):
    if color_type == 3:
        i = sample(x, y, 0, depth) % entries
        alphas = palette_alpha(entries) if trns else []
        return tuple(c * 257 for c in palette(entries)[i]) + ((alphas[i] if i < len(alphas) else 255) * 257,)
    s = [widen(v, depth) for v in pixel_samples(x, y, color_type, depth, entries)]
    if color_type == 0:
        a = 0 if trns and sample(x, y, 0, depth) == sample(5, 2, 0, depth) else 65535
        return (s[0], s[0], s[0], a)
    if color_type == 4:
        return (s[0], s[0], s[0], s[1])
    if color_type == 2:
        key = [sample(3, 4, c, depth) for c in range(3)]
        a = 0 if trns and [sample(x, y, c, depth) for c in range(3)] == key else 65535
        return (s[0], s[1], s[2], a)
    return tuple(s)


def main():
    good = good_fixtures()
    everything = dict(good)
    everything.update(bad_fixtures(good["rgba8"]))
    for name, data in sorted(everything.items()):
        with open(os.path.join(HERE, name + ".png"), "wb") as f:
            f.write(data)
    if shutil.which("convert"):
        for name, data in sorted(good.items()):
            check_with_imagemagick(name, data)
        print(f"wrote {len(everything)} fixtures; ImageMagick agrees with the formula on {len(good)}")
    else:
        print(f"wrote {len(everything)} fixtures (ImageMagick not found: not cross-checked)")


if __name__ == "__main__":
    main()
