"""Fuzz the saved-game loader: mutated real saves must be rejected or load sound games.

Prints the inputs tried, rejections, crashes (exceptions other than StateFormatError
while loading) and invariant breaches (an accepted input that differs from the file,
breaks an invariant or fails in play), with the first few of each. Deterministic for a
seed. The mutations and checks are those of tests/test_fuzz_saving.py
(tests/saving_fuzz.py); ``--rules`` adds tests/test_invariants.py's rule checks after
every step of play (slower).

    python benchmarks/fuzz_saving.py [--inputs 20000] [--seed 1] [--rules]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from saving_fuzz import base_states, fuzz  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", action="store_true", help="check the rule invariants after every step")
    args = parser.parse_args()
    extra = None
    if args.rules:
        from test_invariants import Tracker

        extra = Tracker
    start = time.time()
    pool = base_states()
    print(f"{len(pool)} real saved games to mutate ({time.time() - start:.1f} s)")
    start = time.time()

    def progress(i, report):
        if (i + 1) % 2000 == 0:
            print(f"  {report.summary()}  [{time.time() - start:.0f} s]", flush=True)

    report = fuzz(args.inputs, args.seed, pool, extra=extra, extra_every=1 if args.rules else 0, progress=progress)
    print(report.summary(), f"in {time.time() - start:.0f} s")
    print(
        "by mutation (rejected, accepted):",
        ", ".join(f"{k} {v[0]}/{v[1]}" for k, v in sorted(report.by_mutation.items())),
    )
    for kind, items in (("crash", report.crashes), ("breach", report.breaches)):
        for i, name, what in items[:10]:
            print(f"{kind}: input {i} ({name}): {what}")
    return 1 if report.crashes or report.breaches else 0


if __name__ == "__main__":
    sys.exit(main())
