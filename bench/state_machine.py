"""The write-path state machine (issue 26 §1) as a long run, by hand: ``tests/services/
test_write_paths_state_machine.py`` with many examples, in both modes (every chain in the request; the
background threshold at 0, every chain through a job and its resume point), on SQLite or PostgreSQL.

Prints one JSON line per machine: examples, steps (rules run after the set-up), full checks (steps after
which no job was pending: ``ratings_verify()`` and the stored rows against a replay from scratch), whether
it passed, the wall seconds, and ``reference_seconds`` (the host's speed, as in ``bench/federation.py``).

    .venv/bin/python bench/state_machine.py                          # about 20,000 steps on SQLite
    .venv/bin/python bench/state_machine.py --examples 200 --steps 25 --db postgres://postgres@127.0.0.1:5432/dwz_sm
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from federation import commit, reference_seconds  # noqa: E402 - the shared host figures

MACHINES = {
    "WritePaths": "test_every_write_path_keeps_stored_equal_to_a_full_replay",
    "WritePathsInTheBackground": "test_every_write_path_through_the_background_job",
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=400, help="examples per machine (default 400)")
    parser.add_argument("--steps", type=int, default=25, help="steps per example at most (default 25)")
    parser.add_argument("--db", help="DATABASE_URL (default: the suite's SQLite)")
    parser.add_argument("--machines", default=",".join(MACHINES), help="comma-separated machine names")
    parser.add_argument("--seed", type=int, default=None, help="hypothesis seed")
    args = parser.parse_args()
    failed = 0
    for name in args.machines.split(","):
        with tempfile.NamedTemporaryFile("r", suffix=".counts") as counts:
            env = {
                **os.environ,
                "DWZ_STATE_MACHINE_EXAMPLES": str(args.examples),
                "DWZ_STATE_MACHINE_STEPS": str(args.steps),
                "DWZ_STATE_MACHINE_COUNT": counts.name,
            }
            if args.db:
                env["DATABASE_URL"] = args.db
            command = [
                sys.executable,
                "-m",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "-x",
                f"tests/services/test_write_paths_state_machine.py::{MACHINES[name]}",
            ]
            if args.seed is not None:
                command.append(f"--hypothesis-seed={args.seed}")
            started = time.perf_counter()
            run = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
            seconds = time.perf_counter() - started
            totals: dict[str, int] = defaultdict(int)
            for line in Path(counts.name).read_text().splitlines():
                _, steps, checks = line.split()
                totals["examples"] += 1
                totals["steps"] += int(steps)
                totals["checks"] += int(checks)
        passed = run.returncode == 0
        failed += not passed
        line = {
            "machine": name,
            "database": "postgresql" if args.db and args.db.startswith("postgres") else "sqlite",
            **totals,
            "passed": passed,
            "seconds": round(seconds, 1),
            "commit": commit(),
            "reference_seconds": reference_seconds(),
        }
        if not passed:
            line["output"] = run.stdout[-4000:]
        print(json.dumps(line), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
