"""Round 18 (helper cli18): a new user's first hour with the CLI (docs/notes/2026-12-08/issue-35-r18-cli18.md):

1. ``kit --help`` at 80 columns cut the command it tells the user to type in two: "'gpuplanner kit-" / "import'";
2. ``estimate`` printed "Layout  megatron: tp=1 pp=1 … zero=3 mbs=2 grad_accum=8 recompute=none" and "MFU / HFU"
   with no word on what any of them is, to someone who has never heard of ZeRO (``plan`` explains its layouts in
   sentences; ``estimate`` said nothing);
3. a write refused in a folder that exists (``kit -o /proc/x.sh``) said "the folder does not exist".
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
