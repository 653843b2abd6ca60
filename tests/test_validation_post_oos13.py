"""Round 13 (postoos13): DeepSpeed-Chat's Hybrid Engine (``training.rl.hybrid_engine``) and the published step-3 log
it was scored on (bench/validate_post_oos13.py).

The mechanism: with ``--enable_hybrid_engine`` the actor decodes through DeepSpeed-Inference's fused kernels, 14 a
decoder layer (DeepSpeed v0.9.0 ``csrc/transformer/inference/csrc/pt_binding.cpp``: LayerNorm + QKV GEMM + bias,
the attention's transform, two batched GEMMs, softmax and transform, the output GEMM, the fused residual LayerNorm,
FC1, the bias-activation, FC2, the residual add), where the model's own forward launches 43 (methods.py). The
tests check the host floor against that count by hand, the published log's figures, the field's validation and the
CLI's exit status."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import validate_post_oos13 as v  # noqa: E402
from gpuplanner.core import methods as M  # noqa: E402
from gpuplanner.core.estimate import estimate  # noqa: E402
from gpuplanner.core.scenario import scenario_from_dict  # noqa: E402
from gpuplanner.io.model_files import ModelFiles  # noqa: E402


def _gen(d: dict) -> float:
    return estimate(scenario_from_dict(d), ModelFiles(v.MODELS)).time.seconds["generation"]


def test_hand_count_of_the_hybrid_engine_layer():
    # pt_binding.cpp v0.9.0: qkv_unfused_cublas 3, ds_softmax_context 5, vector_matmul 1, mlp_unfused_cublas 4,
    # residual_add_bias 1
    assert M.DS_HYBRID_DECODE_OPS_PER_LAYER == 3 + 5 + 1 + 4 + 1
    assert M.DS_HYBRID_DECODE_OPS_PER_LAYER < M.EAGER_DECODE_OPS_PER_LAYER


def test_hybrid_generation_is_the_host_floor_by_hand():
    # OPT-1.3b, 4 prompts a V100, 256 fixed answer tokens: host-bound (2.6 GB of weights stream in ~3 ms a token,
    # below 24 × 14 × 24 µs = 8.1 ms), so the generation is ≈ 256 decode steps at the floor plus a short prefill
    d = v.dschat_step3(True)
    floor = 24 * M.DS_HYBRID_DECODE_OPS_PER_LAYER * M.EAGER_FWD_OP_S  # OPT: learned positions, no rotary kernel
    got = _gen(d)
    assert 256 * floor <= got <= 256 * floor * 1.10
    # the switch off: the model's own forward (43 kernels a layer)
    off = _gen(v.dschat_step3(False))
    assert off == pytest.approx(got * M.EAGER_DECODE_OPS_PER_LAYER / M.DS_HYBRID_DECODE_OPS_PER_LAYER, rel=0.10)


def test_rotary_models_add_the_rotary_kernel():
    class Arch:
        position_embedding = "rope"

    class Prof:
        hybrid_engine = True

    assert M.eager_decode_s_per_layer(Prof(), Arch()) == pytest.approx(15 * M.EAGER_FWD_OP_S)
    Arch.position_embedding = "learned"
    assert M.eager_decode_s_per_layer(Prof(), Arch()) == pytest.approx(14 * M.EAGER_FWD_OP_S)
    Prof.hybrid_engine = False
    assert M.eager_decode_s_per_layer(Prof(), Arch()) == M.EAGER_DECODE_S_PER_LAYER


def test_published_log_figures_and_the_scored_errors():
    rid, _scn, pub, _note = v.ROWS[0]
    # the log's medians over steps 1-475: E2E 3.80 = generate 2.52 + training 1.06 + others 0.22
    assert pub["step"] == pytest.approx(pub["gen"] + pub["rest"], abs=0.01)
    r = v.table()[0]
    # the hybrid engine brings the generation within a quarter of the log; before it was off by more than half
    assert abs(r["err_now"]["gen"]) < 0.25 < abs(r["err_before"]["gen"])
    assert abs(r["err_now"]["step"]) < abs(r["err_before"]["step"])
    # the rest of the step does not depend on the switch
    off = v.predict(v.dschat_step3(False))
    assert r["now"]["rest"] == pytest.approx(off["rest"], rel=1e-9)
    assert r["now"]["mem"] == pytest.approx(off["mem"], rel=1e-9)


def test_default_off_and_other_frameworks_are_unchanged():
    d = v.dschat_step3(None)
    assert scenario_from_dict(d).training.rl.hybrid_engine is False
    assert _gen(d) == pytest.approx(_gen(v.dschat_step3(False)))


@pytest.mark.parametrize("change, word", [({"framework": "trl"}, "framework trl"),
                                          ({"generation_engine": "vllm_colocated"}, "generation_engine training")])
def test_validation_refuses_where_there_is_no_hybrid_engine(change, word):
    d = v.dschat_step3(True)
    if "framework" in change:
        d["training"]["framework"] = change["framework"]
    else:
        d["training"]["rl"]["generation_engine"] = change["generation_engine"]
    with pytest.raises(Exception, match=word):
        scenario_from_dict(d)


def test_cli_exit_status(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    (tmp_path / "opt-1.3b").mkdir()
    (tmp_path / "opt-1.3b" / "config.json").write_text((v.MODELS / "opt-1.3b" / "config.json").read_text())
    good = tmp_path / "dschat.json"
    good.write_text(json.dumps(v.dschat_step3(True)))
    assert run_cli(["estimate", str(good)]) == 0
    bad = copy.deepcopy(v.dschat_step3(True))
    bad["training"]["framework"] = "trl"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert run_cli(["estimate", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert any("hybrid_engine" in line for line in err)
