#!/usr/bin/env python3
"""Unit test of chromium_play.py's stall nudge decision (no browser needed), as a table."""
import argparse
import os
import sys
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import chromium_play as cp  # noqa: E402


def args(gap_jump=0.5, live=False):
    return argparse.Namespace(gap_jump=gap_jump, live=live)


def snap(t=20.0, ct=113.276, buffered=((100.0, 113.3),), ended=False, paused=False):
    return {"t": t, "currentTime": ct, "buffered": [list(r) for r in buffered], "ended": ended, "paused": paused}


DONE = {"1": {"sent": 1.0, "done": True, "finished": 2.0}}
IN_FLIGHT = {"1": {"sent": 1.0, "done": True}, "2": {"sent": 3.0}}


class NudgeTarget(unittest.TestCase):
    def test_table(self):
        frozen = 20.0 - cp.NUDGE_AFTER - 0.5   # frozen a little longer than NUDGE_AFTER
        rows = [
            # (what, args, snap, freeze_start, nudges so far, requests, expected target)
            ("frozen, nothing ahead, nothing in flight", args(), snap(), frozen, [], DONE, 113.376),
            ("the second nudge goes further", args(), snap(), frozen, [{}], DONE, 113.476),
            ("at most NUDGE_MAX", args(), snap(), frozen, [{}] * cp.NUDGE_MAX, DONE, None),
            ("not frozen long enough", args(), snap(), 20.0 - cp.NUDGE_AFTER + 0.5, [], DONE, None),
            ("not frozen", args(), snap(), None, [], DONE, None),
            ("media buffered past a hole ahead", args(), snap(buffered=((100, 113.3), (114.0, 120))),
             frozen, [], DONE, None),
            ("a request in flight", args(), snap(), frozen, [], IN_FLIGHT, None),
            ("without --gap-jump", args(gap_jump=0), snap(), frozen, [], DONE, None),
            ("live", args(live=True), snap(), frozen, [], DONE, None),
            ("ended", args(), snap(ended=True), frozen, [], DONE, None),
            ("paused", args(), snap(paused=True), frozen, [], DONE, None),
            ("nothing buffered at all", args(), snap(buffered=()), frozen, [], {}, 113.376),
        ]
        for what, a, s, start, nudges, requests, expected in rows:
            with self.subTest(what):
                got = cp.nudge_target(a, s, start, nudges, requests)
                if expected is None:
                    self.assertIsNone(got)
                else:
                    self.assertAlmostEqual(got, expected, places=6)


if __name__ == "__main__":
    unittest.main()
