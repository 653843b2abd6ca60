"""PEFT LoRA with ``lora_dropout`` > 0, on the CPU (issue 35 r10, ``memory.lora_dropout_bytes_per_token``).

PEFT gives each adapted linear its own ``nn.Dropout`` (``tuners/lora/layer.py`` ``LoraLayer.update_layer``) and runs
``lora_B(lora_A(dropout(x)))``: each adapter saves its own dropped copy of its input and the dropout's mask. The
harness measures what autograd saves (``saved_tensors_hooks``, one count per storage) with PEFT 0.21 and transformers
5.x, with the dropout run as CUDA runs it (``native_dropout``: a 1-byte bool mask; ``harness._gpu_like_dropout``).

Checked: the second decoder layer's saved bytes with dropout 0.1 less those with dropout 0 equal the core's per-token
figure times the tokens, exactly, for pure bf16 (adapters bf16) and for autocast over fp32 adapters. The first layer
saves less (the frozen embedding's output needs no gradient, so q/k/v's dropouts keep no mask there); the core counts
every layer as the second, a difference of ``3h`` bytes per token on one layer. Needs torch (CPU); skipped otherwise.
"""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("peft")

from harness import Case, FAMILIES, measure  # noqa: E402

from gpuplanner.core.architecture import ModelArch  # noqa: E402,F401  (import check)
from gpuplanner.core.memory import lora_dropout_bytes_per_token  # noqa: E402


def _arch(case: Case):
    import json
    import tempfile
    from pathlib import Path

    from harness import core_config_dict

    from gpuplanner.core.estimate import resolve
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.io.model_files import ModelFiles

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps(core_config_dict(case)), encoding="utf-8")
        sc = scenario_from_dict({"model": {"hf_config": str(path)}, "training": {"method": "lora"}})
        return resolve(sc, ModelFiles(Path(tmp))).arch


@pytest.mark.parametrize("family", ["llama", "qwen2-tied"])
@pytest.mark.parametrize("precision", ["bf16", "amp"])
def test_second_layer_extra_bytes_match_the_core_exactly(family, precision):
    base = Case(family, seq=256, batch=1, precision=precision, method="lora")
    drop = Case(family, seq=256, batch=1, precision=precision, method="lora", lora_dropout=0.1)
    m0, m1 = measure(base), measure(drop)
    measured = m1.parts["layer1"] - m0.parts["layer1"]
    per_token = float(lora_dropout_bytes_per_token(_arch(base), "all_linear", 2.0, precision == "amp"))
    assert measured == pytest.approx(per_token * base.seq * base.batch, rel=0, abs=0.5), (measured, per_token)
    # the first layer: q/k/v keep no mask (their input needs no gradient), 3h bytes per token fewer
    h = FAMILIES[family]["hidden_size"]
    first = m1.parts["layer0"] - m0.parts["layer0"]
    assert first == pytest.approx((per_token - 3 * h) * base.seq * base.batch, abs=0.5)


def test_checkpointed_layers_keep_no_dropout_copies():
    """Non-reentrant checkpointing saves the layer input only: the copies exist while a layer is recomputed."""
    base = Case("llama", seq=256, batch=1, precision="amp", method="lora", checkpoint=True)
    drop = Case("llama", seq=256, batch=1, precision="amp", method="lora", checkpoint=True, lora_dropout=0.1)
    assert measure(drop).values["activations"] == measure(base).values["activations"]
