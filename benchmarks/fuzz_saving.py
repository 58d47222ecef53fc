"""Fuzz the saved-game loader: mutated real records must be refused by name or load as the game they record.

Prints the inputs tried and how many were refused and accepted; stops at the first crash
(an exception other than StateFormatError) or wrong game, showing the record. Deterministic
for a seed. The mutations and checks are those of tests/test_fuzz_saving.py (tests/saving_fuzz.py).

    python benchmarks/fuzz_saving.py [--inputs 20000] [--seed 1]
"""

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from saving_fuzz import base_records, fuzz  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    pool = base_records()
    start = time.perf_counter()
    counts = fuzz(args.inputs, args.seed, pool)
    print(
        f"{args.inputs} mutated records of {len(pool)} real ones in {time.perf_counter() - start:.1f} s: "
        f"{counts['refused']} refused, {counts['accepted']} accepted and replayed to the game they record"
    )


if __name__ == "__main__":
    main()
