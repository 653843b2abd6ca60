"""One plan, one answer in the app on round 14's paths (issue 35 r14 parity14).

- A LoRA file with NeMo AutoModel's layer (``training.lora_layer``, nemoauto14), opened in the window: the Training
  page's control shows it, the live panel's Evaluation has ``estimate --json``'s step time, and the Plans page's rows
  are ``plan --json``'s, each timed with the layer; the Plans details list ``estimate``'s step-time rows
  (``lora_adapters`` among them).
- The control's enable rule is the core's (frameworks.lora_layer_applies): with the core's rule patched the page
  follows it (a page with its own copy of the rule fails).
- Chinese: the control's label, values and tooltip carry no English words (tests/i18n_scan.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
from test_one_answer_r14 import AUTOMODEL, AUTOMODEL_MANUAL  # noqa: E402
from tests.ui.conftest import searched  # noqa: E402


def _cli_json(args: list[str], capsys) -> dict:
    assert run_cli(args) == 0
    return json.loads(capsys.readouterr().out)


def test_automodel_file_gives_the_cli_figures_in_the_app(make_window, qtbot, capsys, tmp_path):
    from gpuplanner.formatting import format_number, format_time_number

    doc = tmp_path / "automodel.json"  # the layout given (the live panel's); the Plans page searches around it
    doc.write_text(json.dumps(AUTOMODEL_MANUAL), encoding="utf-8")
    plans = _cli_json(["plan", str(doc), "--json", "--top", "5"], capsys)["plans"]
    e = _cli_json(["estimate", str(doc), "--json"], capsys)
    w = make_window()
    assert w.open_path(doc, show_errors=False)
    w.go_to(1)
    combo = w.page("training").advanced.fields["lora_layer"]
    assert combo.isEnabled() and combo.currentData() == "automodel"
    qtbot.waitUntil(lambda: w.estimator.result is not None and w.estimator.result.evaluation is not None,
                    timeout=60000)
    ev = w.estimator.result.evaluation
    assert ev.scenario.training.lora_layer == "automodel"
    assert ev.time_modelled.step_time_s == pytest.approx(e["step_time_s"], rel=1e-9)
    qtbot.waitUntil(lambda: searched(w) and w.search.outcome is not None, timeout=120000)
    w.go_to(5)
    page = w.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    for i, row in enumerate(page.table_model.plans[:3]):
        p = plans[i]
        assert (row.gpu, row.num_gpus) == (p["gpu"], p["num_gpus"])
        assert row.plan.scenario.training.lora_layer == "automodel"
        assert row.plan.evaluation.time_modelled.step_time_s == pytest.approx(p["step_time_s"], rel=1e-9)
        assert format_time_number(p["calendar_days"]) == format_time_number(row.plan.calendar_days)
        assert format_number(p["cost"], 0) == format_number(row.plan.cost, 0)


def test_plans_details_list_the_cli_rows_of_automodel_plans(win, qtbot, tmp_path, capsys):
    """The Plans details of each top plan of the searched AutoModel LoRA run list the step-time rows ``estimate``
    prints for that plan's layout (formatting.breakdown_rows of the plan's Evaluation), ``lora_adapters`` among them."""
    from gpuplanner.core.scenario import scenario_from_dict
    from gpuplanner.core.timing import BREAKDOWN_LABELS
    from test_breakdown_rows import cli_breakdown_rows, want_rows
    from tests.ui.test_breakdown_ui import details_breakdown_rows

    win.model.load(scenario_from_dict(json.loads(json.dumps(AUTOMODEL))))
    qtbot.waitUntil(lambda: searched(win) and win.search.outcome is not None, timeout=180000)
    win.go_to(5)
    page = win.page("plans")
    qtbot.waitUntil(lambda: page.table_model.rowCount() > 0, timeout=10000)
    for i, row in enumerate(page.table_model.plans[:3]):
        page.show_details(row)
        ev = row.plan.evaluation
        assert ev.scenario.training.lora_layer == "automodel"
        want = want_rows(ev)
        assert BREAKDOWN_LABELS["lora_adapters"] in dict(want)
        assert details_breakdown_rows(page.details.toPlainText()) == want
        path = tmp_path / f"am{i}.json"  # this plan's layout as given (with ``auto`` on, estimate answers #1)
        sd = ev.scenario.model_dump(mode="json")
        sd["parallel"]["auto"] = False
        path.write_text(json.dumps(sd), encoding="utf-8")
        assert run_cli(["estimate", str(path)]) == 0
        assert cli_breakdown_rows(capsys.readouterr().out) == want


def test_the_control_follows_the_cores_rule(make_window, monkeypatch):
    """The control is enabled where frameworks.lora_layer_applies says the layer runs: with DeepSpeed counted among
    the tools that run their own LoRA layers (the core's rule patched), a DeepSpeed LoRA plan's control is disabled,
    and FSDP's stays enabled."""
    from gpuplanner.core import frameworks as FW

    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    combo = adv.fields["lora_layer"]
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "deepspeed"), ("hardware.gpu", "h100-sxm-80gb"),
                        ("hardware.num_gpus", 1)):
        assert win.model.set(path, value) is None, path
    assert combo.isEnabled()
    monkeypatch.setattr(FW, "OWN_LORA_LAYER_TOOLS", ("unsloth", "deepspeed"))
    win.model.set("training.seq_len", 2048)  # any change re-reads the rule
    assert not combo.isEnabled() and not adv.labels["lora_layer"].isEnabled()
    win.model.set("training.framework", "fsdp")
    assert combo.isEnabled()


def test_the_control_reads_as_chinese(make_window, language, qtbot):
    """In Chinese the control's label, its three values and its tooltip have no English words beyond the glossary
    (tests/i18n_scan.py; product names such as NeMo AutoModel, PEFT, torchtune, Triton are in it)."""
    from PySide6.QtWidgets import QApplication

    from i18n_scan import english_words
    from test_one_answer_r11 import _zh_allowed

    win = make_window(search_enabled=False)
    win.go_to(1)
    language.install("zh_CN")
    QApplication.processEvents()
    adv = win.page("training").advanced
    combo = adv.fields["lora_layer"]
    texts = [adv.labels["lora_layer"].text()] + [combo.itemText(i) for i in range(combo.count())]
    texts.append(combo.box._help)  # the tooltip's help text (FieldBox.set_help)
    allowed = _zh_allowed()
    assert texts[0] != "LoRA layer"
    for t in texts:
        assert t and not english_words(t, allowed), (t, english_words(t, allowed))


def test_the_fsdp_rows_follow_the_cores_rule(make_window, monkeypatch):
    """memoos14's rows (``training.fsdp_no_sync``, ``training.fsdp_lora_mixed_units``) are shown where
    frameworks.fsdp_sharded_gradients says FSDP shards gradients: with the HF stack taken out of the core's FSDP
    engines, an HF LoRA plan at ZeRO-3 hides them (a page with its own copy of the rule would still show them)."""
    from gpuplanner.core import frameworks as FW

    win = make_window(search_enabled=False)
    win.go_to(1)
    adv = win.page("training").advanced
    form = adv.box.layout()
    for path, value in (("model.preset", "llama-3.1-8b"), ("parallel.auto", False), ("training.method", "lora"),
                        ("training.framework", "hf"), ("parallel.zero", 3), ("hardware.gpu", "h100-sxm-80gb"),
                        ("hardware.num_gpus", 8), ("training.fsdp_version", 1)):  # FSDP1 through Accelerate
        assert win.model.set(path, value) is None, path
    assert form.isRowVisible(adv.fields["fsdp_no_sync"].box)
    assert form.isRowVisible(adv.fields["fsdp_lora_mixed_units"].box)
    monkeypatch.setattr(FW, "FSDP_SWITCH_ENGINES", ("fsdp",))
    win.model.set("training.seq_len", 2048)  # any change re-reads the rule
    assert not form.isRowVisible(adv.fields["fsdp_no_sync"].box)
    assert not form.isRowVisible(adv.fields["fsdp_lora_mixed_units"].box)
    win.model.set("training.framework", "fsdp")
    assert form.isRowVisible(adv.fields["fsdp_no_sync"].box)
