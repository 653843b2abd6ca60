"""The on-demand compiled .qm in the user cache is keyed by the .ts content (review r10, mend10b).

Two checkouts whose .ts files differ share one GPUPLANNER_CACHE_DIR: each must load its own
translations, never the other's (the cache used to be keyed by file name and mtime only)."""
from __future__ import annotations

import os

import pytest

TS_TEMPLATE = """<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>MainWindow</name>
    <message>
        <source>&amp;File</source>
        <translation>{text}</translation>
    </message>
</context>
</TS>
"""


def _checkout(root, text):
    d = root / text
    d.mkdir()
    ts = d / "gpuplanner_zh_CN.ts"
    ts.write_text(TS_TEMPLATE.format(text=text), encoding="utf-8")
    return ts


def test_cached_qm_keyed_by_ts_content(tmp_path, monkeypatch, qapp):
    from PySide6.QtCore import QTranslator

    from gpuplanner import i18n

    if i18n.find_lrelease() is None:
        pytest.skip("lrelease not available")
    monkeypatch.setenv("GPUPLANNER_CACHE_DIR", str(tmp_path / "cache"))
    ts_a = _checkout(tmp_path, "AAA")
    ts_b = _checkout(tmp_path, "BBB")
    # checkout B's .ts is older than A's compiled .qm: an mtime check alone would trust A's file
    os.utime(ts_b, (1_000_000, 1_000_000))
    loaded = {}
    for ts, text in ((ts_a, "AAA"), (ts_b, "BBB"), (ts_a, "AAA")):
        monkeypatch.setattr(i18n, "ts_path", lambda lang, ts=ts: ts)
        qm = i18n.qm_path("zh_CN")
        assert qm is not None and qm.exists()
        tr = QTranslator()
        assert tr.load(str(qm))
        assert tr.translate("MainWindow", "&File") == text
        loaded.setdefault(text, set()).add(qm)
    assert loaded["AAA"].isdisjoint(loaded["BBB"])
    assert len(loaded["AAA"]) == 1  # the same content reuses its cached file
