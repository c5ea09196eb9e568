#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Unit tests of whole-boot.py's pure parts, parsing a boot's console and the report (no QEMU, no
root): python3 scripts/bench/test_whole_boot.py. The full runs take about 50 minutes; CI runs these
and the script's --short form (one boot a variant); the figures come from the full runs
(docs/performance.md)."""
import importlib.util
import os
import sys
import types
import unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("whole_boot", os.path.join(HERE, "whole-boot.py"))
wb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(wb)


def console(point, cpu_ms=None, failed=False, ticks=None, first_frame=12.5, kept=True):
    """A timed boot's output as vmtest.py prints it (the guest's lines behind "guest said:"): with
    cpu_ms, SplashHUD's, its initramfs daemon kept in the real root or (kept=False) handed over to
    splashhud.service's."""
    lines = [f"vmtest: UPTIME guest {point:.2f} host {point + 3.0:.3f}",
             f"vmtest: FIRST-FRAME {first_frame:.3f}",
             f"vmtest: guest said: INFO BENCH point {point:.2f}",
             "vmtest: guest said: INFO BENCH state " + ("degraded" if failed else "running"),
             "vmtest: guest said: INFO BENCH analyze Startup finished in 2.512s (kernel) + 4.003s (initrd) "
             "+ 1min 2.250s (userspace) = 1min 8.765s",
             "vmtest: guest said: INFO BENCH initrd-freed 3.104512",
             "vmtest: guest said: INFO BENCH root-mounted 5.950000",
             "vmtest: guest said: INFO BENCH init-started 3.210000",
             "vmtest: guest said: INFO BENCH drm-initialized 4.125000",
             "vmtest: guest said: INFO BENCH fbcon-takeover 4.250000",
             "vmtest: guest said: INFO BENCH initrd-size 16384000"]
    if cpu_ms is not None and kept:
        lines += [f"vmtest: guest said: INFO BENCH splashhud-initramfs ended: QUIT (after the fade-out) after 9000.0 ms, {cpu_ms:.1f} ms CPU",
                  "vmtest: guest said: INFO BENCH splashhudd-schedstat 1200000000 7500000000 412",
                  "vmtest: guest said: INFO BENCH splashhud-handover began 6.01, daemon kept 6.40 (s of uptime): it lives on in the real root",
                  "vmtest: guest said: INFO BENCH unit splashhud.service 0 0"]
    elif cpu_ms is not None:
        lines += [f"vmtest: guest said: INFO BENCH splashhud-initramfs ended: QUIT after 900.0 ms, {cpu_ms / 2:.1f} ms CPU",
                  f"vmtest: guest said: INFO BENCH splashhud-root ended: QUIT (after the fade-out) after 4520.3 ms, {cpu_ms / 2:.1f} ms CPU",
                  "vmtest: guest said: INFO BENCH splashhudd-schedstat 1200000000 7500000000 412",
                  "vmtest: guest said: INFO BENCH splashhud-handover began 6.01, daemon ended 6.40 (s of uptime)",
                  "vmtest: guest said: INFO BENCH unit splashhud.service 10250000 " + ("0" if failed else "15750000")]
    if ticks is not None:
        lines.append("vmtest: guest said: INFO BENCH plymouthd-stat 321 (plymouthd) S 1 321 321 0 -1 4194560 "
                     f"900 0 0 0 {ticks - 50} 50 0 0 20 0 1 0 180 0 0")
        lines.append("vmtest: guest said: INFO BENCH clk-tck 100")
    lines.append("vmtest: guest said: INFO BENCH splashhud-result " + ("timeout" if failed else "success"))
    lines.append(f"vmtest: guest said: INFO BENCH failed {1 if failed else 0}")
    return "\n".join(lines) + "\n"


class WholeBootTests(unittest.TestCase):
    def test_a_boot_s_figures(self):
        fig = wb.parse(console(36.47, cpu_ms=2270.0, kept=False))
        self.assertEqual(fig["point"], 36.47)
        # the kernel started 3.0 s after vmtest's clock did: the first frame is 9.5 s after it
        self.assertAlmostEqual(fig["first frame"], 9.5)
        self.assertAlmostEqual(fig["analyze kernel"], 2.512)
        self.assertAlmostEqual(fig["analyze userspace"], 62.25)
        self.assertAlmostEqual(fig["analyze total"], 68.765)
        self.assertAlmostEqual(fig["initrd freed"], 3.104512)
        self.assertAlmostEqual(fig["root mounted"], 5.95)
        self.assertAlmostEqual(fig["init started"], 3.21)
        self.assertAlmostEqual(fig["drm initialized"], 4.125)
        self.assertAlmostEqual(fig["fbcon takeover"], 4.25)
        # systemd's kernel + initrd is when the real root's systemd began
        self.assertAlmostEqual(fig["mounted to switch"], 0.565)
        self.assertAlmostEqual(fig["handover"], 0.39)
        # initramfs-tools: no initrd part, the kernel's is up to the real root's systemd
        tools = wb.parse(console(36.47).replace("2.512s (kernel) + 4.003s (initrd)", "6.515s (kernel)"))
        self.assertNotIn("analyze initrd", tools)
        self.assertAlmostEqual(tools["mounted to switch"], 0.565)
        self.assertAlmostEqual(fig["initrd MB"], 16.384)
        self.assertAlmostEqual(fig["splash CPU"], 2.27)
        self.assertAlmostEqual(fig["splash run delay"], 7.5)
        self.assertAlmostEqual(fig["splashhud ready"], 5.5)
        self.assertFalse(fig["splashhud failed"])
        self.assertEqual(fig["failed units"], 0)
        self.assertFalse(fig["daemon kept"])

    def test_a_kept_daemon_s_figures(self):
        fig = wb.parse(console(35.0, cpu_ms=1490.0))
        self.assertTrue(fig["daemon kept"])
        self.assertAlmostEqual(fig["handover"], 0.39)
        self.assertAlmostEqual(fig["splash CPU"], 1.49)  # one daemon, its one ending line
        self.assertAlmostEqual(fig["splash run delay"], 7.5)
        self.assertNotIn("splashhud ready", fig)  # splashhud.service skipped its start

    def test_plymouth_s_cpu_is_its_ticks(self):
        fig = wb.parse(console(49.48, ticks=1227))
        self.assertAlmostEqual(fig["splash CPU"], 12.27)
        self.assertNotIn("splash run delay", fig)

    def test_a_failed_start_is_counted(self):
        fig = wb.parse(console(40.0, cpu_ms=1000.0, failed=True, kept=False))
        self.assertTrue(fig["splashhud failed"])
        self.assertNotIn("splashhud ready", fig)  # never active
        self.assertEqual(fig["failed units"], 1)

    def test_a_boot_missing_a_figure_of_its_variant_is_named(self):
        self.assertEqual(wb.faults(wb.parse(console(36.0, cpu_ms=2000.0)), "splashhud"), [])
        self.assertEqual(wb.faults(wb.parse(console(49.0, ticks=1200)), "plymouth"), [])
        self.assertEqual(wb.faults(wb.parse(console(31.0)), "none"), [])
        # no screendump lit the centre, and the helper's hand-over line is gone
        text = console(36.0, cpu_ms=2000.0).replace("FIRST-FRAME", "NO-FRAME")
        text = "\n".join(l for l in text.splitlines() if "splashhud-handover" not in l)
        self.assertEqual(wb.faults(wb.parse(text), "splashhud-progress"), ["no 'first frame'", "no 'handover'"])
        # Plymouth's CPU is its own: a boot without plymouthd's stat is wrong for it, not for none
        self.assertEqual(wb.faults(wb.parse(console(31.0)), "plymouth"), ["no 'splash CPU'"])
        self.assertEqual(wb.faults(wb.parse(console(40.0, cpu_ms=1000.0, failed=True, kept=False)), "splashhud"),
                         ["the initramfs's daemon was not kept (splashhud-initrd handed over)",
                          "splashhud.service failed", "1 failed unit(s)"])

    def test_report_gives_the_ratio_to_plymouth_s_added_time(self):
        results = {"none": [wb.parse(console(t)) for t in (31.0, 31.2, 31.4)],
                   "plymouth": [wb.parse(console(t, ticks=1200)) for t in (49.0, 49.4, 50.0)],
                   "splashhud": [wb.parse(console(t, cpu_ms=2000.0, failed=t > 36.5)) for t in (36.0, 36.4, 37.0)]}
        args = types.SimpleNamespace(runs=3)
        text = wb.report(results, list(results), args)
        self.assertNotIn("--short", text)
        self.assertIn("--short", wb.report(results, list(results), types.SimpleNamespace(runs=1, short=True)))
        self.assertIn("| time to the fixed point (s, kernel's uptime) | 31.20 (31.00–31.40) | 49.40 (49.00–50.00) | 36.40 (36.00–37.00) |", text)
        self.assertIn("| boots where splashhud.service failed | 0 | 0 | 1 |", text)
        self.assertIn("- plymouth adds 18.20 s to the boot (median against none's)", text)
        self.assertIn("- splashhud's added time is 0.29 of Plymouth's (goal: at most 0.25)", text)

    def test_splashhud_off_splits_the_added_time_and_runs_no_daemon(self):
        self.assertEqual(wb.CMDLINES["splashhud-off"], wb.CMDLINE + " splashhud.enable=0")
        self.assertNotIn("splashhud-off", wb.DEFAULT_VARIANTS)
        self.assertEqual(wb.faults(wb.parse(console(32.0)), "splashhud-off"), [])
        self.assertEqual(wb.faults(wb.parse(console(36.0, cpu_ms=2000.0)), "splashhud-off"),
                         ["a daemon ran although the command line said splashhud.enable=0"])
        results = {"none": [wb.parse(console(t)) for t in (31.0, 31.2, 31.4)],
                   "splashhud": [wb.parse(console(t, cpu_ms=2000.0)) for t in (36.0, 36.4, 37.0)],
                   "splashhud-off": [wb.parse(console(t)) for t in (32.0, 32.2, 32.4)]}
        text = wb.report(results, list(results), types.SimpleNamespace(runs=3))
        self.assertIn("- of splashhud's 5.20 s, its image and hooks without a daemon (splashhud-off) add 1.00 s and its daemon 4.20 s", text)


if __name__ == "__main__":
    unittest.main()
