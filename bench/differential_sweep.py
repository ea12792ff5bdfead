"""Seeded random sweep: the DWZ engine against the independent reference (tests/dwz/reference.py).

Run by hand, not in CI:  .venv/bin/python bench/differential_sweep.py [--count 3000] [--seed 1] [--show 5]
Prints how many tournaments agreed, how many disagreed (or raised), and the first mismatches.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import sys
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.dwz.builders import engine_json  # noqa: E402
from tests.dwz.random_tournaments import RandomSource, make_tournament  # noqa: E402
from tests.dwz.reference import evaluate_json  # noqa: E402


def main() -> int:  # noqa: C901, PLR0912 -- existing; issue 27
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--count", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show", type=int, default=5, help="mismatches to print in full")
    args = parser.parse_args()

    started = time.perf_counter()
    agreed = 0
    mismatches: list[tuple[int, dict, dict | str, dict | str]] = []
    fields: collections.Counter[str] = collections.Counter()
    stats: collections.Counter[str] = collections.Counter()
    branches: collections.Counter[str] = collections.Counter()  # tournaments that reached a rule branch
    for k in range(args.count):
        data = make_tournament(RandomSource(random.Random(f"{args.seed}:{k}")))
        try:
            trace: dict[str, int] = {}
            ref = evaluate_json(data, trace)
            for key, value in trace.items():
                if key == "max_rounds":
                    branches["iteration_cap_100"] += value >= 100
                    branches["max_rounds>=5"] += value >= 5
                elif key == "ausnahme":
                    branches["ausnahme_tournaments"] += value > 0
                else:
                    branches[key] += 1
        except Exception:
            ref = "reference raised: " + traceback.format_exc(limit=3)
        try:
            eng = engine_json(data)
        except Exception:
            eng = "engine raised: " + traceback.format_exc(limit=3)
        if isinstance(ref, dict):
            stats[ref["edition"]] += 1
            for p in ref["players"]:
                stats[p["status"]] += 1
        if ref == eng:
            agreed += 1
            continue
        mismatches.append((k, data, ref, eng))
        if isinstance(ref, dict) and isinstance(eng, dict):
            for pr, pe in zip(ref["players"], eng["players"], strict=False):
                for key in pr:
                    if pr[key] != pe.get(key):
                        fields[key] += 1
        else:
            fields["exception"] += 1

    elapsed = time.perf_counter() - started
    print(f"seed {args.seed}: {args.count} tournaments in {elapsed:.1f} s")
    print(f"agreed {agreed}, disagreed {len(mismatches)}")
    print("coverage:", dict(sorted(stats.items())))
    print("rule branches (tournaments):", dict(sorted(branches.items())))
    if fields:
        print("differing keys (player rows):", dict(fields.most_common()))
    for k, data, ref, eng in mismatches[: args.show]:
        print(f"\n--- tournament {k} (random.Random('{args.seed}:{k}'))")
        print("input:", json.dumps(data))
        if isinstance(ref, str) or isinstance(eng, str):
            print("reference:", ref if isinstance(ref, str) else "ok")
            print("engine:", eng if isinstance(eng, str) else "ok")
            continue
        for pr, pe in zip(ref["players"], eng["players"], strict=False):
            if pr != pe:
                print("  reference", pr)
                print("  engine   ", pe)
    return 0 if not mismatches else 1


if __name__ == "__main__":
    raise SystemExit(main())
