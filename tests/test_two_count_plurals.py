"""English sentences with two counts read each count's word right (no "(s)" left): every count's word sits right
after its placeholder (core.messages.english_plurals), in the core's messages and in the report's templates."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gpuplanner.cli import run_cli
from gpuplanner.core.messages import Msg

TS = Path(__file__).resolve().parents[1] / "gpuplanner" / "resources" / "i18n" / "gpuplanner_zh_CN.ts"


def test_every_two_count_template_puts_each_word_after_its_count():
    bad = []
    for src in re.findall(r"<source>(.*?)</source>", TS.read_text(encoding="utf-8"), re.S):
        n = src.count("(s)")
        after = len(re.findall(r"\{\w+(?::[^}]*)?\} [\w-]+\(s\)", src))
        if n > 1 and after < n:
            bad.append(src)
    assert not bad, bad


def test_rent_vs_build_sentence_reads_its_counts():
    text = "No purchase price is known for {n} server(s) with {g} GPU(s) each: enter one"
    assert Msg("Cost", text, {"n": 2, "g": 8}).render().startswith("No purchase price is known for 2 servers with 8 GPUs each")
    assert "1 server with 1 GPU each" in Msg("Cost", text, {"n": 1, "g": 1}).render()


def test_quote_report_billing_reads_both_counts():
    from gpuplanner.report.quotes_section import _fill

    assert _fill("{s} server(s) × {p} period(s)", s=1, p=3) == "1 server × 3 periods"
    assert _fill("{n} card(s) × {p} period(s)", n=16, p=1) == "16 cards × 1 period"


def test_the_cli_leaves_no_plural_mark(tmp_path, capsys):
    scn = {"model": {"preset": "llama-3-8b"}, "training": {"method": "full", "seq_len": 4096, "global_batch_size": 128},
           "parallel": {"zero": 3}, "hardware": {"gpu": "a100-sxm-80gb", "num_gpus": 16, "gpus_per_node": 8},
           "data": {"tokens": "2B"}, "constraints": {"currency": "CNY"}}
    f = tmp_path / "s.json"
    f.write_text(json.dumps(scn), encoding="utf-8")
    assert run_cli(["estimate", str(f), "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "2 servers with 8 GPUs each" in out and "(s)" not in out
