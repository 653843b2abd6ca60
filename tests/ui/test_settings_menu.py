"""Settings → Language switches the UI live and is remembered; Settings → Report author feeds the report."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QInputDialog

from gpuplanner.ui import settings


def _settle(qtbot, ms=50):
    qtbot.wait(ms)
    QApplication.processEvents()


def test_language_menu_switches_live_and_persists(make_window, qtbot):
    w = make_window()
    app = QApplication.instance()
    assert w.settings_menu.title() == "&Settings"
    try:
        w.actions_["lang_zh_CN"].trigger()
        _settle(qtbot, 100)
        assert w.file_menu.title() == "文件(&F)"
        assert w.settings_menu.title() != "&Settings"
        assert settings.language_setting() == "zh_CN"
        assert w.actions_["lang_zh_CN"].isChecked() and not w.actions_["lang_en"].isChecked()
        # a window opened later (next start) gets the remembered language through the app's manager
        assert app.language_manager.language == "zh_CN"
        w.actions_["lang_en"].trigger()
        _settle(qtbot, 100)
        assert w.file_menu.title() == "&File"
        assert settings.language_setting() == "en"
    finally:
        mgr = getattr(app, "language_manager", None)
        if mgr is not None:
            mgr.install("en")
        settings.save_language_setting("system")


def test_report_author_setting(make_window, monkeypatch):
    w = make_window()
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("  Team Shenzhen  ", True))
    w.actions_["author"].trigger()
    assert settings.report_author() == "Team Shenzhen"
    from gpuplanner.ui.report import report_data

    assert report_data(w).author == "Team Shenzhen"


def test_next_start_uses_the_remembered_language(tmp_path):
    """The saved choice is applied at start-up, before the first window is painted."""
    import os
    import subprocess
    import sys

    cfg = tmp_path / "cfg"
    cfg.mkdir()
    (cfg / "gpuplanner-ui.ini").write_text("[ui]\nlanguage=zh_CN\n", encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "GPUPLANNER_CONFIG_DIR": str(cfg),
           "GPUPLANNER_DATA_DIR": str(tmp_path / "data"), "GPUPLANNER_EXIT_AFTER_FIRST_WINDOW": "1"}
    res = subprocess.run([sys.executable, "-m", "gpuplanner"], env=env, capture_output=True, text=True,
                         timeout=120)
    assert "first window painted" in res.stdout, res.stdout + res.stderr
    assert "title=未命名方案" in res.stdout, res.stdout  # "Untitled plan" in Chinese
