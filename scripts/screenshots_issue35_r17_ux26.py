"""A new user's first hour (issue 35 round 17, ux26), 1280×800 offscreen, English and Simplified Chinese: the
tour of ``_screens.first_hour`` plus every dialog a first hour meets (the menus, About, Report author, Add a
custom GPU, Revert, unsaved changes, a file that cannot be read, Recover unsaved work), a save and a reopen.
What was mended is in docs/notes/2026-12-07/issue-35-r17-ux26.md.

Run: PYTHONPATH=. QT_QPA_PLATFORM=offscreen GPUPLANNER_CACHE_DIR=/tmp/gpc-fresh \\
     python scripts/screenshots_issue35_r17_ux26.py OUT_DIR [first,dialogs]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _screens import first_hour, grab, open_window, run_parts, spin  # noqa: E402


def _grab_modal(app, out, name: str, suffix: str, trigger) -> None:
    """Runs ``trigger`` (which opens a modal dialog), saves the dialog as ``OUT/NAME{suffix}.png`` and closes it."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    done = []

    def take():
        if done:
            return
        d = QApplication.activeModalWidget()
        if d is None:
            QTimer.singleShot(100, take)
            return
        done.append(d)
        spin(app, 0.3)
        d.grab().save(str(out / f"{name}{suffix}.png"))
        d.reject() if hasattr(d, "reject") else d.close()

    QTimer.singleShot(300, take)
    trigger()
    if not done:
        done.append(None)
        print("no dialog:", name, suffix)


def dialogs(app, out, suffix: str) -> None:
    """The menus, each dialog of a first hour, a save and a reopen."""
    from gpuplanner.ui.main_window import PAGE_KEYS

    w = open_window(app, search=True)
    for i, m in enumerate((w.file_menu, w.go_menu, w.settings_menu, w.help_menu)):
        m.popup(w.mapToGlobal(w.rect().topLeft()))
        spin(app, 0.3)
        m.grab().save(str(out / f"20-menu-{i}{suffix}.png"))
        m.hide()
    _grab_modal(app, out, "21-about", suffix, w.about)
    _grab_modal(app, out, "22-author", suffix, w.edit_author)
    hw = w.page("hardware")
    w.go_to(PAGE_KEYS.index("hardware"))
    add = getattr(hw, "add_custom", None)
    if add is not None:
        _grab_modal(app, out, "23-custom-gpu", suffix, add)
    w.model.set("data.tokens", 3_000_000_000)
    _grab_modal(app, out, "24-revert", suffix, w.file_revert)
    _grab_modal(app, out, "25-unsaved-new", suffix, w.file_new)
    bad = Path(tempfile.mkdtemp()) / "broken.json"
    bad.write_text('{"model": {"preset": "llama-9b"}}')
    _grab_modal(app, out, "26-open-error", suffix, lambda: w.open_path(bad))
    bad.write_text('{"model": ')
    _grab_modal(app, out, "26-open-error-json", suffix, lambda: w.open_path(bad))
    saved = Path(tempfile.mkdtemp()) / "first.gpuplan"
    print("save", w.save_to(saved), saved)
    grab(app, w, out, "27-saved", suffix, 0.5)
    w.model.set_dirty(False)
    w.close()
    w = open_window(app, search=True)
    print("reopen", w.open_path(saved))
    spin(app, 2)
    grab(app, w, out, "28-reopened", suffix, 1.0)
    _grab_modal(app, out, "29-recover", suffix, lambda: w.offer_recovery(from_menu=True))
    w.model.set_dirty(False)
    w.close()


if __name__ == "__main__":
    _parts = sys.argv[2] if len(sys.argv) > 2 else "first,dialogs"
    raise SystemExit(run_parts(Path(sys.argv[1]), {k: f for k, f in (("first", first_hour), ("dialogs", dialogs))
                                                   if k in _parts}))
