"""Round 17 (helper ux26): a new user's first hour outside the window (the CLI on every example, the Project's
rent-or-build line, the vendor comparison's HTML), English and Chinese. The window's side:
tests/ui/test_ux26_r17_ui.py; the note: docs/notes/2026-12-07/issue-35-r17-ux26.md.

1. ``gpuplanner frobnicate --lang zh_CN`` answered in English ("unknown command 'frobnicate' (commands: …)") where
   every other error of that command line is Chinese.
2. The Project page and ``gpuplanner project`` of the default document (one 7.9-hour phase) said "Over 7.9 hours
   (1 job like this) renting costs ¥667; buying and running one 8-GPU server costs ¥2,000,604", while the plan's own
   line (Plans page, PDF, ``estimate``; ux25) says a job of 7.9 hours is no reason to buy a server.
3. The vendor comparison wrote its rank as "#" over "1" (a 4 % column); the cell keeps "#1" on one line.
4. Three marked sentences wrote ASCII quotes ("schedulable", "Use this layout") where every other names a control
   or a word in curly quotes (“Choose the framework”).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.fixture(scope="module")
def default_doc(tmp_path_factory):
    """The scenario a new document starts from (ui.model.default_scenario) as a file."""
    from gpuplanner.ui.model import default_scenario

    path = tmp_path_factory.mktemp("ux26") / "default.json"
    path.write_text(default_scenario().model_dump_json(exclude_defaults=True), encoding="utf-8")
    return path


# ------------------------------------------------------------------------ 1. an unknown command

@pytest.mark.parametrize(("argv", "zh"), [
    (["frobnicate"], "未知命令 'frobnicate'（可用命令："),
    (["estimte"], "未知命令 'estimte'；你是不是要找 'estimate'？"),
])
def test_an_unknown_command_is_said_in_the_language_asked_for(capsys, argv, zh):
    from gpuplanner.__main__ import main

    assert main([*argv, "--lang", "zh_CN"]) == 2
    err = capsys.readouterr().err.strip()
    assert zh in err and "unknown command" not in err, err
    assert main([*argv, "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"gpuplanner: error: unknown command '{argv[0]}'"), err


def test_the_launchers_sentences_match_their_patterns():
    """Each sentence ``__main__.not_an_app_argument`` writes has its pattern (else it stays English)."""
    from gpuplanner.__main__ import not_an_app_argument
    from gpuplanner.commands._args import parse_error_text

    for argv in (["frobnicate"], ["estimte"], [str(ROOT / "examples")], ["no/such/file.gpuplan"]):
        sentence = not_an_app_argument(argv)
        assert sentence is not None
        assert parse_error_text(sentence, lambda ctx, t: "<" + t + ">").startswith("<"), sentence


# ------------------------------------------------------------------------ 2. the project's short job

@pytest.mark.parametrize(("lang", "said", "not_said"), [
    ("en", "is no reason to buy one 8-GPU server (¥2,000,000)", "job like this"),
    ("zh_CN", "不足以成为购买 1 台 8 卡服务器（¥2,000,000）的理由", "个同类任务"),
])
def test_a_short_one_phase_project_says_what_its_plan_says(capsys, default_doc, lang, said, not_said):
    assert run_cli(["project", str(default_doc), "--lang", lang]) == 0
    out = capsys.readouterr().out
    assert said in out and not_said not in out, out
    assert run_cli(["estimate", str(default_doc), "--lang", lang]) == 0
    assert said in capsys.readouterr().out  # the plan's own line says the same


def test_a_long_or_many_phase_project_keeps_the_comparison(monkeypatch):
    """Only a single GPU phase under four weeks is one short job (cost.SHORT_JOB_MONTHS)."""
    from types import SimpleNamespace

    from gpuplanner.core import project as proj

    seen = {}
    monkeypatch.setattr(proj.costmod, "default_build_inputs", lambda *a, **k: object())
    monkeypatch.setattr(proj.costmod, "rent_vs_build", lambda b, **kw: seen.update(kw))
    # kind/name: serve18's rent-vs-build line names the phases' work in their own terms (core.project._rent_build_work)
    phase = SimpleNamespace(resource="gpu", cost=667.0, device="h800-sxm-80gb", gpu_hours=59.0, count=8,
                            evaluation=None, kind="sft", name="sft", hours_per_week=168.0, weeks=1.0)
    for phases, weeks, single in (((phase,), 7.9 / 24 / 7, True), ((phase,), 3.9, True), ((phase,), 6.0, False),
                                  ((phase, phase), 1.0, False)):
        seen.clear()
        proj.project_rent_vs_build(phases, None, weeks)
        assert seen["single_job"] is single, (len(phases), weeks)


# ------------------------------------------------------------------------ 3. the comparison's rank

def test_the_rank_cell_does_not_wrap():
    from gpuplanner.report.quotes_section import _table

    html = _table([["#1", "AutoDL"]], ["#", "Vendor"], [4, 96], nowrap_cols=frozenset({0}))
    assert '<td style="white-space: nowrap">#1</td>' in html
    assert "<td>AutoDL</td>" in html


# ------------------------------------------------------------------------ 4. curly quotes

def test_the_marked_sentences_quote_the_curly_way():
    import inspect

    from gpuplanner.app import answer
    from gpuplanner.core import checklist, quotes

    for text in quotes.QUESTIONS.values():
        assert '"' not in text, text
    src = inspect.getsource(checklist) + inspect.getsource(answer)
    assert 'not \\"schedulable\\"' not in src and '\\"Use this layout\\"' not in src
    assert "“schedulable”" in inspect.getsource(checklist)
    assert "Take it with “Use this layout” on the Plans page" in inspect.getsource(answer)
