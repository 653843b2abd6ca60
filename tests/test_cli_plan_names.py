"""The ``plan`` table names the framework and the recompute policy as the Plans page and the report do
("DeepSpeed", "no recompute" / "不重计算"), in both languages; it printed the scenario's identifiers ("deepspeed",
"none") in Chinese text too. The GPU and failed-rule columns keep their identifiers (to paste into a scenario, or
look up with ``gpuplanner gpus``), and their headers say so."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

EX = Path(__file__).resolve().parents[1] / "examples"


def _table(capsys, lang: str) -> list[list[str]]:
    # (top 2: both without recompute; the 2-node plan that was #3 ranks after since issue 35 round 8, price_fabric)
    assert run_cli(["plan", str(EX / "shenzhen-7b-domain-project.gpuplan"), "--top", "2", "--lang", lang]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("#  "))
    end = next(i for i in range(start + 1, len(lines)) if not lines[i].strip())
    return [x.split() for x in lines[start:end]]


@pytest.mark.parametrize("lang, gpu_head, rules_head, rc", [
    ("en", "GPU id", "rule ids failed", "no recompute"),
    ("zh_CN", "GPU 标识", "未通过的规则（标识）", "不重计算")])
def test_plan_table_prints_names_and_says_which_columns_are_ids(capsys, lang, gpu_head, rules_head, rc):
    table = _table(capsys, lang)
    head = " ".join(table[0])
    assert gpu_head in head and head.endswith(rules_head)
    for row in table[1:]:
        assert "DeepSpeed" in row and "deepspeed" not in row, row
        assert "none" not in row, row
        assert " ".join(row).count(rc) == 1, row
        assert row[1].startswith("h800-"), row  # the GPU column: the catalog id
