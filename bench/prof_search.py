"""cProfile of the plan search on the scale bench's case (Llama-3-70B, every priced GPU type, ``max_gpus`` 512):
three searches after a warm-up, by cumulative and by internal time.

    python bench/prof_search.py [N]      (N: rows of each listing, default 45)
"""

from __future__ import annotations

import cProfile
import pstats
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_search_scale import SEARCH_70B  # noqa: E402
from gpuplanner.core import search as S  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402


def main() -> None:
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 45
    s = scenario_from_dict(SEARCH_70B)
    S.search(s)
    pr = cProfile.Profile()
    pr.enable()
    for _ in range(3):
        S.search(s)
    pr.disable()
    st = pstats.Stats(pr)
    st.sort_stats("cumulative").print_stats(rows)
    st.sort_stats("tottime").print_stats(rows)


if __name__ == "__main__":
    main()
