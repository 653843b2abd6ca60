"""Round-16 hostile-input probe (bench/probe_hostile_r16.py): the holes it found, each as the user meets it.

Every test here failed before its fix (run against main fe1a3ae9 on an exported copy: 13 of 19), but the round-trip
cases of texts the old code kept already ("''=x", "=1+1", "@SUM(A1)"), there as guards.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tests.probe_helpers import cli as _cli
from tests.probe_helpers import one_line as _one_line

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json"
PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"
QUOTES = ROOT / "examples" / "quotes" / "autodl-a800.csv"






# 1. An integer of more than 4,300 digits in a scenario, plan, kit result or config.json: Python's own sentence
#    ("Exceeds the limit (4300 digits) for integer string conversion: value has 5000 d…", English in every
#    language, cut at 80 characters) naming no field.

def test_a_5000_digit_integer_is_refused_naming_its_field(tmp_path):
    s = tmp_path / "s.json"
    s.write_text(EXAMPLE.read_text(encoding="utf-8").replace('"num_gpus": 8', '"num_gpus": ' + "9" * 5000))
    rc, _, err = _cli(["estimate", str(s)])
    line = _one_line(err)
    assert rc == 2
    assert "hardware.num_gpus" in line and "4,300 digits" in line and "sys.set_int_max_str_digits" not in line


def test_a_5000_digit_integer_in_a_plan_file_names_its_field(tmp_path):
    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    p = tmp_path / "p.gpuplan"
    d["scenario"]["constraints"]["max_gpus"] = "@@N@@"
    p.write_text(json.dumps(d).replace('"@@N@@"', "-" + "9" * 5000), encoding="utf-8")
    rc, _, err = _cli(["estimate", str(p)])
    assert rc == 2 and "scenario.constraints.max_gpus" in _one_line(err)


def test_parse_json_names_the_long_integer_and_keeps_the_rest():
    from gpuplanner.io.safe_read import UnsafeInput, parse_json

    with pytest.raises(UnsafeInput, match=r"a\.b\[1\]: a whole number of more than 4,300 digits"):
        parse_json('{"a": {"b": [1, ' + "7" * 4301 + "]}}", "c.json")
    assert parse_json('{"a": ' + "7" * 4300 + "}")["a"] == int("7" * 4300)  # at the limit: read


# 2. The quote export's worksheet names: a vendor called "'quoted'" or "History", or one with a bidi override,
#    gave a workbook Excel "repairs" (it refuses sheet names that start or end with an apostrophe and the
#    reserved "History"), or a tab whose text runs backwards. Two vendors differing only in case were named by
#    openpyxl's own rule ("ACME1"), not the export's ("ACME 2").

@pytest.mark.parametrize("names, want", [
    (["'quoted'", "x'"], ["quoted", "x"]),
    (["History"], ["History 1"]),
    (["\u202eabc", "a\u200bb"], ["abc", "ab"]),
    (["Acme", "ACME"], ["Acme", "ACME 2"]),
])
def test_export_sheet_names_are_ones_excel_accepts(names, want):
    import openpyxl

    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io.quote_sheets import write_xlsx

    quotes = [VendorQuote.model_validate({"provider": n, "offers": []}) for n in names]
    wb = openpyxl.load_workbook(io.BytesIO(write_xlsx(quotes)))
    assert wb.sheetnames == want
    assert [ws["C" + str(next(r for r in range(1, 60) if ws[f"B{r}"].value == "provider"))].value for ws in wb] \
        == names  # the vendor's name itself is kept as typed


# 3. The XLSX export kept a vendor's "=1+1" (region, contact, notes…) as text, but without Excel's quote prefix:
#    pressing F2 then Enter in the cell turned it into a formula (the CSV export writes "'=1+1" already).

def test_export_formula_led_text_has_the_quote_prefix():
    import openpyxl

    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io.quote_sheets import write_xlsx

    vq = VendorQuote.model_validate({
        "provider": "V", "region": "=1+1", "contact": "@SUM(A1)", "source": "-2+3",
        "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "5", "note": "+cmd"}]})
    ws = openpyxl.load_workbook(io.BytesIO(write_xlsx([vq]))).active
    cells = {c.value: c for row in ws.iter_rows() for c in row if c.value in ("=1+1", "@SUM(A1)", "-2+3", "+cmd")}
    assert set(cells) == {"=1+1", "@SUM(A1)", "-2+3", "+cmd"}  # the text as typed
    assert all(c.data_type == "s" and c.quotePrefix for c in cells.values())
    price = next(c for row in ws.iter_rows() for c in row if c.value == 5)
    assert not price.quotePrefix  # numbers stay numbers


# 4. ``quotes PLAN SHEET --save`` replaced every vendor stored in the plan with the sheets given: a vendor typed on
#    the Quotes page was gone after saving another vendor's sheet.

def test_save_keeps_the_other_vendors(tmp_path):
    from gpuplanner.io import planfile

    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    d["quotes"] = [{"provider": "Typed by hand", "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour",
                                                             "price": "4.5"}]},
                   {"provider": "AutoDL (example)", "offers": []}]
    p = tmp_path / "p.gpuplan"
    p.write_text(json.dumps(d), encoding="utf-8")
    rc, _, err = _cli(["quotes", str(p), str(QUOTES), "--save", "--json"])
    assert rc == 0, err
    doc, _ = planfile.load(p)
    assert [q.provider for q in doc.quotes] == ["Typed by hand", "AutoDL (example)"]
    assert str(doc.quotes[0].offers[0].price) == "4.5"
    assert doc.quotes[1].offers  # AutoDL's stored quote replaced by its sheet
    rows = list(csv.reader(io.StringIO(QUOTES.read_text(encoding="utf-8"))))
    assert len(doc.quotes[1].offers) == sum(1 for r in rows if r and r[0] == "offer")


# 5. A note typed as "'=x" (or "'-") came back from its own export as "=x": the reader took the typed apostrophe for
#    the protective one the CSV export puts before a formula lead, and removed it.

@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
@pytest.mark.parametrize("text", ["'=x", "'-", "''=x", "=1+1", "@SUM(A1)"])
def test_export_then_import_gives_back_what_was_typed(tmp_path, suffix, text):
    from gpuplanner.core.quotes import VendorQuote
    from gpuplanner.io.quote_sheets import read_quotes, write_sheet

    vq = VendorQuote.model_validate({
        "provider": text, "region": text, "contact": text,
        "offers": [{"gpu": "rtx-4090-24gb", "unit": "card_hour", "price": "5.5", "note": text}],
        "answers": {"real_stock": {"answer": "yes", "note": text}}})
    path = tmp_path / ("q" + suffix)
    write_sheet(path, [vq])
    back = read_quotes(path)[0]
    assert (back.provider, back.region, back.contact, back.offers[0].note, back.answer("real_stock").note) \
        == (text,) * 5


# 6. A plan file's price snapshot had no bound on its rows: 150,000 rows (12 MB, under the 20 MB file limit) took
#    20 s to open (each row validated, copied and walked for unknown keys), 250,000 past 30 s. The snapshot copies
#    the built-in price table (66 rows); at most 10,000, refused before any pass over them.

def test_price_snapshot_rows_are_bounded(tmp_path):
    from gpuplanner.io import planfile

    d = json.loads(PLAN_LORA.read_text(encoding="utf-8"))
    row = {"gpu": "rtx-4090-24gb", "card_hour": 1.0, "currency": "CNY", "provider": "p"}
    d["price_snapshot"]["prices"] = [row] * 10_001
    p = tmp_path / "p.gpuplan"
    p.write_text(json.dumps(d), encoding="utf-8")
    rc, _, err = _cli(["estimate", str(p)])
    assert rc == 2 and "price_snapshot.prices" in _one_line(err) and "10000" in err
    with pytest.raises(ValueError, match="at most 10000 items"):  # the model's bound too (a document built in code)
        planfile.PriceSnapshot.model_validate({"prices": [row] * (planfile.MAX_PRICES + 1)})
    d["price_snapshot"]["prices"] = [row] * 100
    p.write_text(json.dumps(d), encoding="utf-8")
    assert _cli(["estimate", str(p)])[0] == 0
