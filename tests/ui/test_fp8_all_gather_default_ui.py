"""``training.fp8_all_gather`` is ``bool | None`` (null: the framework's own choice). The Training page showed it as a
tick box, so once ticked it could only go back to "off", never to the framework default (ux16): it is a
default / on / off list now, and "framework default" gives the scenario its null back."""

from __future__ import annotations

import pytest

from tests.ui.test_issue35_fields_ui import choose


@pytest.fixture
def win(make_window):
    return make_window(search_enabled=False)


def test_fp8_all_gather_goes_back_to_the_framework_default(win):
    win.go_to(1)
    page = win.page("training")
    f = page.fp8_all_gather
    win.model.set("training.framework", "megatron")
    win.model.set("training.precision", "fp8")
    assert win.model.user_scenario().training.fp8_all_gather is None and f.currentData() == "default"
    choose(f, "on")
    assert win.model.user_scenario().training.fp8_all_gather is True
    choose(f, "off")
    assert win.model.user_scenario().training.fp8_all_gather is False
    choose(f, "default")
    assert win.model.user_scenario().training.fp8_all_gather is None
    assert f.currentText() == page.tr("framework default")
