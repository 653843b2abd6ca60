"""The CLI's text tables line up in Chinese too: a Chinese character takes two terminal columns, so columns are
padded by display width, not by character count. Checked on the rent-or-build table of ``estimate`` (the amounts
end in one column) and on ``gpus`` (every column starts in one column; the regional suffix in Chinese)."""

from __future__ import annotations

from pathlib import Path

from gpuplanner.cli import run_cli
from gpuplanner.commands._args import display_width

EX = Path(__file__).resolve().parents[1] / "examples"


def _out(capsys, *args) -> list[str]:
    assert run_cli(list(args)) == 0
    return capsys.readouterr().out.splitlines()


def _money_ends(lines: list[str], head: str) -> set[int]:
    """The display column where each amount of the rent-or-build table ends."""
    rows = lines[lines.index(head) + 2:]
    rows = rows[:next(i for i, x in enumerate(rows) if "¥" not in x and "$" not in x)]
    assert len(rows) == 7, rows  # rent, five parts of building, build total
    ends = set()
    for x in rows:
        amount_end = x.index("¥") + len(x[x.index("¥"):].split(" ")[0])
        ends.add(display_width(x[:amount_end]))
    return ends


def test_rent_or_build_amounts_line_up(capsys):
    for lang, head in (("zh_CN", "租用还是自建"), ("en", "Rent or build")):
        lines = _out(capsys, "estimate", str(EX / "7b-lora-1x4090.json"), "--lang", lang)
        assert len(_money_ends(lines, head)) == 1, (lang, lines)


def test_gpus_table_columns_line_up_in_chinese(capsys):
    lines = _out(capsys, "gpus", "--lang", "zh_CN")
    dashes = lines[1]
    starts = [i + 1 for i, c in enumerate(dashes) if c == " " and dashes[i + 1:i + 2] == "-"]
    assert len(starts) == 6, dashes
    for x in [lines[0], *lines[2:]]:
        for s in starts:  # each column starts after two spaces, at the same display column as its dashes
            head = next(i for i in range(len(x) + 1) if display_width(x[:i]) >= s)
            assert display_width(x[:head]) == s and x[head - 2:head] == "  " and x[head] != " ", (x, s)
    h800 = next(x for x in lines if x.startswith("h800-sxm-80gb"))
    assert "（中国特供版）" in h800 and "(China)" not in h800, h800
    assert "2,250" in next(x for x in lines if x.startswith("b200-180gb"))
