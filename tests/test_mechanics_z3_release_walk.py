"""Round 11 (z3dpo11): DeepSpeed ZeRO-3's reuse-distance walk at each release (bench/z3_release_walk.py), counted by
hand, and the published rows that show it is not paid every micro-batch (``functools.lru_cache`` on
``__params_to_release``), so the model leaves it out."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

import z3_release_walk as w  # noqa: E402


def _deepspeed_loop(trace, distance):
    """DeepSpeed's loop as written (v0.15.4 ``__params_to_release``), one release after each entry but the last."""
    total = 0
    for step_id in range(1, len(trace)):
        traversed = 0
        for n in trace[step_id:]:
            if traversed >= distance:
                break
            total += 1
            traversed += n
    return total


def test_walk_by_hand():
    # releases after entries 0..3 visit 3 (5, 0, 5), 3 (0, 5, 5), 2 (5, 5) and 1 (the last entry) modules
    assert w.walk_visits([0.0, 5.0, 0.0, 5.0, 5.0], 6.0) == 9
    assert w.walk_visits([0.0, 5.0, 0.0, 5.0, 5.0], 100.0) == 4 + 3 + 2 + 1


def test_walk_matches_deepspeeds_loop():
    rng = random.Random(11)
    for _ in range(50):
        trace = [rng.choice([0.0, 0.0, 1.0, 3.0, 7.0]) for _ in range(rng.randint(2, 40))]
        d = rng.choice([1.0, 5.0, 20.0, 1e9])
        assert w.walk_visits(trace, d) == _deepspeed_loop(trace, d)


def test_llama_8b_micro_batch_by_hand():
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    a = resolve(scenario_from_dict({"model": {"preset": "llama-3.1-8b"}})).facts.arch
    trace = w.micro_batch_trace(a)
    # forward: 2 containers, embedding, rotary, 32 x 13 hooked modules, norm, head; backward: head, norm,
    # 32 x (13 recompute + 13 backward), embedding
    assert len(trace) == 4 + 32 * 13 + 2 + 2 + 32 * 26 + 1
    # 1e9 elements is 1e9 / 218.1M = 4.59 layers of 13 modules: about 60 a release (fewer near the end)
    layer = 4096 * (4096 * 2 + 1024 * 2) + 3 * 4096 * 14336
    per_release = 1e9 / layer * 13
    v = w.walk_visits(trace)
    assert 0.9 * per_release * (len(trace) - 1) < v < 1.05 * per_release * (len(trace) - 1)


def test_published_qwen_rows_rule_out_an_uncached_walk():
    rows = {r[0]: r for r in w.rows()}
    qwen = [r for k, r in rows.items() if k.startswith("qwen-readme-1.8B-full")]
    assert len(qwen) == 6
    for _name, pub, base, walk, _v in qwen:
        assert abs(pub / base - 1.0) < 0.10  # as built
        assert pub / walk - 1.0 < -0.5  # paid every micro-batch, the model would be 2x too slow


def _layout(d):
    import gpuplanner.core.timing as T
    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict

    cap = {}
    orig = T.time_layout

    def grab(*a, **k):
        cap["lay"] = orig(*a, **k)
        return cap["lay"]

    T.time_layout = grab
    try:
        T.time_estimate(resolve(scenario_from_dict(d)))
    finally:
        T.time_layout = orig
    return cap["lay"]


def test_reduce_scatter_latency_per_bucket():
    import validate_post_time as pt

    d = pt.OPEN_INSTRUCT_RUNS[0][3]  # Tulu 3 8B: 32 H100 over 4 nodes, Accelerate's auto buckets (hidden²)
    ring = 8.4e-6 + 28 * 3.4e-6 + 3 * 14e-6  # NCCL tuning.cc ring/Simple: 28 NVLink steps, 3 network steps
    # per layer under reduce_bucket_size = 4096²: q, o, gate, up, down alone (each ≥ the bucket), k + v + the two
    # norms in two buckets (one between the attention's large weights, one between the MLP's): 7 reduce-scatters
    lay = _layout(d)
    assert abs(lay["lat_rs"] - 32 * 7 * ring) < 1e-9
    assert abs(lay["lat_ag"] - 32 * 7 * ring) < 1e-9  # 7 gathered weights a layer, as before
    # DeepSpeed before v0.5.5 ("list"): one reduce-scatter per weight, counted once (not per bucket on top)
    lst = _layout(dict(d, training=dict(d["training"], ds_zero3_gather="list")))
    assert abs(lst["lat_rs"] - 32 * 7 * ring) < 1e-9
