"""Round-13 hostile-input probe (bench/probe_hostile_r13.py): the holes it found, each as the user meets it.

1. A refusal named the field but not the value that failed ("training.precision: Input should be 'bf16', …"):
   the line now ends ``, got "fp4"`` (scenario files, plan files, kit results), at most 40 characters of it.
2. ``training.rl.rollout_len`` at or past ``seq_len`` with no ``prompt_len`` printed a derived negative prompt
   ("prompt + rollout (-9995904 + 10000000)") and named no field: it now names ``training.rl.rollout_len``.
3. ``training.recompute_modules`` took any number of repeats: 40,000 names printed a 540,000-character line per plan
   (6 MB for ``gpuplanner plan``, 8.5 s), and ``["mlp", "mlp"]`` read "dense MLP, dense MLP". Each module is now
   kept once (Megatron-Core reads the list as a set), so the list holds at most the seven modules.
4. An unknown ``hardware.gpu`` or ``constraints.gpu_candidates`` id named neither field.

Every test here failed before the fix.
"""

from __future__ import annotations

import copy
import io
import json
import sys
from pathlib import Path

import pytest

from tests.probe_helpers import cli as _cli
from tests.probe_helpers import one_line as _one_line

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = json.loads((ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json").read_text(encoding="utf-8"))
GRPO = json.loads((ROOT / "tests" / "data" / "examples_fixed" / "7b-grpo-lora-8xh100-vllm.json").read_text(encoding="utf-8"))
PROJECT = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
KIT = ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"




def _scenario(tmp_path: Path, base: dict, **paths) -> Path:
    d = copy.deepcopy(base)
    for path, value in paths.items():
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        if value is None:
            node.pop(keys[-1], None)
        else:
            node[keys[-1]] = value
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    return f




# 1 ----------------------------------------------------------------------------------- the value that failed


@pytest.mark.parametrize("paths, words", [
    ({"training__precision": "fp4"}, ("training.precision", 'got "fp4"')),
    ({"hardware__num_gpus": 2**63}, ("hardware.num_gpus", "got 9223372036854775808")),
    ({"training__lora_dropout": 1.0}, ("training.lora_dropout", "got 1.0")),
    ({"training__micro_batch_size": True}, ("training.micro_batch_size", "got true")),
    ({"training__rl__sleep_level": 3}, ("training.rl.sleep_level", "got 3")),
    ({"training__framework": "megatron", "training__recompute": "megatron_selective", "parallel__zero": 1,
      "training__recompute_modules": ["core_attn", "gated_delta_net"]},
     ("training.recompute_modules.1", 'got "gated_delta_net"')),
    ({"parallel__ep_a2a_overlap": "sometimes"}, ("parallel.ep_a2a_overlap", 'got "sometimes"')),
    ({"training__recompute_modules": "core_attn"}, ("training.recompute_modules", "valid list", 'got "core_attn"')),
])
def test_a_refusal_names_the_value_that_failed(tmp_path, paths, words):
    rc, _, err = _cli(["estimate", str(_scenario(tmp_path, EXAMPLE, **paths))])
    line = _one_line(err)
    assert rc == 2 and all(w in line for w in words), line


def test_a_long_or_hostile_value_is_cut_and_escaped(tmp_path):
    rc, _, err = _cli(["estimate", str(_scenario(tmp_path, EXAMPLE, training__precision="\x1b[2J" + "x" * 5000))])
    line = _one_line(err)
    assert rc == 2 and 'got "\\u001b[2Jxxx' in line and line.endswith("…") and "x" * 60 not in line, line


def test_a_plan_file_and_a_kit_result_name_the_value(tmp_path):
    plan = json.loads(PROJECT.read_text(encoding="utf-8"))
    serve = next(p for p in plan["project"]["phases"] if p["kind"] == "inference")
    serve["inference"]["engine"] = "triton"
    (tmp_path / "p.gpuplan").write_text(json.dumps(plan), encoding="utf-8")
    rc, _, err = _cli(["project", str(tmp_path / "p.gpuplan")])
    assert rc == 2 and 'inference.engine' in _one_line(err) and 'got "triton"' in err, err
    (tmp_path / "r.json").write_text(KIT.read_text(encoding="utf-8").replace('"busbw_gbs": 330.0', '"busbw_gbs": "fast"',
                                                                             1), encoding="utf-8")
    rc, _, err = _cli(["kit-import", str(ROOT / "examples" / "7b-lora-1x4090.json"), str(tmp_path / "r.json")])
    assert rc == 2 and "allreduce[0].busbw_gbs" in _one_line(err) and 'got "fast"' in err, err


def test_the_value_is_shown_in_chinese_sentences_too(tmp_path):
    rc, _, err = _cli(["estimate", str(_scenario(tmp_path, EXAMPLE, training__precision="fp4")), "--lang", "zh_CN"])
    line = _one_line(err)
    assert rc == 2 and '实际为 "fp4"' in line and ", got" not in line, line


# 2 ---------------------------------------------------------------------------- rollout_len past seq_len


@pytest.mark.parametrize("rollout", [GRPO["training"]["seq_len"], 10_000_000])
def test_rollout_len_past_seq_len_names_the_field_and_its_value(tmp_path, rollout):
    f = _scenario(tmp_path, GRPO, training__rl__rollout_len=rollout, training__rl__prompt_len=None)
    rc, _, err = _cli(["estimate", str(f)])
    line = _one_line(err)
    assert rc == 2 and f"training.rl.rollout_len={rollout}" in line and "(-" not in line and "+" not in line, line
    assert f"seq_len={GRPO['training']['seq_len']}" in line


def test_a_prompt_that_leaves_one_token_still_estimates(tmp_path):
    f = _scenario(tmp_path, GRPO, training__rl__rollout_len=GRPO["training"]["seq_len"] - 1,
                  training__rl__prompt_len=None)
    assert _cli(["estimate", str(f)])[0] == 0


# 3 ---------------------------------------------------------------------------------- recompute_modules


def test_recompute_modules_keep_each_module_once():
    from gpuplanner.core.recompute import label_msg
    from gpuplanner.core.scenario import scenario_from_dict

    d = copy.deepcopy(EXAMPLE)
    d["training"].update(framework="megatron", recompute="megatron_selective",
                         recompute_modules=["mlp", "mlp", "core_attn"] + ["core_attn", "mlp"] * 20_000)
    d["parallel"]["zero"] = 1
    s = scenario_from_dict(d)
    assert s.training.recompute_modules == ["mlp", "core_attn"]
    assert str(label_msg("megatron_selective", s.training.recompute_modules)) == "selective, dense MLP, attention core"


def test_recompute_modules_repeats_do_not_multiply_the_plan_table(tmp_path):
    f = _scenario(tmp_path, EXAMPLE, training__framework="megatron", training__recompute="megatron_selective",
                  parallel__zero=1, training__recompute_modules=["core_attn", "mlp"] * 5000)
    rc, out, err = _cli(["plan", str(f), "--top", "2"])
    assert rc == 0, err
    assert max(len(line) for line in out.splitlines()) < 600 and "dense MLP, attention core, dense MLP" not in out


# 4 ----------------------------------------------------------------------------------- unknown GPU ids


@pytest.mark.parametrize("cmd, paths, field", [
    ("estimate", {"hardware__gpu": "h100<b>x</b>"}, "hardware.gpu"),
    ("plan", {"constraints__gpu_candidates": ["zz-gpu"]}, "constraints.gpu_candidates"),
])
def test_an_unknown_gpu_names_its_field(tmp_path, cmd, paths, field):
    rc, _, err = _cli([cmd, str(_scenario(tmp_path, EXAMPLE, **paths))])
    line = _one_line(err)
    assert rc == 2 and f"{field}: unknown GPU" in line, line


# the probe itself ------------------------------------------------------------------------------------------


def test_every_probe_case_passes(capsys, monkeypatch):
    import importlib.util

    spec = importlib.util.spec_from_file_location("probe_hostile_r13", ROOT / "bench" / "probe_hostile_r13.py")
    probe = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, probe)  # its dataclass looks its module up
    spec.loader.exec_module(probe)
    rc = probe.main([])
    out = capsys.readouterr().out
    assert rc == 0, "\n".join(line for line in out.splitlines() if line.startswith("FAIL"))


# 5 ------------------------------------------------------------------- a written sheet with control characters


def test_a_vendor_name_with_control_characters_exports_to_xlsx():
    """A bell or an escape in a vendor's name (a CSV cell, a plan file's quote) made openpyxl raise
    IllegalCharacterError: the Quotes page's export failed with a traceback. Now shown as U+FFFD; formula starts
    stay text."""
    import openpyxl

    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io import quote_sheets

    base = quote_sheets.read_quotes(ROOT / "examples" / "quotes" / "autodl-a800.csv")[0].model_dump()
    q = VendorQuote.model_validate({**base, "provider": "=a\x07b\x1b[2J", "region": "r\x01"})
    wb = openpyxl.load_workbook(io.BytesIO(quote_sheets.write_xlsx([q])))
    ws = wb.worksheets[0]
    cells = {(r[0].value, r[1].value): r[2] for r in ws.iter_rows() if r[0].value in ("vendor",)}
    assert cells[("vendor", "provider")].value == "=a\ufffdb\ufffd[2J" and cells[("vendor", "provider")].data_type == "s"
    assert cells[("vendor", "region")].value == "r\ufffd"
    assert ws.title == "=a\ufffdb\ufffd2J"


# 6 ------------------------------------------------------------------------------------- argument errors


def test_a_commands_argument_error_starts_with_the_command_not_the_usage():
    """argparse built each command's prog from the top-level usage string: "gpuplanner: error: [-h] [--version]
    [--self-test] [FILE | COMMAND ...] plan: argument --top: …" (and the same in each command's usage line)."""
    rc, out, err = _cli(["plan", "x.json", "--top", "0"])
    line = _one_line(err)
    assert rc == 2 and line.startswith("gpuplanner: error: plan: argument --top:") and "[-h]" not in line, line
    rc, out, err = _cli(["plan", "--help"])
    assert rc == 0 and out.startswith("usage: gpuplanner plan [-h]"), out[:200]


def test_a_bad_option_for_the_app_is_one_line(capsys):
    """``gpuplanner --bogus`` (the app's own parser) printed argparse's usage line before the error: two lines."""
    from gpuplanner.ui.app import run_app

    with pytest.raises(SystemExit) as info:
        run_app(["--bogus"])
    err = capsys.readouterr().err
    assert info.value.code == 2 and _one_line(err) == "gpuplanner: error: unrecognized arguments: --bogus"
