"""The Model page takes a model id from the local Hugging Face cache; a config.json or a model folder dropped on
the window is imported; the intake's warnings are shown on the Model page and in the live panel."""

from __future__ import annotations

import json
import os
import warnings

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from ui_helpers import TINY_CONFIG, TINY_PARAMS

COMMIT = "b" * 40


def _cache(root, model_id, cfg):
    repo = root / ("models--" + model_id.replace("/", "--"))
    snap = repo / "snapshots" / COMMIT
    snap.mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    (repo / "blobs").mkdir()
    blob = repo / "blobs" / ("e" * 64)
    blob.write_text(json.dumps(cfg))
    os.symlink(os.path.relpath(blob, snap), snap / "config.json")


def test_model_id_from_the_local_cache(make_window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    _cache(tmp_path / "hub", "acme/Tiny-Llama", TINY_CONFIG)
    w = make_window()
    page = w.page("model")
    ids = [page.hf_id.itemText(i) for i in range(page.hf_id.count())]
    assert ids == ["acme/Tiny-Llama"]  # the cache's models are offered
    _cache(tmp_path / "hub", "acme/Later", TINY_CONFIG)  # downloaded while the app runs
    page.hf_id.showPopup()
    assert [page.hf_id.itemText(i) for i in range(page.hf_id.count())] == ["acme/Later", "acme/Tiny-Llama"]
    page.hf_id.hidePopup()
    page.hf_id.setCurrentIndex(1)
    page.hf_id.activated.emit(1)
    assert w.model.scenario.model.hf_config == "acme/Tiny-Llama"
    qtbot.waitUntil(lambda: f"{TINY_PARAMS:,}" in page.exact_label.text())
    assert "acme/Tiny-Llama" in page.source_label.text()
    qtbot.waitUntil(lambda: "acme/Tiny-Llama" in w.live.model_value.text())


def test_typed_unknown_id_says_where_it_looked(make_window, qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    w = make_window()
    page = w.page("model")
    before = w.model.scenario.model
    page.hf_id.setEditText("Qwen/Qwen2.5-7B")
    qtbot.mouseClick(page.hf_id_btn, Qt.MouseButton.LeftButton)
    assert page.import_error.isVisibleTo(page)
    assert "Hugging Face cache" in page.import_error.text() and str(tmp_path / "hub") in page.import_error.text()
    assert w.model.scenario.model == before
    page.hf_id.setEditText("../../etc/passwd")
    qtbot.mouseClick(page.hf_id_btn, Qt.MouseButton.LeftButton)
    assert "not a Hugging Face model id" in page.import_error.text()


def _drop(w, path):
    """Drag ``path`` over the window and drop it, as the platform's drag and drop delivers it."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(path))])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # PySide6 flags the QPoint constructor
        enter = QDragEnterEvent(QPoint(w.width() // 2, w.height() // 2), Qt.DropAction.CopyAction, mime,
                                Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(w, enter)
    if not enter.isAccepted():
        return False
    ev = QDropEvent(QPointF(w.width() / 2, w.height() / 2), Qt.DropAction.CopyAction, mime,
                    Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    QApplication.sendEvent(w, ev)
    return ev.isAccepted()


def test_dropping_a_model_folder_or_config_imports_it(make_window, qtbot, tiny_config):
    w = make_window()
    assert w.acceptDrops()
    w.go_to(2)
    assert _drop(w, tiny_config.parent)
    assert w.current_index() == 0  # the Model page shows what was imported
    assert w.model.scenario.model.hf_config == str(tiny_config.parent.resolve())
    other = tiny_config.parent.parent / "other.json"
    other.write_text(json.dumps({**TINY_CONFIG, "hidden_size": 128, "num_attention_heads": 4}))
    _drop(w, other)
    assert w.model.scenario.model.hf_config == str(other.resolve())
    # something else is not taken
    txt = tiny_config.parent / "notes.txt"
    txt.write_text("x")
    assert not _drop(w, txt)
    assert w.model.scenario.model.hf_config == str(other.resolve())


def test_unrecognised_architecture_warning_is_shown(make_window, qtbot, tmp_path):
    cfg = tmp_path / "config.json"
    cfg.write_text(json.dumps({**TINY_CONFIG, "model_type": "brand_new_arch"}))
    w = make_window()
    page = w.page("model")
    assert page.import_path(str(cfg))
    qtbot.waitUntil(lambda: "brand_new_arch" in page.intake_warnings.text())
    assert page.intake_warnings.isVisibleTo(page)
    qtbot.waitUntil(lambda: "not recognised" in w.live.warnings.text())
    assert w.live.warnings.isVisibleTo(w.live)


def test_vision_fields_for_a_vision_language_model(make_window, qtbot):
    w = make_window()
    page = w.page("model")
    page.choose_preset("llama-3-8b")
    qtbot.waitUntil(lambda: page.total_value.text() != "—")
    assert not page.vision_box.isVisibleTo(page)  # a text model: no image fields
    page.choose_preset("qwen2-vl-7b")
    qtbot.waitUntil(lambda: page.vision_box.isVisibleTo(page))
    # 448 px, patch 14, 2×2 merge: 256 tokens from 1,024 patches (derived in tests/test_vision.py)
    qtbot.waitUntil(lambda: "256 image tokens" in page.image_tokens.text())
    assert "1,024 patches" in page.image_tokens.text()
    assert page.freeze_vision.isChecked() and page.freeze_projector.isChecked()
    page.images.setFocus()
    page.images.selectAll()
    qtbot.keyClicks(page.images, "3")
    assert w.model.scenario.data.images_per_sample == 3
    qtbot.waitUntil(lambda: "768 image tokens" in page.image_tokens.text())
    frozen = page.trainable_value.text()
    page.freeze_vision.click()
    assert w.model.scenario.training.freeze_vision is False
    qtbot.waitUntil(lambda: page.trainable_value.text() != frozen)
    assert page.trainable_value.text() == "8.25B"  # the language model (7.616B) + the ViT (631.2M); ux17: 3 digits


def test_custom_copy_of_a_vlm_keeps_its_tower_and_another_model_drops_it(make_window, qtbot):
    w = make_window()
    page = w.page("model")
    page.choose_preset("qwen2-vl-7b")
    qtbot.waitUntil(lambda: page.total_value.text() == "8.29B")
    page.make_custom()
    ms = w.model.scenario.model
    assert ms.preset is None and ms.vision_kind == "qwen2_vl" and ms.vision_layers == 32
    qtbot.waitUntil(lambda: page.total_value.text() == "8.29B")  # the copy is the same model
    page.choose_preset("llama-3-8b")
    ms = w.model.scenario.model
    assert ms.vision_kind is None and ms.head_dim is None  # nothing of the previous model stays attached
    qtbot.waitUntil(lambda: page.total_value.text() == "8.03B")
