"""Round 7's clean-up of session 6's review leftovers (docs/notes/2026-12-06/issue-35-r7-tidy7.md): each fact has
one source in the core, and the refusals of a bad price are said in words.

* the mean MLP width a token passes through: one ``ModelFacts.mlp_width``, checked against hand-derived widths;
* the training methods in words: one ``frameworks.METHOD_WORDS`` read by the refusals, the plan's "Not tried"
  line and the report;
* the tools with their own checkpoint function: one ``frameworks.CHECKPOINT_REENTRANT_REFUSED``;
* "is this model MoE": one ``app.engine.model_is_moe``;
* a price below zero, in a scenario, a plan file's price table and a quote sheet: "a price cannot be below zero".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.core.architecture import get_preset
from gpuplanner.core.memory import model_facts

ROOT = Path(__file__).resolve().parents[1]


# ------------------------------------------------------------------------------------------------ MLP width

@pytest.mark.parametrize("preset, want", [
    ("llama-3.1-8b", 14336.0),                        # dense: intermediate_size
    ("mixtral-8x7b", 2 * 14336.0),                    # every layer MoE, top-2 of 14336-wide experts, no shared one
    # 1 dense layer of 10944 and 26 MoE layers: 6 routed experts of 1408 plus 2 shared experts of 1408
    ("deepseek-v2-lite", 1 / 27 * 10944 + 26 / 27 * (6 * 1408 + 2 * 1408)),
    ("qwen2-57b-a14b", 8 * 2560.0 + 20480),           # 8 routed of 2560 plus Qwen's one shared expert of 20480
])
def test_mlp_width_is_the_width_a_token_passes_through(preset, want):
    m = model_facts(get_preset(preset).arch)
    assert m.mlp_width == pytest.approx(want, rel=1e-12)


def test_the_mlp_width_expression_is_written_once():
    expr = "m.k_active * m.f_moe + m.shared_f"
    for name in ("memory.py", "timing.py", "fp8.py"):
        assert expr not in (ROOT / "gpuplanner" / "core" / name).read_text(encoding="utf-8"), name


# ------------------------------------------------------------------------------------------------ method words

def test_one_list_of_method_words_for_refusals_the_plan_and_the_report():
    from gpuplanner.core import frameworks, search
    from gpuplanner.core.frameworks import METHOD_WORDS, unsupported

    assert not hasattr(search, "_METHOD_WORDS")
    m = search._method_words("qlora")
    assert (m.context, m.text) == (frameworks.CTX, METHOD_WORDS["qlora"]) == ("Framework", "QLoRA fine-tuning")
    # the refusal names the method as the plan's lines do (it said "LoRA" before)
    why = unsupported("megatron", "lora").render()
    assert "does not run LoRA fine-tuning" in why, why


def test_the_report_names_the_method_from_the_same_list():
    from gpuplanner.report.render import _method_name

    assert [_method_name(m) for m in ("pretrain", "full", "lora", "qlora")] == [
        "pretraining", "full fine-tuning", "LoRA fine-tuning", "QLoRA fine-tuning"]


# ------------------------------------------------------------------------------------------------ own checkpoint

def test_one_list_of_tools_with_their_own_checkpoint():
    from gpuplanner.core import scenario
    from gpuplanner.core.frameworks import CHECKPOINT_REENTRANT_REFUSED, OWN_CHECKPOINT_TOOLS, reentrant_switch

    # the scenario reads the core's one list itself: no alias or copy of it is kept
    assert not [k for k, v in vars(scenario).items() if v is CHECKPOINT_REENTRANT_REFUSED and k != "CHECKPOINT_REENTRANT_REFUSED"]
    assert "CHECKPOINT_REENTRANT_REFUSED.get(" in Path(scenario.__file__).read_text(encoding="utf-8")
    assert set(OWN_CHECKPOINT_TOOLS) == {"megatron", "megatron-swift", "megatron-bridge", "unsloth"}
    assert [reentrant_switch(t) for t in ("hf", "trl", "llamafactory", "axolotl", "ms-swift", "deepspeed")] == [True] * 6
    assert [reentrant_switch(t) for t in ("megatron", "megatron-bridge", "unsloth", "fsdp")] == [False] * 4


@pytest.mark.parametrize("framework, value, refused", [
    ("fsdp", True, True), ("fsdp", False, False), ("unsloth", False, True), ("megatron", True, True),
    ("hf", True, False), ("hf", False, False)])
def test_the_scenario_refuses_what_the_list_says(framework, value, refused):
    from gpuplanner.core.errors import ScenarioError
    from gpuplanner.core.scenario import Scenario

    d = {"model": {"preset": "llama-3.1-8b"}, "training": {"framework": framework, "checkpoint_reentrant": value}}
    if refused:
        with pytest.raises((ScenarioError, ValueError), match="runs its own checkpoint function"):
            Scenario.model_validate(d)
    else:
        s = Scenario.model_validate(d)
        assert s.training.checkpoint_reentrant is value


# ------------------------------------------------------------------------------------------------ MoE

def test_model_is_moe_one_answer():
    from types import SimpleNamespace

    from gpuplanner.app.engine import model_is_moe
    from gpuplanner.core.scenario import Scenario

    dense = Scenario.model_validate({"model": {"preset": "llama-3.1-8b"}})
    moe = Scenario.model_validate({"model": {"preset": "qwen3-30b-a3b"}})
    assert model_is_moe(dense) is False and model_is_moe(moe) is True
    # a preset is read from the scenario, not from an estimate of another model
    stale = SimpleNamespace(evaluation=SimpleNamespace(arch=get_preset("qwen3-30b-a3b").arch))
    assert model_is_moe(dense, stale) is False
    # a config.json: the live estimate's architecture; unknown (no estimate yet): True
    hf = Scenario.model_validate({"model": {"hf_config": "config.json"}})
    assert model_is_moe(hf) is True
    assert model_is_moe(hf, SimpleNamespace(evaluation=None, error="x")) is True
    assert model_is_moe(hf, SimpleNamespace(evaluation=SimpleNamespace(arch=get_preset("llama-3.1-8b").arch))) is False
    assert model_is_moe(hf, stale) is True


# ------------------------------------------------------------------------------------------------ prices

BELOW = "a price cannot be below zero"


@pytest.mark.parametrize("field", ["card_hour", "machine_week", "machine_month", "spot_card_hour"])
def test_a_negative_price_in_a_scenario_is_refused_in_words(field):
    from gpuplanner.core.scenario import Scenario

    d = {"model": {"preset": "llama-3.1-8b"}, "constraints": {"prices": {"h100-sxm-80gb": {field: -2.5}}}}
    with pytest.raises(Exception) as info:
        Scenario.model_validate(d)
    text = str(info.value)
    assert BELOW + " (-2.5)" in text and "greater than or equal" not in text, text
    d["constraints"]["prices"]["h100-sxm-80gb"][field] = 2.5  # a valid price is kept as it is
    assert getattr(Scenario.model_validate(d).constraints.prices["h100-sxm-80gb"], field) == 2.5


def test_a_negative_price_on_the_cli_is_one_line_in_words(tmp_path, capsys):
    from gpuplanner.cli import run_cli

    s = json.loads((ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json").read_text(encoding="utf-8"))
    s.setdefault("constraints", {})["prices"] = {"h100-sxm-80gb": {"spot_card_hour": -1}}
    p = tmp_path / "neg.json"
    p.write_text(json.dumps(s), encoding="utf-8")
    assert run_cli(["estimate", str(p), "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "spot_card_hour: " + BELOW + " (-1)" in err, err


def test_a_negative_offer_in_a_quote_sheet_names_its_cell(tmp_path):
    from gpuplanner.io.quote_sheets import QuoteSheetError, read_quotes

    text = (ROOT / "examples" / "quotes" / "autodl-a800.csv").read_text(encoding="utf-8")
    assert "offer,a800-sxm-80gb,5.88," in text
    p = tmp_path / "neg.csv"
    p.write_text(text.replace("offer,a800-sxm-80gb,5.88,", "offer,a800-sxm-80gb,-5.88,"), encoding="utf-8")
    with pytest.raises(QuoteSheetError) as info:
        read_quotes(p)
    assert "cell C" in str(info.value) and BELOW + " (-5.88)" in str(info.value), str(info.value)


def test_a_negative_price_row_in_a_plan_file_is_refused_in_words():
    from pydantic import ValidationError

    from gpuplanner.core.messages import validation_reason
    from gpuplanner.io.planfile import PriceRow

    with pytest.raises(ValidationError) as info:
        PriceRow.model_validate({"gpu": "h100-sxm-80gb", "currency": "CNY", "spot_card_hour": -3})
    assert validation_reason(info.value.errors()[0]) == BELOW + " (-3)"
    assert PriceRow.model_validate({"gpu": "x", "currency": "CNY", "card_hour": 0}).card_hour == 0


def test_the_price_messages_have_chinese():
    ts = (ROOT / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts").read_text(encoding="utf-8")
    for src, zh in ((BELOW + " ({value})", "价格不能小于零"),
                    ("Price &apos;{0}&apos; for {1} is below zero; it was not changed.", "小于零"),
                    ("Spot price &apos;{0}&apos; for {1} is below zero; it was not changed.", "竞价价格")):
        i = ts.index("<source>" + src + "</source>")
        assert zh in ts[i:i + 400].split("</message>")[0], src


# ------------------------------------------------------------------------------------------------ one name, one list

def test_one_name_for_a_likely_ranges_runs():
    """The likely range's runs are named by one core function (core.evaluate.band_name) for the CLI, the report and
    the Plans page: its runs in the view's language; a band stored before they were named: its family's product
    name (core.frameworks.name_for), an unknown family as it is."""
    from gpuplanner.core.evaluate import band_name
    from gpuplanner.core.frameworks import FRAMEWORKS

    tr = lambda ctx, text: f"[{ctx}] {text}"  # noqa: E731 - a stand-in translator that shows what it was given
    assert band_name({"runs": "published Megatron-LM runs", "family": "megatron"}, tr) == "[Evaluation] published Megatron-LM runs"
    assert band_name({"family": "megatron", "rows": 12}, tr) == FRAMEWORKS["megatron"].name
    assert band_name({"family": "no-such-tool"}, tr) == "no-such-tool"
    root = Path(__file__).resolve().parents[1] / "gpuplanner"
    for view in ("commands/_args.py", "report/render.py", "ui/pages/plans_page.py"):
        text = (root / view).read_text(encoding="utf-8")
        assert "band_name(" in text and "band_runs(" not in text, view  # no view writes the fallback again
    assert "def _framework_name" not in (root / "report/render.py").read_text(encoding="utf-8")
    assert "def _framework_display" not in (root / "ui/pages/plans_page.py").read_text(encoding="utf-8")


def test_the_project_page_offers_the_cores_rental_modes():
    from gpuplanner.core import cost, project
    from gpuplanner.ui.pages import project_page

    assert project_page.GPU_MODES is cost.MODES and project_page.CPU_MODES is project.CPU_MODES
    assert not hasattr(project_page, "_GPU_MODES") and not hasattr(project_page, "_CPU_MODES")
