"""ux13: the PDF's recommendation sentence in Chinese has no space after "。" and none before "，". It read
"…（1 个节点，每节点 1 张）。 训练约需日历 1.5 天 ，费用约 ¥70（按需卡时）。" (render._html_plan joined the parts
with " "); English keeps "… (1 node of 1). Training takes about 1.5 calendar days and costs about …"."""

from __future__ import annotations

import re

from tests.test_report import ROOT, load_report_data


def _summary(lang: str) -> str:
    from gpuplanner.report.render import _html_plan, install_language

    data = load_report_data(ROOT / "examples" / "7b-lora-1x4090.json")
    install_language(lang)
    try:
        html = _html_plan(data)
    finally:
        install_language("en")
    return re.search(r"<p><b>(.*?)</b></p>", html).group(1)


def test_the_recommendation_sentence_reads_chinese(app):
    zh = _summary("zh_CN")
    assert "。训练约需日历" in zh and re.search(r"天，费用约 ¥", zh), zh
    assert "。 " not in zh and " ，" not in zh, zh
    en = _summary("en")
    assert re.search(r"\)\. Training takes about [\d.]+ (days|hours) in calendar time and costs about ¥", en), en


def test_a_catalogue_qualifier_inside_a_gpu_name_reads_chinese():
    from gpuplanner.formatting import gpu_display_name

    assert gpu_display_name("NVIDIA GB200 (per Blackwell GPU) 186GB", lang="zh_CN") == \
        "NVIDIA GB200（每颗 Blackwell GPU）186GB"
    assert gpu_display_name("NVIDIA B200 (HGX B200) 180GB", short=True, lang="zh_CN") == "B200（HGX B200）180GB"
    assert gpu_display_name("NVIDIA GB200 (per Blackwell GPU) 186GB", lang="en") == \
        "NVIDIA GB200 (per Blackwell GPU) 186GB"
