"""Round 18 (helper cli18): a new user's first hour with the CLI (docs/notes/2026-12-08/issue-35-r18-cli18.md):

1. ``kit --help`` at 80 columns cut the command it tells the user to type in two: "'gpuplanner kit-" / "import'";
2. ``estimate`` printed "Layout  megatron: tp=1 pp=1 … zero=3 mbs=2 grad_accum=8 recompute=none" and "MFU / HFU"
   with no word on what any of them is, to someone who has never heard of ZeRO (``plan`` explains its layouts in
   sentences; ``estimate`` said nothing);
3. a write refused in a folder that exists (``kit -o /proc/x.sh``) said "the folder does not exist";
4. ``project``: the "search's best plan" line stood between the phase table's header and its rows;
5. ``project`` (and every view of the what-if): "No plan … within 0.77 days (the fastest: 1.2 days)" under "its slot
   of 18.4 hours" — the same slot in two units two lines apart; now in the slot's unit, as the overrun sentence;
6. the PDF's notes label in Chinese kept the ASCII colon: "备注: …";
7. ``kit-import --lang zh_CN`` printed "[warn] Measured on the CPU (gloo, tiny sizes): …" in English (a finding
   made of a bare marked string, not a message with its id; three more such findings in verify/);
8. ``kit-import``'s before/after table: "GPU-hours" rows and "(cost = GPU-hours × ¥1.98 per card-hour)", two names
   for one unit in one formula.
"""

from __future__ import annotations

import errno
import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "llama3-8b-full.json"


@pytest.mark.parametrize("command", ["kit", "kit-import", "plan", "quotes", "report", "estimate", "project", None])
def test_help_never_cuts_a_word_at_its_hyphen(capsys, monkeypatch, command):
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit) as ex:
        run_cli(([command] if command else []) + ["--help"])
    assert ex.value.code == 0
    out = capsys.readouterr().out
    # a line ending in "letter-" continued by a letter on the next: a word or command cut at its hyphen
    assert not re.search(r"[A-Za-z]-\n\s*[A-Za-z]", out), out
    if command == "kit":
        assert "kit-import" in out


@pytest.mark.parametrize(("lang", "zero", "mfu"), [
    ("en", "zero: ZeRO stage, what is split over the dp copies: 0 nothing, 1 optimizer states, 2 and gradients, "
           "3 and weights", "(MFU: the share of the GPUs' peak FLOP/s spent on the model's own math"),
    ("zh_CN", "zero：ZeRO 阶段，即在 dp 个副本间切分什么：0 不切分，1 优化器状态，2 再加梯度，3 再加权重",
     "（MFU：GPU 峰值 FLOP/s 中用于模型本身计算的比例"),
])
def test_the_estimates_layout_keys_are_explained_under_it(capsys, lang, zero, mfu):
    assert run_cli(["estimate", str(EXAMPLE), "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, ln in enumerate(lines) if "tp=1 pp=1" in ln and "zero=3" in ln)
    legend = lines[at + 1]
    assert legend.startswith(" " * 13), legend  # under the value, not a new label
    for key in ("tp", "pp", "cp", "ep", "vpp", "dp", "zero", "mbs", "grad_accum", "recompute"):
        assert re.search(rf"[（(；;] ?{key}[:：]", legend), (key, legend)  # every key of the Layout line, once
    assert zero in legend
    at = next(i for i, ln in enumerate(lines) if ln.strip().startswith("MFU / HFU"))
    assert lines[at + 1].strip().startswith(mfu), lines[at + 1]


def test_a_refused_write_in_a_folder_that_is_there_does_not_blame_the_folder(tmp_path):
    from gpuplanner.io.planfile import os_reason

    there = FileNotFoundError(errno.ENOENT, "No such file or directory", str(tmp_path / ".x.sh.tmp"))
    assert os_reason(there) == "this folder does not take new files"
    missing = FileNotFoundError(errno.ENOENT, "No such file or directory", str(tmp_path / "nodir" / ".x.sh.tmp"))
    assert os_reason(missing) == "the folder does not exist"
    assert os_reason(FileNotFoundError()) == "the folder does not exist"  # check_writable_folder's: no file named


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs /proc")
@pytest.mark.parametrize(("lang", "why"), [("en", "(this folder does not take new files)"),
                                           ("zh_CN", "（该文件夹不接受新文件）")])
def test_kit_into_proc_says_the_folder_refuses(capsys, lang, why):
    assert run_cli(["kit", str(EXAMPLE), "-o", "/proc/cli18-x.sh", "--lang", lang]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and why in err, err


def test_the_better_plan_line_stands_above_the_phase_table(capsys):
    path = ROOT / "examples" / "8b-full-8xh100.gpuplan"  # a fixed layout the search beats (choice15)
    assert run_cli(["project", str(path), "--lang", "en"]) == 0
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, ln in enumerate(lines) if ln.startswith("phase ") and ln.rstrip().endswith("cost"))
    assert lines[0].startswith("> By your goal"), lines[:3]
    assert not lines[head + 1].startswith(">"), lines[head:head + 2]  # the header's next line is a phase row
    assert lines[head + 1].startswith("training"), lines[head + 1]


@pytest.mark.parametrize(("lang", "slot", "within"), [
    ("en", "overruns its slot of 18.4 hours", r"finishes the changed job within 18\.4 hours \(the fastest: [\d.]+ hours\)"),
    ("zh_CN", "比为其安排的 18.4 小时多出", r"能在 18\.4 小时内完成变化后的任务（最快：[\d.]+ 小时）"),
])
def test_the_no_plan_sentence_reads_in_its_slots_unit(capsys, lang, slot, within):
    # examples/7b-grpo-lora-vllm.json: one 18.4-hour phase; ten times the data fits no plan within the slot
    assert run_cli(["project", str(ROOT / "examples" / "7b-grpo-lora-vllm.json"), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert slot in out, out
    assert re.search(within, out), out
    assert "0.77" not in out


@pytest.mark.parametrize(("code", "label"), [("en", "<b>Notes:</b> "), ("zh_CN", "<b>备注：</b> ")])
def test_the_pdfs_notes_label_takes_the_languages_colon(app, request, code, label):
    from datetime import datetime, timezone
    from types import SimpleNamespace

    from gpuplanner.report.render import _html_title, install_language

    install_language(None if code == "en" else code)
    request.addfinalizer(lambda: install_language(None))
    data = SimpleNamespace(date=datetime(2026, 12, 8, tzinfo=timezone.utc), author="", app_version="0.1.0",
                           source_file="x.gpuplan", title="T", notes="LoRA on one card", warnings=[])
    html = _html_title(data)
    assert label + "LoRA on one card" in html, html
    if code == "zh_CN":
        assert "备注:" not in html


KIT_RESULT = ROOT / "tests" / "data" / "kit" / "result-cpu-run.json"


@pytest.mark.parametrize(("lang", "warn", "formula", "row"), [
    ("en", "[warn] Measured on the CPU (gloo, tiny sizes)", "(cost = card-hours × ¥1.98 per card-hour, no overheads)",
     "  card-hours "),
    ("zh_CN", "[warn] 在 CPU 上测得（gloo，极小规模）", "（费用 = 卡时 × 每卡时 ¥1.98，不含其他开销）", "  卡时 "),
])
def test_kit_import_says_the_cpu_warning_in_the_language_and_one_unit(capsys, lang, warn, formula, row):
    assert run_cli(["kit-import", str(ROOT / "examples" / "7b-lora-1x4090.json"), str(KIT_RESULT),
                    "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert warn in out and formula in out, out
    assert any(ln.startswith(row) for ln in out.splitlines()), out
    assert "GPU-hours" not in out
    if lang == "zh_CN":
        assert "Measured on the CPU" not in out


def test_every_verify_finding_keeps_its_message_id():
    import gpuplanner.verify.acceptance as acc
    import gpuplanner.verify.topology as topo

    # no Finding built from a bare marked string: the source has none left
    for mod in (acc, topo):
        src = Path(mod.__file__).read_text(encoding="utf-8")
        assert not re.search(r"Finding\(\"\w+\", QT_TRANSLATE_NOOP", src), mod.__name__
