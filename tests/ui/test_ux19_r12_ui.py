"""Round 12's new controls as a user sees them at 1280×800 (helper ux19)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.usefixtures("qapp")

MOE = {"model.preset": "qwen3-30b-a3b", "parallel.auto": False, "hardware.num_gpus": 16, "parallel.ep": 8,
       "training.framework": "megatron", "training.recompute": "megatron_selective"}


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_recompute_modules_button_shows_its_whole_text(make_window, qtbot, language, lang):
    """The recompute-modules menu button spans the field like the editors beside it: with three modules ticked its
    text and the menu arrow (drawn in the button's corner) both fit, in English and Chinese (ux19: "归一化层、专家激活
    函数、MLA 上投影" ran under the arrow in a button sized to its first text)."""
    language.install(lang)
    win = make_window(search_enabled=False)
    win.resize(1280, 800)
    win.go_to(1)
    page = win.page("training")
    page.model.set_many(MOE)
    button = page.advanced.fields["recompute_modules"]
    for mod in ("layernorm", "moe_act", "mla_up_proj"):
        button.checks[mod].setChecked(True)
    qtbot.wait(50)
    combo = page.advanced.fields["compile_loss"]  # a combo box of the same form: the field's full width
    assert button.width() >= combo.width() - 8
    arrow = button.style().pixelMetric(button.style().PixelMetric.PM_MenuButtonIndicator, None, button)
    assert button.width() >= button.fontMetrics().horizontalAdvance(button.text()) + 2 * arrow


@pytest.mark.parametrize("lang, ticked, default", [("en", "selective: norms, expert activation (Megatron)",
                                                     "selective: attention core (Megatron)"),
                                                    ("zh_CN", "归一化层、专家激活函数", "注意力核心")])
def test_recompute_choice_names_the_ticked_modules(make_window, qtbot, language, lang, ticked, default):
    """The Training page's recompute choice under Megatron's selective recompute names the modules ticked in the
    Advanced box, not the default's "attention core" (ux19: it kept saying attention core), and says the default
    again once none is ticked."""
    language.install(lang)
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    page.model.set_many(MOE)
    button = page.advanced.fields["recompute_modules"]
    for mod in ("layernorm", "moe_act"):
        button.checks[mod].setChecked(True)
    qtbot.wait(20)
    assert ticked in page.recompute.currentText()
    assert default not in page.recompute.currentText()
    for mod in ("layernorm", "moe_act"):
        button.checks[mod].setChecked(False)
    qtbot.wait(20)
    assert default in page.recompute.currentText()


def test_mla_module_refusal_reads_as_chinese_at_the_field(make_window, qtbot, language):
    """Ticking "MLA 上投影" for a model without multi-latent attention: the one-line reason under the menu names the
    module as the menu does, not by Megatron's identifiers (ux19: "recompute_modules 中的 mla_up_proj …")."""
    language.install("zh_CN")
    win = make_window(search_enabled=False)
    win.go_to(1)
    page = win.page("training")
    page.model.set_many(MOE)
    button = page.advanced.fields["recompute_modules"]
    button.checks["mla_up_proj"].setChecked(True)
    qtbot.waitUntil(lambda: bool(button.box.error_label.text()), timeout=5000)
    text = button.box.error_label.text()
    assert "MLA 上投影" in text and "多头潜在注意力" in text
    assert "mla_up_proj" not in text and "recompute_modules" not in text


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_framework_menu_button_never_draws_text_under_its_arrow(make_window, qtbot, language, lang):
    """The Plans page's framework menu (``constraints.framework_candidates``) at 1280×800 with more frameworks ticked
    than its cell holds: the names end in "…" before the menu arrow (they ran under it, 446 px of text in a 420 px
    button), the whole list stays in ``full_text``, and the page does not widen."""
    language.install(lang)
    win = make_window(search_enabled=False)
    win.resize(1280, 800)
    win.go_to(5)
    button = win.page("plans").framework_candidates
    width = win.width()
    for fid in list(button.checks)[:5]:
        button.checks[fid].setChecked(True)
    qtbot.wait(50)
    names = [a.text() for a in list(button.checks.values())[:5]]
    assert all(n in button.full_text for n in names)
    arrow = button.style().pixelMetric(button.style().PixelMetric.PM_MenuButtonIndicator, None, button)
    assert button.fontMetrics().horizontalAdvance(button.text()) + 2 * arrow <= button.width()
    assert button.text().endswith("…") and button.text() != button.full_text
    assert win.width() == width
    for fid in list(button.checks)[:5]:
        button.checks[fid].setChecked(False)
    qtbot.wait(50)
    assert button.text() == button.full_text  # the default's short text is whole again
