"""Vendor checklist: items as data, translatable strings, the state model and its plan-file form."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from gpuplanner.core import checklist
from gpuplanner.core.checklist import ITEMS, ChecklistEntry, ChecklistState, items, items_for_gpu

SRC = Path(checklist.__file__)

# The issue's list, by id (ids are a public contract: plan files store them).
EXPECTED_IDS = ["domestic_compat", "real_stock", "failure_sla", "data_isolation", "idc_licence", "images_disks",
                "in_place_upgrade", "frameworks", "dedicated_interconnect", "paid_trial"]


def test_items_cover_the_issue_list():
    assert [it.id for it in ITEMS] == EXPECTED_IDS
    assert len({it.id for it in ITEMS}) == len(ITEMS)
    for it in ITEMS:
        assert it.title and it.why and it.why.endswith(".")
    assert [it.id for it in ITEMS if it.domestic_only] == ["domestic_compat"]
    text = " ".join(it.title + " " + it.why for it in ITEMS)
    for needle in ("schedulable", "spare", "VPC", "bare metal", "MIIT", "snapshots", "4 → 8", "DeepSpeed",
                   "Megatron-LM", "vLLM", "dedicated", "paid trial"):
        assert needle in text, needle


def test_every_string_is_wrapped_for_translation():
    """lupdate finds QT_TRANSLATE_NOOP("Checklist", "...") literals: every title and why must be one."""
    tree = ast.parse(SRC.read_text(encoding="utf-8"))
    wrapped = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "QT_TRANSLATE_NOOP":
            ctx, text = node.args
            assert isinstance(text, ast.Constant) and isinstance(text.value, str)
            assert (isinstance(ctx, ast.Constant) and ctx.value == "Checklist") or getattr(ctx, "id", None) == "CTX"
            wrapped.add(text.value)
    for it in ITEMS:
        assert it.title in wrapped and it.why in wrapped


def test_domestic_filter():
    assert len(items()) == len(ITEMS)
    assert "domestic_compat" not in [it.id for it in items(domestic=False)]
    assert len(items(domestic=False)) == len(ITEMS) - 1
    assert "domestic_compat" not in [it.id for it in items_for_gpu("h100-sxm-80gb")]


def test_domestic_gpu_gets_the_compatibility_item():
    from gpuplanner.core.catalog_hw import load_gpus

    domestic = [g for g in load_gpus().values() if g.gpu_class == "domestic"]
    if not domestic:
        pytest.skip("no domestic accelerator in the catalog")
    ids = [it.id for it in items_for_gpu(domestic[0].id)]
    assert ids[0] == "domestic_compat" and len(ids) == len(ITEMS)


def test_state_set_progress_and_json_round_trip():
    st = ChecklistState()
    assert st.progress() == (0, len(ITEMS))
    st.set("real_stock", checked=True)
    st.set("real_stock", notes="8 cards confirmed by email, 3 Dec")
    st.set("paid_trial", checked=True, notes="")
    st.set("paid_trial", checked=False)
    assert st.entry("real_stock") == ChecklistEntry(checked=True, notes="8 cards confirmed by email, 3 Dec")
    assert st.entry("paid_trial").checked is False
    assert st.entry("never_set") == ChecklistEntry()
    assert st.progress() == (1, len(ITEMS))
    assert st.progress(items(domestic=False)) == (1, len(ITEMS) - 1)
    dumped = st.model_dump()
    assert dumped == {"real_stock": {"checked": True, "notes": "8 cards confirmed by email, 3 Dec"},
                      "paid_trial": {"checked": False, "notes": ""}}
    again = ChecklistState.model_validate(json.loads(st.model_dump_json()))
    assert again == st


def test_state_rejects_bad_entries():
    with pytest.raises(ValidationError):
        ChecklistState.model_validate({"real_stock": {"checked": True, "colour": "red"}})
    with pytest.raises(ValidationError):
        ChecklistState.model_validate({"real_stock": {"checked": "maybe"}})


def test_plan_file_list_form():
    st = ChecklistState.model_validate({
        "zz_future_item": {"checked": True, "notes": "kept"},
        "paid_trial": {"checked": True, "notes": "2 h trial booked"},
        "real_stock": {"checked": False, "notes": ""},
    })
    rows = st.to_plan_items()
    # known items in checklist order first, unknown ids (from a newer version) kept after them
    assert rows == [{"id": "real_stock", "checked": False, "note": ""},
                    {"id": "paid_trial", "checked": True, "note": "2 h trial booked"},
                    {"id": "zz_future_item", "checked": True, "note": "kept"}]
    assert ChecklistState.from_plan_items(rows) == st


def test_from_plan_items_accepts_plan_file_objects():
    planfile = pytest.importorskip("gpuplanner.io.planfile")
    rows = [planfile.ChecklistItem(id="failure_sla", checked=True, note="4 h swap SLA")]
    st = ChecklistState.from_plan_items(rows)
    assert st.entry("failure_sla") == ChecklistEntry(checked=True, notes="4 h swap SLA")
    # and back: the plan file validates our list form
    back = [planfile.ChecklistItem(**r) for r in st.to_plan_items()]
    assert back == rows
