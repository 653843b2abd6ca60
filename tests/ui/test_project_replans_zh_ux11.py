"""ux11: the Project page's re-planned what-ifs ("参数量 ×2: 在同样的服务器上 … 都要顺延。 要保住 …") joined their
label with an ASCII ": " and their sentences with a space in Chinese; they now use the language's colon and
sentence joiner (formatting.colon, format_sentences), as the rest of the page does."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "shenzhen-7b-domain-project.gpuplan"


@pytest.mark.parametrize("lang", ["zh_CN", "en"])
def test_replanned_what_ifs_read_in_the_language(make_window, language, tmp_path, qtbot, lang):
    language.install(lang)
    path = tmp_path / "p.gpuplan"
    shutil.copy(EXAMPLE, path)
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.replans.text()),
                    timeout=60000)
    lines = page.replans.text().splitlines()
    assert len(lines) >= 2, lines
    for line in lines:
        if lang == "zh_CN":
            assert ": " not in line and "。 " not in line, line
            assert "：" in line, line
        else:
            assert ": " in line and ".  " not in line, line
