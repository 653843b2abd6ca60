"""A parameter count has one rule in every view (issue 35 round 11, ux17): ux16 saw the Model page of Mixtral 8x7B
read "46.7B" total beside "12.88B" active (format_compact at four significant digits drops trailing zeros, so
46.70 lost a decimal that 12.88 kept). ``formatting.format_params`` keeps three significant digits and its zeros;
``gpuplanner estimate`` and the report use it too."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from gpuplanner.formatting import format_params

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("value, text", [
    (46_702_792_704, "46.7B"), (12_879_921_152, "12.9B"), (8_030_261_248, "8.03B"), (141e9, "141B"),
    (20_971_520, "21.0M"), (7e9, "7.00B"), (999.6e6, "1.00B"), (1.5e12, "1.50T"), (512, "512"), (0, "0"),
])
def test_three_significant_digits_zeros_kept(value, text):
    assert format_params(value) == text


def test_side_by_side_figures_share_a_precision():
    def digits(s: str) -> int:
        return len(re.sub(r"\D", "", s))

    for total, active in ((46_702_792_704, 12_879_921_152), (141e9, 39e9), (30.5e9, 3.3e9), (235e9, 22e9)):
        assert digits(format_params(total)) == digits(format_params(active)) == 3, (total, active)


def test_estimate_cli_says_total_and_active_with_one_precision():
    out = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate", str(ROOT / "examples/mixtral-8x7b-ep8-16xa800.json"),
                          "--json"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    p = json.loads(out.stdout)["params"]
    text = subprocess.run([sys.executable, "-m", "gpuplanner", "estimate",
                           str(ROOT / "examples/mixtral-8x7b-ep8-16xa800.json")], capture_output=True, text=True,
                          timeout=300).stdout
    assert f"total {format_params(p['total'])}" in text and f"active {format_params(p['active'])}" in text, text
    assert "12.88B" not in text and "12.9B" in text
