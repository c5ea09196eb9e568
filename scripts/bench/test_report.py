#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unit tests of against-plymouth.py's pure parts (no QEMU, no root):
python3 scripts/bench/test_report.py"""
import importlib.util
import os
import sys
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("against_plymouth", os.path.join(HERE, "against-plymouth.py"))
ap = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ap)

CONSOLE = """[    3.1] random kernel line
init: up 3.44 s; devices: /dev/dri/card0 /dev/fb0
BENCH machine kernel=6.1.0-56-amd64 cpu=QEMU_Virtual_CPU hz=100
BENCH display fb0=bochs-drmdrmfb size=1280,800
BENCH subject=plymouth run=1 what=first first_ms=600.0 start_exit_ms=610.0 start_status=0 fb_changed=1
BENCH subject=plymouth run=1 what=anim seconds=10.0 utime=20 stime=20 changes=150 fps=15.00 refresh=75 cpu_ms=312.5
BENCH subject=plymouth run=1 what=roundtrip samples_ms=1600.0,80.0,90.0 median_ms=90.0 failed=0
BENCH subject=plymouth run=1 what=static-deactivated seconds=5.0 utime=2 stime=3 changes=0 fps=0.00
BENCH subject=plymouth run=1 what=memory vmhwm_kb=16000 vmrss_kb=16000 private_dirty_kb=15900 anonymous_kb=5600
[   20.0] kernel: BENCH subject=splashhud run=1 what=first first_ms=300.0 start_exit_ms=20.0
BENCH subject=splashhud run=1 what=anim seconds=10.0 utime=30 stime=10 changes=750 fps=75.00 refresh=75 cpu_ms=250.0
BENCH subject=splashhud run=1 what=roundtrip samples_ms=40.0,50.0,45.0 median_ms=45.0 failed=0
BENCH subject=splashhud run=1 what=static seconds=5.0 utime=0 stime=0 changes=0 fps=0.00
BENCH subject=splashhud run=1 what=memory vmhwm_kb=8000 vmrss_kb=8000 private_dirty_kb=7000 anonymous_kb=2000
BENCH subject=plymouth run=2 what=first first_ms=-1.0 start_exit_ms=179.0 start_status=1 fb_changed=0
BENCH done
"""


class ReportTests(unittest.TestCase):
    def setUp(self):
        self.rows = ap.parse_bench(CONSOLE)

    def test_parse(self):
        kinds = [r.get("kind") for r in self.rows if "kind" in r]
        self.assertEqual(kinds, ["machine", "display", "done"])
        first = [r for r in self.rows if r.get("what") == "first"]
        self.assertEqual(len(first), 3)  # a line after a kernel prefix counts too
        self.assertEqual(first[1]["subject"], "splashhud")
        self.assertEqual(first[1]["first_ms"], "300.0")

    def test_failed_first_frame_is_not_a_value(self):
        self.assertEqual(ap.collect(self.rows, "plymouth", "first", "first_ms"), [600.0])

    def test_table_and_targets(self):
        lines, med = ap.driver_table("bochs", self.rows)
        self.assertEqual(med["exec → first visible frame (ms)"], {"plymouth": 600.0, "splashhud": 300.0})
        self.assertEqual(med["CPU over 10 s animating, utime+stime (ticks)"]["splashhud"], 40.0)
        self.assertEqual(med[ap.RUNTIME], {"plymouth": 312.5, "splashhud": 250.0})
        self.assertTrue(any(line.startswith("| " + ap.RUNTIME + " | 312 | 250 | 0.80 |") for line in lines), lines)
        self.assertTrue(any(line.startswith("| on the CPU by the scheduler's clock (ms) | 312 → 250 (0.80)") for line in ap.summary_table({"bochs": med}, ["bochs"])))
        self.assertAlmostEqual(med["  CPU per 100 frames shown (ticks)"]["plymouth"], 100 * 40 / 150)
        self.assertEqual(med["CPU over 5 s static (ticks)"], {"plymouth": None, "splashhud": 0.0})
        self.assertEqual(med["deactivated"], 5.0)
        self.assertTrue(any("| 0.50 |" in line for line in lines))
        targets = {t[0]: t for t in ap.target_values(med, False, None)}
        self.assertEqual(targets["first frame"][2:4], (0.5, True))
        self.assertEqual(targets["peak RSS"][2:4], (0.5, True))
        self.assertEqual(targets["CPU over 10 s at the display's refresh"][2:4], (1.0, True))
        self.assertEqual(targets["status round trip"][2:4], (0.5, True))
        self.assertEqual(targets["static: SplashHUD's ticks in 5 s"][2:4], (0.0, True))
        self.assertEqual(targets["CPU over 10 s capped to 15 fps"][4], "no cap in the daemon yet")
        self.assertEqual(targets["initramfs addition"][4], "no hook yet")
        table = ap.targets_table({"bochs": med}, ["bochs"], False, 0.6)
        self.assertIn("| initramfs addition | ≤ 0.5 | 0.60 **FAIL** |", table)

    def test_single_buffered_beside_the_target(self):
        rows = self.rows + ap.parse_bench(
            "BENCH subject=splashhud-single run=1 what=anim seconds=10.0 utime=20 stime=10 changes=750 fps=75.00 refresh=75 cpu_ms=300.0\n")
        lines, med = ap.driver_table("bochs", rows)
        self.assertIn("splashhud-single", lines[0])
        self.assertTrue(any("(single-buffered 0.75)" in line for line in lines), lines)
        targets = {t[0].strip(): t for t in ap.target_values(med, False, None)}
        self.assertEqual(targets["the same, single-buffered (`buffers = 1`)"][2:4], (0.75, True))
        self.assertEqual(targets["CPU over 10 s at the display's refresh"][2:4], (1.0, True))
        summary = ap.summary_table({"bochs": med}, ["bochs"])
        self.assertIn("| CPU over 10 s, SplashHUD single-buffered (ticks) | 40 → 30 (0.75) |", summary)
        # without the run (fbdev), the target line says why
        _, med = ap.driver_table("vesafb", self.rows)
        targets = {t[0].strip(): t for t in ap.target_values(med, False, None)}
        self.assertEqual(targets["the same, single-buffered (`buffers = 1`)"][2], None)
        self.assertIn("|   the same, single-buffered (`buffers = 1`) | (≤ 1.0) | fbdev: one buffer already |",
                      ap.targets_table({"vesafb": med}, ["vesafb"], False, None))

    def test_no_animation_is_flagged(self):
        rows = [r for r in self.rows if not (r.get("subject") == "plymouth" and r.get("what") == "anim")]
        lines, _ = ap.driver_table("bochs", rows)
        self.assertTrue(any("did not animate" in line for line in lines))

    def test_vkms_run_has_its_mode_and_no_screenshots(self):
        # vkms: 640x480@60 by video= beside Plymouth's words, BENCH_SHOTS=0 (no QEMU display
        # device to take screendumps from); bochs keeps its screenshots and the plain words
        import tempfile
        import types
        calls = []

        class Result:
            status, total_seconds, error, console = 0, 1.0, None, CONSOLE

        def run_vm(display, program, **kw):
            calls.append((display, kw))
            return Result()

        saved = (ap.vmtest.run_vm, ap.vmtest.out_of_tree_module)
        ap.vmtest.run_vm, ap.vmtest.out_of_tree_module = run_vm, lambda version, name: "/vkms.ko"
        try:
            with tempfile.TemporaryDirectory() as out:
                args = types.SimpleNamespace(runs=1, seconds=10, samples=7, cap=15, out=out)
                for name in ("vkms", "bochs"):
                    ap.run_driver(name, args, "/x/scanpoll", "/x/splashhudd", "/x/splashhud", [], "option")
        finally:
            ap.vmtest.run_vm, ap.vmtest.out_of_tree_module = saved
        (vkms, kv), (bochs, kb) = calls
        self.assertEqual(vkms, "vkms")
        self.assertEqual(kv["cmdline"], ap.CMDLINE + " video=Virtual-1:640x480@60")
        self.assertIn("BENCH_SHOTS=0", kv["env"])
        self.assertEqual(bochs, "bochs")
        self.assertEqual(kb["cmdline"], ap.CMDLINE)
        self.assertIn("BENCH_SHOTS=1", kb["env"])


if __name__ == "__main__":
    unittest.main()
