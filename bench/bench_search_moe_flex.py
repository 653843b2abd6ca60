"""Plan-search speed with Megatron's flex dispatcher (DeepEP/HybridEP) across nodes: the path of
timing.hybridep_ib_seconds (and hybridep_nvl_seconds inside one node). Qwen3-30B-A3B pretraining, four GPU types,
up to 512 GPUs (~306k candidates; another limit as the first argument): median of 9 whole searches after a warm-up,
then a cProfile of 3 searches for the MoE dispatch helpers.

    python bench/bench_search_moe_flex.py [max_gpus]
"""
import statistics, sys, time, cProfile, pstats, io
from gpuplanner.core import search as S
from gpuplanner.core.scenario import scenario_from_dict
SC = {"model": {"preset": "qwen3-30b-a3b"},
      "training": {"method": "pretrain", "framework": "megatron", "seq_len": 4096, "recompute": "selective"},
      "parallel": {"moe_dispatcher": "flex"},
      "data": {"tokens": "1T"},
      "constraints": {"max_gpus": int(sys.argv[1]) if len(sys.argv) > 1 else 512, "deadline_days": 14, "currency": "CNY",
                      "gpu_candidates": ["h100-sxm-80gb", "a800-sxm-80gb", "h20-96gb", "h200-sxm-141gb"]}}
scn = scenario_from_dict(SC)
r = S.search(scn, top=5)
ts = []
for _ in range(9):
    t0 = time.perf_counter(); r = S.search(scn, top=5); ts.append((time.perf_counter() - t0) * 1e3)
print(f"candidates {r.candidates_evaluated:,}; search median {statistics.median(ts):.1f} ms (min {min(ts):.1f})")
pr = cProfile.Profile(); pr.enable()
for _ in range(3): S.search(scn, top=5)
pr.disable()
st = pstats.Stats(pr)
for (f, l, name), v in st.stats.items():
    if name in ("time_gpu", "time_layout", "hybridep_ib_seconds", "flex_dest_nodes", "hybridep_ib_rates", "hybridep_ib_layout", "search", "hybridep_nvl_seconds", "flex_dest_ranks", "hybridep_nvl_rates", "hybridep_nvl_layout"):
        print(f"  {name:22s} calls {v[1]:4d} tottime {v[2]*1e3/3:7.2f} ms cumtime {v[3]*1e3/3:7.2f} ms per search")
