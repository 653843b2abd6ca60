"""Random-mutation fuzz of the plan loader, with a summary (no Hypothesis needed).

    python bench/fuzz_planfile.py [N] [SEED]

Mutates the fixture and example plans (structural edits and byte damage), loads each result and
counts outcomes by problem. Any exception other than PlanFileError, or a loaded document that does not
round-trip, is a bug: the script prints it and exits 1. Also reports the loader's throughput.
"""

from __future__ import annotations

import collections
import json
import random
import sys
import time
import traceback
from pathlib import Path

from gpuplanner.io import planfile
from gpuplanner.io.planfile import PlanFileError

ROOT = Path(__file__).resolve().parents[1]
SEEDS = [p.read_bytes() for p in sorted((ROOT / "tests" / "data" / "plans").glob("v*.gpuplan"))]
SEEDS += [p.read_bytes() for p in sorted((ROOT / "examples").glob("*.gpuplan"))]
VALUES = [None, True, False, 0, -1, 1, 2, 3, 10**20, 1.5, -0.0, 1e308, "", "x", "bf16", "2B", [], {}, [1], {"a": 1},
          "2026-01-01T00:00:00Z", "h100-sxm-80gb", "\u00e9\u4e2d", "\\ud800"]


def mutate_structure(rng: random.Random, data):
    node = data
    for _ in range(rng.randint(0, 5)):
        children = list(node.values()) if isinstance(node, dict) else list(node)
        children = [c for c in children if isinstance(c, (dict, list)) and c]
        if not children:
            break
        node = rng.choice(children)
    if isinstance(node, dict):
        op = rng.choice(["delete", "replace", "insert"]) if node else "insert"
        if op == "insert":
            node[rng.choice(["zz_new", "title", "scenario", "tp", "gpu", "id", ""])] = rng.choice(VALUES)
        else:
            key = rng.choice(sorted(node))
            if op == "delete":
                del node[key]
            else:
                node[key] = rng.choice(VALUES)
    elif isinstance(node, list):
        if node and rng.random() < 0.5:
            node.pop(rng.randrange(len(node)))
        else:
            node.insert(rng.randint(0, len(node)), rng.choice(VALUES))
    return data


def mutate_bytes(rng: random.Random, raw: bytes) -> bytes:
    b = bytearray(raw)
    for _ in range(rng.randint(1, 3)):
        pos = rng.randint(0, len(b))
        op = rng.choice(["truncate", "delete", "insert", "flip"])
        if op == "truncate":
            del b[pos:]
        elif op == "delete":
            del b[pos:pos + rng.randint(1, 40)]
        elif op == "insert":
            b[pos:pos] = rng.choice([b"{", b"}", b"[", b",", b'"', b"\x00", b"\xff", b"NaN", b"1e999"])
        elif b:
            b[min(pos, len(b) - 1)] ^= 1 << rng.randrange(8)
    return bytes(b)


def main(n: int = 10_000, seed: int = 1) -> int:
    rng = random.Random(seed)
    outcomes: collections.Counter[str] = collections.Counter()
    t0 = time.perf_counter()
    for i in range(n):
        raw = rng.choice(SEEDS)
        if rng.random() < 0.6:
            raw = json.dumps(mutate_structure(rng, json.loads(raw))).encode()
        else:
            raw = mutate_bytes(rng, raw)
        try:
            doc, _ = planfile.loads(raw, "fuzz.gpuplan")
        except PlanFileError as err:
            outcomes[err.problem.split("(")[0].strip()] += 1
            continue
        except Exception:
            print(f"BUG on input #{i}: {raw[:200]!r}")
            traceback.print_exc()
            return 1
        again, _ = planfile.loads(planfile.dumps(doc), "fuzz.gpuplan")
        if again != doc or again.unknown_fields != doc.unknown_fields:
            print(f"ROUND-TRIP BUG on input #{i}: {raw[:200]!r}")
            return 1
        outcomes["loaded"] += 1
    dt = time.perf_counter() - t0
    print(f"{n} inputs in {dt:.1f} s ({n / dt:,.0f}/s, {dt / n * 1e3:.2f} ms each incl. mutation and round trip)")
    for what, count in outcomes.most_common():
        print(f"  {count:6d}  {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main(*(int(a) for a in sys.argv[1:3])))
