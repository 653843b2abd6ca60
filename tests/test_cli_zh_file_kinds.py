"""A refused file names what it should have been in the CLI's language: "rtx4090：是文件夹，不是报价单", not
"…不是quote sheet" (the quote sheet's and the plan file's names were not marked for translation)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

EX = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize("lang, word, other", [("zh_CN", "报价单", "quote sheet"), ("en", "quote sheet", "报价单")])
def test_a_folder_given_as_a_quote_sheet(capsys, tmp_path, lang, word, other):
    folder = tmp_path / "sheets"
    folder.mkdir()
    assert run_cli(["quotes", str(EX / "shenzhen-7b-domain-project.gpuplan"), str(folder), "--lang", lang]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and word in err and other not in err, err
