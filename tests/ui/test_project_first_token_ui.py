"""One plan, one answer for a serving phase's first token (issue 35 r11 parity11): the Project page shows the idle
replica's first token (serve11's chunked prefill: vLLM V1's 8,192-token budget) with the engine and KV cache per GPU,
the same sentence `gpuplanner project` prints, read from the phase's ServingSize; before, the window showed none of
it while the CLI and the PDF did."""

from __future__ import annotations

import json
import re
from pathlib import Path

from gpuplanner.cli import run_cli

SRC = Path(__file__).resolve().parents[2] / "tests" / "data" / "expert_review_r11" / "serve-32b-200-users.gpuplan"


def test_the_project_page_shows_the_first_token_as_the_cli(make_window, language, tmp_path, qtbot, capsys):
    language.install("en")
    d = json.loads(SRC.read_text(encoding="utf-8"))
    for ph in d["project"]["phases"]:
        if ph["kind"] == "inference":
            ph["inference"]["context_tokens"] = 16384  # a prompt over the 8,192-token chunk
    path = tmp_path / SRC.name
    path.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["project", str(path), "--lang", "en"]) == 0
    cli = " ".join(capsys.readouterr().out.split())
    m = re.search(r"vLLM: KV cache [\d.,]+ GiB per GPU, first token in [\d,]+ ms on an idle replica", cli)
    assert m, cli[-2000:]
    w = make_window(search_enabled=False)
    assert w.open_path(path, show_errors=False)
    w.go_to(7)
    page = w.pages[7]
    qtbot.waitUntil(lambda: not page.busy() and page.result is not None and bool(page.total.text()), timeout=60000)
    text = " ".join(page.advice.text().split())
    assert text.count(m.group(0)) == 1, text
    (s,) = [ph.serving for ph in page.result.phases if ph.serving is not None]
    assert f"first token in {round(s.ttft_s * 1e3):,} ms" in text
