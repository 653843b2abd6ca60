"""Screenshots of the issue 35 round-5 ux6 pass, at 1280×800 in English and Simplified Chinese (offscreen): the
Data page's token field after typing a count in 万亿 (shown through ``format_tokens`` in the UI language) and after
a bad text (its one-line refusal), a framework refusal in the live panel (DeepSpeed with TP × PP and ZeRO-3), and
the Plans details' "Priced from" line of an H800 plan (a card-hour and a monthly figure, joined the language's way).

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen python scripts/screenshots_issue35_r5_ux6.py [OUT_DIR]
(OUT_DIR defaults to docs/screenshots/issue35-r5-ux6.)
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import each_language, open_window, qt_app, spin  # noqa: E402
from screenshots_issue35_r5_ux import A100_PLAN, _wait_search  # noqa: E402

#: the same 8B full fine-tuning, on H800 in CNY: its default price has a card-hour and a monthly figure
H800_PLAN = json.loads(json.dumps(A100_PLAN))
H800_PLAN["hardware"].update({"gpu": "h800-sxm-80gb", "num_gpus": 8})
H800_PLAN["constraints"].update({"gpu_candidates": ["h800-sxm-80gb"], "max_gpus": 8, "objective": "cheapest"})


def _type(app, edit, text: str) -> None:
    edit.setFocus()
    edit.setText(text)
    edit.textEdited.emit(text)
    edit.editingFinished.emit()
    spin(app, 0.5)


def _data(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json", show_errors=False)
    _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("data"))
    page = w.page("data")
    page.mode_buttons["tokens"].setChecked(True)
    _type(app, page.tokens, "1.41万亿")
    w.grab().save(str(out / f"data-tokens-wanyi{suffix}.png"))
    _type(app, page.tokens, "20亿亿")
    w.grab().save(str(out / f"data-tokens-refused{suffix}.png"))
    _type(app, page.tokens, "20亿")
    w.model.set_dirty(False)


def _refusal(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    assert w.open_path(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json", show_errors=False)
    _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("training"))
    w.model.set("parallel.auto", False)
    w.model.set("training.framework", "deepspeed")
    w.model.set("hardware.num_gpus", 16)
    for key, v in (("tp", 2), ("pp", 2), ("zero", 3)):
        w.model.set(f"parallel.{key}", v)
    spin(app, 1.5)
    w.grab().save(str(out / f"live-framework-refusal{suffix}.png"))
    w.live.grab().save(str(out / f"live-framework-refusal-panel{suffix}.png"))
    w.model.set_dirty(False)


def _priced_from(app, w, out: Path, suffix: str) -> None:
    from gpuplanner.ui.main_window import PAGE_KEYS

    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "h800.json"
        f.write_text(json.dumps(H800_PLAN), encoding="utf-8")
        assert w.open_path(f, show_errors=False)
        _wait_search(app, w)
    w.go_to(PAGE_KEYS.index("plans"))
    page = w.page("plans")
    if page.table_model.rowCount() > 0:
        page.view.selectRow(0)
    spin(app, 0.6)
    page.details.find(page.tr("Priced from: {0} · region {1} · {2}, {3}").split("{0}")[0])
    bar = page.details.verticalScrollBar()
    bar.setValue(bar.value() + page.details.cursorRect().top() - 120)
    spin(app, 0.3)
    w.grab().save(str(out / f"plans-priced-from{suffix}.png"))
    w.model.set_dirty(False)


def main(out: Path) -> int:
    from gpuplanner.ui.app import install_message_filter

    install_message_filter()
    app = qt_app()
    out.mkdir(parents=True, exist_ok=True)
    for lang in each_language(app):
        suffix = "" if lang == "en" else f"-{lang}"
        w = open_window(app)
        _data(app, w, out, suffix)
        _refusal(app, w, out, suffix)
        _priced_from(app, w, out, suffix)
        w.model.set_dirty(False)
        w.close()
        print(lang, "ok")
    return 0


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    sys.exit(main(Path(args[0]) if args else ROOT / "docs" / "screenshots" / "issue35-r5-ux6"))
