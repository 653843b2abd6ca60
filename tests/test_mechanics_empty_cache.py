"""``training.empty_cache_steps`` (issue 35 r9, ``memory.varlen_record_fraction``): a loop that calls
``torch.cuda.empty_cache()`` every N steps (the HF Trainer's ``torch_empty_cache_steps``; PEFT's MetaMathQA
``run.py`` every 10 steps) returns the cached segments of the run's earlier longest batch to the driver. What is
cached beside the longest batch was cut by an ordinary batch since the last release: its length is taken at
``data.mean_sample_len``. Hand-derived values below; the published check is PEFT's MetaMathQA peak reserved
(``accelerator_memory_max``, one L40S), which was +12…+22% with the cache at the cut-off."""

import statistics
import sys
from pathlib import Path

import pytest

from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.estimate import memory_breakdown, resolve
from gpuplanner.core.memory import varlen_record_fraction
from gpuplanner.core.scenario import scenario_from_dict

GIB = 2.0 ** 30
V = 128256  # Llama 3 8B vocabulary
ROOT = Path(__file__).resolve().parents[1]


def _mb(data=None, **kw):
    t = {"framework": "hf", "method": "lora", "seq_len": 2048, "micro_batch_size": 2, "recompute": "full",
         "flash_attention": True}
    t.update(kw)
    d = {"model": {"preset": "llama-3-8b"}, "training": t, "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1},
         "data": data or {}}
    return memory_breakdown(resolve(scenario_from_dict(d)))


def test_fraction_by_hand():
    assert varlen_record_fraction(None, 500, 2048) == 1.0
    assert varlen_record_fraction(10, None, 2048) == 1.0
    assert varlen_record_fraction(10, 512, 2048) == pytest.approx(0.25)
    assert varlen_record_fraction(1, 4096, 2048) == 1.0  # never above the cut-off


def test_cached_segments_at_the_mean_length_by_hand():
    """``cached`` also holds the eager loss's 2-byte-per-logit hole at the batch's own length (issue 35 round 18,
    memoos18: memory.allocator_cache_bytes; reserved and device only), which the cache release does not touch."""
    var = {"mean_sample_len": 512}
    kept, emptied, fixed = _mb(var), _mb(var, empty_cache_steps=10), _mb()
    hole = 2.0 * 2 * 2048 * V / GIB
    assert kept.cached == pytest.approx(12.0 * 2 * 2048 * V / GIB + hole, rel=1e-9)
    assert emptied.cached == pytest.approx(12.0 * 2 * 512 * V / GIB + hole, rel=1e-9)
    assert kept.metric("reserved") - emptied.metric("reserved") == pytest.approx(
        12.0 * 2 * (2048 - 512) * V / GIB, rel=1e-9)
    # live memory and what fits do not move
    assert emptied.metric("allocated") == pytest.approx(kept.metric("allocated"), rel=1e-12)
    assert emptied.total == pytest.approx(kept.total, rel=1e-12)
    # fixed-length samples: no earlier batch's segments either way, only the hole
    assert _mb(empty_cache_steps=10).cached == pytest.approx(hole, rel=1e-9)
    assert fixed.cached == pytest.approx(hole, rel=1e-9)


def test_refused_where_the_tool_has_no_such_choice():
    for fw in ("fsdp", "megatron"):
        with pytest.raises(ScenarioError, match="torch_empty_cache_steps"):
            scenario_from_dict({"model": {"preset": "llama-3-8b"},
                                "training": {"framework": fw, "method": "full", "empty_cache_steps": 10}})
    with pytest.raises(ScenarioError):
        scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"empty_cache_steps": 0}})
    scenario_from_dict({"model": {"preset": "llama-3-8b"}, "training": {"framework": "trl", "empty_cache_steps": 5}})


def test_peft_mmqa_peak_reserved():
    for p in (ROOT, ROOT / "bench"):
        if str(p) not in sys.path:
            sys.path.insert(0, str(p))
    import validate_ft_oos9 as b
    import validate_ft_tools as vft

    rows = [r for r in b.all_rows() if r.table == "peft-mmqa-mem"]
    assert len(rows) == 5
    errs = [vft.error(r, vft.predict(r)) for r in rows]
    assert statistics.median(abs(e) for e in errs) < 0.08  # +21% before the release was modelled
    assert max(abs(e) for e in errs) < 0.10


def test_search_keeps_only_the_trainer_stacks_when_the_cache_is_emptied():
    """A request that names no framework but sets empty_cache_steps: the option is the Hugging Face Trainer's, so the
    search tries only the tools on it (torchtune, torchtitan or Megatron would be given a cache release they never
    make). Without the field the same request tries other engines too."""
    from gpuplanner.core.frameworks import engine_of
    from gpuplanner.core.scenario import EMPTY_CACHE_ENGINES
    from gpuplanner.core.search import searched_frameworks

    d = {"model": {"preset": "llama-3-8b"}, "training": {"method": "lora", "seq_len": 2048},
         "data": {"mean_sample_len": 600}}
    plain, chooses = searched_frameworks(scenario_from_dict(d))
    assert chooses and any(engine_of(f) not in EMPTY_CACHE_ENGINES for f in plain), plain
    d["training"]["empty_cache_steps"] = 10
    kept, _ = searched_frameworks(scenario_from_dict(d))
    assert kept and all(engine_of(f) in EMPTY_CACHE_ENGINES for f in kept), kept
    assert set(kept) < set(plain)


def test_a_candidate_off_the_trainer_keeps_its_cache():
    """The user lists only non-Trainer candidates (Megatron, torchtune) and sets empty_cache_steps: the search keeps
    their candidates (the user's list), and their plans' memory is priced without a cache release they never make."""
    from gpuplanner.core.estimate import memory_breakdown, resolve

    d = {"model": {"preset": "llama-3-8b"},
         "training": {"framework": "fsdp", "method": "lora", "seq_len": 2048, "micro_batch_size": 2,
                      "recompute": "full", "flash_attention": True},
         "hardware": {"gpu": "h100-sxm-80gb", "num_gpus": 1}, "data": {"mean_sample_len": 500}}
    plain = memory_breakdown(resolve(scenario_from_dict(d)))
    s = scenario_from_dict(d)  # as a search candidate gets it (validation ran on the request, not the candidate)
    s = s.model_copy(update={"training": s.training.model_copy(update={"empty_cache_steps": 10})})
    assert memory_breakdown(resolve(s)).metric("reserved") == pytest.approx(plain.metric("reserved"), rel=1e-12)
