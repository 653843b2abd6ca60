"""A user-entered GPU that declares its architecture (``hardware.custom_gpus[].architecture``, issue 35 round 6,
helper titan7): a variant of a known card (other memory, bandwidth, clocks or power limit) keeps its generation's
constants (matmul efficiency, attention kernel ceiling, FP8 recipes, fabric defaults) instead of the generic
"other" ones. Checked against the catalogue card with the same figures, against the generation tables by hand,
and against torchtitan's Dec-2024 table, whose card (96 GB HBM2e at 2.4 TB/s, 500 W) is such a variant."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from gpuplanner.core import catalog_hw as C
from gpuplanner.core import timing as T
from gpuplanner.core.errors import ScenarioError
from gpuplanner.core.evaluate import evaluate
from gpuplanner.core.scenario import scenario_from_dict

ROOT = Path(__file__).resolve().parents[1]

#: the catalogue's H100 SXM figures (gpus.json), entered by hand
H100_AS_CUSTOM = {"id": "custom-h100-copy", "name": "H100 copy", "memory_gib": 80, "bf16_tflops": 989,
                  "fp8_tflops": 1979, "mem_bw_tbs": 3.35, "tdp_w": 700, "intra_node_link": "nvlink",
                  "intra_node_bw_gbs": 900}


def _sc(gpu="h100-sxm-80gb", custom=None, precision="bf16", **t):
    hw = {"gpu": gpu, "num_gpus": 1}
    if custom is not None:
        hw["custom_gpus"] = [custom]
    return scenario_from_dict({
        "model": {"preset": "llama-3.1-8b"},
        "training": {"framework": "fsdp", "seq_len": 4096, "micro_batch_size": 1, "recompute": "full",
                     "precision": precision, "torch_compile": True, **t},
        "parallel": {"zero": 0}, "hardware": hw})


def _tps(sc) -> float:
    return evaluate(sc).time_modelled.tokens_per_s_per_gpu


def test_generation_follows_the_declared_architecture():
    """The record carries the declared generation; catalogue records and undeclared custom cards keep the id's."""
    rec = C.custom_gpu_record(_sc("custom-h100-copy", {**H100_AS_CUSTOM, "architecture": "hopper"}
                                  ).hardware.custom_gpus[0])
    assert rec.architecture == "hopper" and T.gpu_generation(rec) == "hopper"
    bare = C.custom_gpu_record(_sc("custom-h100-copy", H100_AS_CUSTOM).hardware.custom_gpus[0])
    assert bare.architecture is None and T.gpu_generation(bare) == "other"
    assert T.gpu_generation(C.get_gpu("h100-sxm-80gb")) == T.gpu_generation("h100-sxm-80gb") == "hopper"
    assert "architecture" not in C.get_gpu("h100-sxm-80gb").to_dict()  # gpus.json's keys unchanged


def test_same_figures_same_answer_as_the_catalogue_card():
    """One GPU (no collectives): a custom card with the H100 SXM's figures and ``hopper`` gives the catalogue card's
    tokens/s exactly; without the architecture it runs at the generic efficiency, 0.40 against Hopper's 0.55, so the
    GEMM-bound step is slower by about that ratio (the memory-bound passes do not scale)."""
    cat = _tps(_sc())
    hop = _tps(_sc("custom-h100-copy", {**H100_AS_CUSTOM, "architecture": "hopper"}))
    other = _tps(_sc("custom-h100-copy", H100_AS_CUSTOM))
    assert hop == pytest.approx(cat, rel=1e-12)
    assert T.GEN_EFFICIENCY["other"] / T.GEN_EFFICIENCY["hopper"] < other / cat < 1.0


def test_fp8_recipe_follows_the_declared_architecture():
    """MXFP8 needs datacenter Blackwell (fp8.RECIPE_GENERATIONS): a custom card declared ``blackwell`` runs it, the
    same card undeclared is refused."""
    b = {"id": "custom-b200-var", "name": "B200 variant", "memory_gib": 180, "bf16_tflops": 2250,
         "fp8_tflops": 4500, "mem_bw_tbs": 8.0, "intra_node_link": "nvlink", "intra_node_bw_gbs": 1800}
    ok = _sc("custom-b200-var", {**b, "architecture": "blackwell"}, precision="fp8", fp8_recipe="te_mxfp8",
             framework="megatron")
    assert _tps(ok) > 0
    with pytest.raises(Exception, match="Blackwell"):
        evaluate(_sc("custom-b200-var", b, precision="fp8", fp8_recipe="te_mxfp8", framework="megatron"))


def test_unknown_architecture_refused():
    with pytest.raises(ScenarioError):
        _sc("custom-h100-copy", {**H100_AS_CUSTOM, "architecture": "pascal"})


def _validate_time():
    sys.path.insert(0, str(ROOT / "bench"))
    spec = importlib.util.spec_from_file_location("validate_time", ROOT / "bench" / "validate_time.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["validate_time"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_torchtitan_dec_2024_card():
    """torchtitan's Dec-2024 FSDP-only BF16 rows (Tables 1 and 3: Llama 3.1 8B, 8 and 128 GPUs, per-op SAC) on the
    source's card (HBM2e 2.4 TB/s instead of the catalogue's 3.35): every row moves toward the published figure,
    and only the memory-bound share of the step moves: eager (unfused norms, RoPE, SwiGLU) more than compiled.
    The 500 W cap is not in the card's peaks, so the model stays at or above the published figure."""
    v = _validate_time()
    rows = {lbl: (sc, card, pub) for (lbl, sc, pub, *_), (_l, card, *_r) in
            zip(v.TORCHTITAN_SANITY, v.TORCHTITAN_SANITY_CARD)}
    gains = {}
    for lbl in ("T1 8B FSDP 8 GPUs, lbs 2, SAC", "T1 … + torch.compile", "T3 8B FSDP 128 GPUs, lbs 2, SAC",
                "T3 … + torch.compile"):
        sc, card, pub = rows[lbl]
        cat, gt = _tps(scenario_from_dict(sc)), _tps(scenario_from_dict(card))
        assert pub <= gt < cat
        gains[lbl] = cat / gt
    assert gains["T1 8B FSDP 8 GPUs, lbs 2, SAC"] > gains["T1 … + torch.compile"]
    assert gains["T3 8B FSDP 128 GPUs, lbs 2, SAC"] > gains["T3 … + torch.compile"]
    # at most the whole step scaled by the bandwidth ratio (everything memory-bound)
    assert max(gains.values()) < 3.35 / 2.4
