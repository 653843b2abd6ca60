"""The Plans page's control for ``constraints.framework_candidates`` (the frameworks the plan search may choose
from): ticking frameworks writes the list, the search then tries those only, none ticked is the search's own
list, and the control is shown only while the search chooses the framework."""

from __future__ import annotations

from gpuplanner.core.search import searched_frameworks


def test_candidates_write_the_field_and_narrow_the_search(make_window):
    w = make_window(search_enabled=False)
    w.go_to(5)
    page = w.page("plans")
    f = page.framework_candidates
    page.search_frameworks.setChecked(False)
    assert f.box.isHidden()  # the Training page's framework only: nothing to choose from
    page.search_frameworks.setChecked(True)
    assert not f.box.isHidden()
    s = w.model.user_scenario()
    assert s.constraints.framework_candidates is None
    default = searched_frameworks(s)[0]
    assert set(default) == {"hf", "deepspeed", "fsdp", "megatron"}  # SFT: the four engines
    f.checks["megatron"].setChecked(True)
    f.checks["deepspeed"].setChecked(True)
    s = w.model.user_scenario()
    assert set(s.constraints.framework_candidates) == {"deepspeed", "megatron"}
    assert searched_frameworks(s) == (("deepspeed", "megatron"), True)
    assert "DeepSpeed" in f.text()
    f.checks["deepspeed"].setChecked(False)
    f.checks["megatron"].setChecked(False)  # none ticked: null, the search's own list again
    s = w.model.user_scenario()
    assert s.constraints.framework_candidates is None and searched_frameworks(s)[0] == default
    w.model.set("constraints.framework_candidates", ["fsdp"])  # an opened plan's list is shown ticked
    assert [k for k, a in f.checks.items() if a.isChecked()] == ["fsdp"]
    page.search_frameworks.setChecked(False)
    assert f.box.isHidden()
