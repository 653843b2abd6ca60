"""The PDF's cost-against-time chart names each plan's GPU in the report's language (issue 35 round 10, ux16):
the zh report of the 70B CPT example labelled its points "32× GB200 (per Blackwell GPU) 186GB", where the app's
Plans page and the rest of the zh report read "GB200（每颗 Blackwell GPU）186GB" (formatting.gpu_display_name)."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("lang, want", [("en", "GB200 (per Blackwell GPU) 186GB"),
                                        ("zh_CN", "GB200（每颗 Blackwell GPU）186GB")])
def test_chart_gpu_name_in_the_report_language(monkeypatch, lang, want):
    from gpuplanner import formatting
    from gpuplanner.report import content

    monkeypatch.setattr(formatting, "current_language", lambda: lang)
    assert content._short_gpu("NVIDIA GB200 (per Blackwell GPU) 186GB") == want
    assert content._short_gpu("NVIDIA H800 SXM5 80GB (China)") == "H800 SXM5 80GB"  # short, as before
    assert content._short_gpu("NVIDIA GeForce RTX 4090 24GB") == "RTX 4090 24GB"
