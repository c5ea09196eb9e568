#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes the fuzz targets' seed corpus into Fuzz/corpus/TARGET/ (deterministic; rerun after changing it).
Fonts are drawn here with fontTools' FontBuilder (pip install fonttools), so no third-party font is copied.
Crashes found later are added as corpus/TARGET/crash-* by hand, never by this script."""
import os
import shutil
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
OUT = os.path.join(HERE, "corpus")


def put(target, name, data):
    d = os.path.join(OUT, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data if isinstance(data, bytes) else data.encode())


def seeds():
    # The command language, scripts and control requests.
    put("commands", "show", 'show "Booting"\nprogress 0.4 "Installing 3 of 7"\nsuccess Done\n')
    put("commands", "settings", "set style dark\nset mask custom\nset backdrop-color #00000080\nset offset 0,-40\n"
        "set min-size 100x80\nset max-dismiss forever\nset tap-dismiss outside\nset font \"/usr/share/fonts/a b.ttf\"\n")
    put("commands", "mb", "set mode annular\nset label \"Copying\"\nset details \"a\\nb\"\nset button Cancel\nshow\ndismiss 1.5\n")
    put("commands", "script", "@0 show\n@0.5 progress 0.25 \"Step \\u{1F600}\"\n@1.25 image info Careful\n@2 pop\n")
    put("commands", "control", "ping\nversion\nstate\nwait\nsubscribe keys\nsnapshot \"HDMI-A-1\"\nquit --retain\n"
        "progress-over 0.5 10\npress\n# comment\n\n")
    put("commands", "psplash", "MSG Booting the kiosk\nPROGRESS 40\nQUIT\n40\nexit\n")
    # The control socket's framing: the first byte chooses the piece size.
    put("control", "lines", b"\x03show Booting\nprogress 0.5\r\nstate\n" + b"x" * 5000 + b"\nping\n\xff\xfe\nversion\n")
    # psplash-write's NUL-ended words and fbsplash's numbers.
    put("fifo", "psplash", b"\x05MSG Booting\x00PROGRESS 50\x00MSG Starting services\x00QUIT\x00")
    put("fifo", "fbsplash", b"\x01" + b"10\n20\n30\n100\nexit\n")
    # Plymouth's requests as its client writes them.
    put("plymouth", "boot", b"\x02P\x00$\x00M\x02\x08Booting\x00u\x02\x0330\x00C\x02\x08updates\x00K\x02\x03yn\x00L\x02\x03yn\x00Q\x02\x01\x00")
    put("plymouth", "questions", b"\x07*\x02\x06Disk:\x00W\x02\x04Ok?\x00U\x02\x0ewhatever.unit\x00A\x00a\x00V\x00!\x00")
    # Board profiles: the shipped ones.
    for name in ("rpi4-dsi.conf", "stm32mp1.conf", "qemu-virtio.conf", "pc-generic.conf"):
        with open(os.path.join(REPO, "boards", name), "rb") as f:
            put("profile", name, f.read())
    put("profile", "input.conf", "[input]\ndevices = /dev/input/event2\nassign = ft5x06 -> DSI-1\ncalibration = 0 1 0 -1 0 1\ngrab = on\n"
        "[hud]\nlabel = \"Say \\\"hi\\\"\"\nmode = bar\n")

    # evdev records, 64-bit little-endian layout (the targets read it in the other layouts too).
    def ev(t, c, v):
        return struct.pack("<QQHHi", 1700000000, 5, t, c, v)
    syn = ev(0, 0, 0)
    tap = ev(3, 0, 16384) + ev(3, 1, 8192) + syn + ev(1, 0x110, 1) + syn + ev(1, 0x110, 0) + syn
    put("evdev", "tablet-tap", tap)
    mt = (ev(3, 0x2f, 0) + ev(3, 0x39, 40) + ev(3, 0x35, 100) + ev(3, 0x36, 50) + ev(1, 0x14a, 1) + syn
          + ev(3, 0x2f, 1) + ev(3, 0x39, 41) + ev(3, 0x35, 300) + ev(3, 0x36, 20) + syn
          + ev(3, 0x2f, 0) + ev(3, 0x39, -1) + syn + ev(3, 0x2f, 1) + ev(3, 0x39, -1) + ev(1, 0x14a, 0) + syn)
    put("evdev", "multitouch", mt)
    put("evdev", "dropped", ev(3, 0, 10) + ev(1, 0x110, 1) + syn + ev(0, 3, 0) + ev(1, 0x110, 0) + syn + ev(2, 0, 5) + syn)
    put("evdev", "keys", ev(1, 28, 1) + syn + ev(1, 28, 2) + syn + ev(1, 28, 0) + syn + ev(1, 1, 1) + syn + ev(1, 30, 1) + syn)
    put("evdev", "mouse", ev(2, 0, 25) + ev(2, 1, -100) + syn + ev(1, 0x110, 1) + syn + ev(1, 0x110, 0) + syn)

    # PNGs: the decoder's fixtures.
    fixtures = os.path.join(REPO, "Tests", "AssetsTests", "Fixtures")
    os.makedirs(os.path.join(OUT, "png"), exist_ok=True)
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".png") and os.path.getsize(os.path.join(fixtures, name)) <= 4096:
            shutil.copy(os.path.join(fixtures, name), os.path.join(OUT, "png", name))
    # BMPs (the firmware's logo): the decoder's fixtures, written by ImageMagick.
    os.makedirs(os.path.join(OUT, "bmp"), exist_ok=True)
    for name in sorted(os.listdir(fixtures)):
        if name.endswith(".bmp"):
            shutil.copy(os.path.join(fixtures, name), os.path.join(OUT, "bmp", name))

    # Fonts drawn here: a TrueType and a CFF face with a few glyphs.
    from fontTools.fontBuilder import FontBuilder
    from fontTools.pens.ttGlyphPen import TTGlyphPen
    from fontTools.pens.t2CharStringPen import T2CharStringPen

    def box(pen, x0, y0, x1, y1):
        pen.moveTo((x0, y0)); pen.lineTo((x0, y1)); pen.lineTo((x1, y1)); pen.lineTo((x1, y0)); pen.closePath()

    names = [".notdef", "A", "g", "space"]
    cmap = {ord("A"): "A", ord("g"): "g", ord(" "): "space"}
    metrics = {n: (600, 50) for n in names}
    for cff in (False, True):
        fb = FontBuilder(1000, isTTF=not cff)
        fb.setupGlyphOrder(names)
        fb.setupCharacterMap(cmap)
        if cff:
            glyphs = {}
            for n in names:
                pen = T2CharStringPen(600, None)
                if n != "space":
                    box(pen, 50, 0 if n != "g" else -200, 550, 700)
                glyphs[n] = pen.getCharString()
            fb.setupCFF("SeedCFF", {"FullName": "Seed CFF"}, glyphs, {})
        else:
            glyphs = {}
            for n in names:
                pen = TTGlyphPen(None)
                if n != "space":
                    box(pen, 50, 0 if n != "g" else -200, 550, 700)
                glyphs[n] = pen.glyph()
            fb.setupGlyf(glyphs)
        fb.setupHorizontalMetrics(metrics)
        fb.setupHorizontalHeader(ascent=800, descent=-200)
        fb.setupNameTable({"familyName": "Seed", "styleName": "Regular"})
        fb.setupOS2(sTypoAscender=800, sTypoDescender=-200, usWinAscent=800, usWinDescent=200)
        fb.setupPost()
        path = os.path.join(OUT, "font", "seed.otf" if cff else "seed.ttf")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fb.save(path)

    # Kernel uevents as the kernel sends them.
    put("uevent", "drm", b"change@/devices/pci0000:00/0000:00:02.0/drm/card0\x00ACTION=change\x00DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0\x00"
        b"SUBSYSTEM=drm\x00HOTPLUG=1\x00CONNECTOR=35\x00DEVNAME=dri/card0\x00DEVTYPE=drm_minor\x00SEQNUM=1712\x00")
    put("uevent", "input", b"add@/devices/virtual/input/input5/event3\x00ACTION=add\x00DEVPATH=/devices/virtual/input/input5/event3\x00"
        b"SUBSYSTEM=input\x00MAJOR=13\x00MINOR=67\x00DEVNAME=input/event3\x00SEQNUM=2001\x00")
    put("uevent", "libudev", b"libudev\x00\xfe\xed\xca\xfe" + b"\x00" * 32)

    # text: two bytes (size, then width/height/direction bits), then UTF-8.
    for name, flags, text in [
        ("latin", 0x10, "Installing update 3 of 7… AVATAR WAVE"),
        ("arabic", 0x50, "جارٍ تحديث النظام 42% (Linux)"),
        ("hebrew-rtl", 0x30, "מתקין עדכון 3 מתוך 7 (גרסה 2.1)"),
        ("devanagari", 0x08, "हिन्दी में अद्यतन स्थापित हो रहा है"),
        ("thai", 0x48, "กำลังติดตั้งการอัปเดตระบบ กรุณาอย่าปิดเครื่อง"),
        ("mixed", 0x04, "A\u202eB\u2067ج\u2069 (x) \u200d\ufe0f漢字\r\nok"),
    ]:
        put("text", name, bytes([20, flags]) + text.encode())
    put("text", "invalid-utf8", bytes([12, 0x02]) + b"\xff\xfe\xd8\x00\xed\xa0\x80abc")


if __name__ == "__main__":
    seeds()
