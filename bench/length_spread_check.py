"""Which length distribution the padded-batch model takes (core/flops.expected_longest), checked on published
dataset statistics (a check of the shape, not a fit of any step time).

Usage: git -C <ms-swift checkout> show 3602360a562313afbf2ef6065fdf61f271a2c5b9:docs/source_en/Instruction/\
Supported-models-and-datasets.md > /tmp/ds.md; python bench/length_spread_check.py /tmp/ds.md

ms-swift's dataset table gives, per dataset, its size and "mean±std, min=…, max=…" tokens per sample. For each
dataset with at least 100 samples, the median maximum of that many draws (the quantile 0.5^(1/N)) is predicted from
the mean and std under four families, and compared with the published maximum. Also printed: the median spread
(std / mean), the default of ``data.sample_len_std`` (:data:`flops.DEFAULT_SAMPLE_LEN_CV`).
"""

from __future__ import annotations

import math
import re
import statistics
import sys
from statistics import NormalDist

STAT = re.compile(r"([0-9.]+)±([0-9.]+), min=([0-9]+), max=([0-9]+)")


def rows(text: str):
    """(size, mean, std, max) of every table row with a statistic."""
    for line in text.splitlines():
        m = STAT.search(line)
        if not m:
            continue
        cells = line.split("|")
        try:
            n = int(cells[3])
        except (IndexError, ValueError):
            n = None
        yield n, float(m[1]), float(m[2]), float(m[4])


def predicted_max(n: int, mean: float, std: float) -> dict[str, float]:
    z = NormalDist().inv_cdf(0.5 ** (1.0 / n))
    s2 = math.log1p((std / mean) ** 2)
    k = (mean / std) ** 2  # gamma shape; Wilson-Hilferty quantile
    return {"log-normal": math.exp(math.log(mean) - s2 / 2 + math.sqrt(s2) * z),
            "gamma": mean * (1 - 1 / (9 * k) + z / (3 * math.sqrt(k))) ** 3,
            "normal": mean + std * z,
            "exponential": mean * math.log(n / math.log(2))}


def main(path: str) -> int:
    data = list(rows(open(path, encoding="utf-8").read()))
    cvs = sorted(sd / mu for _, mu, sd, _ in data if mu > 0)
    print(f"statistics: {len(cvs)}; spread std/mean: median {statistics.median(cvs):.2f}, "
          f"quartiles {cvs[len(cvs) // 4]:.2f} / {cvs[3 * len(cvs) // 4]:.2f}")
    ratios: dict[str, list[float]] = {}
    for n, mu, sd, mx in data:
        if n is None or n < 100 or sd <= 0:
            continue
        for fam, v in predicted_max(n, mu, sd).items():
            ratios.setdefault(fam, []).append(v / mx)
    print("\n| family | datasets | median predicted / published max | median |log ratio| |\n|---|---:|---:|---:|")
    for fam, r in ratios.items():
        print(f"| {fam} | {len(r)} | {statistics.median(r):.2f} | "
              f"{statistics.median(abs(math.log(x)) for x in r):.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
