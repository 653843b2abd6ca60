"""Vendor quote sheets: CSV and XLSX (openpyxl) import, export and the documented template.

Layout (the same in CSV and in every worksheet of an XLSX workbook; one worksheet = one vendor)
    Lines whose first cell starts with ``#`` are notes (the template documents the columns there). The first
    other line is the header: ``section, item, value, unit, gpus_per_server, min_term_days, cap_at_month,
    note, date, multi_node`` (or the same columns under their Chinese names, :data:`HEADER_ZH`; ``multi_node`` is
    optional: sheets written before it load without it). Then one line per fact:

    * ``vendor`` lines: ``item`` is a field of the vendor (provider, date, region, contact, currency,
      exchange_rate, exchange_rate_date, storage_per_tb_month, storage_billing (month/day), egress_per_tb, setup_hours, setup_billed,
      migration_hours, network, network_gbps, nics_per_node, preinstalled, source), ``value`` its value;
    * ``offer`` lines, one per offer: ``item`` the GPU (catalog id, e.g. ``a800-sxm-80gb``), ``value`` the price,
      ``unit`` one of :data:`gpuplanner.core.quotes.UNITS`, then the server size, minimum term and cap rule, and
      whether the offer's servers are networked for multi-node training (``multi_node``: yes / no / unknown);
    * ``question`` lines: ``item`` the question id, ``value`` yes / no / unknown, a note and the date asked.

    An ``offer`` line with no price is a blank template line and is skipped.

Hostile input: a file over :data:`MAX_BYTES`, a workbook whose parts unpack beyond :data:`MAX_UNPACKED` or has more
than :data:`MAX_ROWS` lines, a value of the wrong kind: :class:`QuoteSheetError`, one line naming the file and
the cell (``quotes.csv: cell C7: …``); the CLI exits 2. Text that a spreadsheet would run as a formula is written
as text (a leading apostrophe in CSV, a string cell in XLSX) and read back as it was.
"""

from __future__ import annotations

import csv
import datetime as _dt
import io
import math
import zipfile
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from ..core.errors import PlannerError
from ..core.i18n import QT_TRANSLATE_NOOP
from ..core.messages import MsgStr, validation_reason
from ..core.quotes import QUESTIONS, UNITS, Offer, QuestionAnswer, VendorQuote, field_message
from .safe_read import one_line, read_limited

CTX = "QuoteSheets"
MAX_BYTES = 2 * 1024 * 1024          # a quote sheet is a few kB
MAX_UNPACKED = 20 * 1024 * 1024      # the XML inside an XLSX (zip bombs)
MAX_ZIP_ENTRIES = 200
#: "<" in all the parts together: a full sheet (2,000 lines × 13 cells as inline strings, 6 tags each) is ~160k;
#: 2 million nested elements in 14 MB took 1.4 s of CPU to parse (issue #32 round 2), 400k about 0.3 s
MAX_TAGS = 400_000
MAX_ROWS = 2000
MAX_SHEETS = 20
MAX_CELL = 500

COLUMNS = ("section", "item", "value", "unit", "gpus_per_server", "min_term_days", "cap_at_month", "note", "date",
           "multi_node")
HEADER_ZH = ("类别", "项目", "值", "计价单位", "每台卡数", "最短租期（天）", "按月封顶", "备注", "日期", "多机组网")
SECTIONS = {"vendor": "vendor", "供应商": "vendor", "offer": "offer", "报价": "offer", "question": "question",
            "问题": "question"}
VENDOR_FIELDS = ("provider", "date", "region", "contact", "currency", "exchange_rate", "exchange_rate_date",
                 "storage_per_tb_month", "storage_billing", "egress_per_tb", "setup_hours", "setup_billed",
                 "migration_hours", "network", "network_gbps", "nics_per_node", "preinstalled", "source")
_WORDS = {"yes": "yes", "no": "no", "unknown": "unknown", "是": "yes", "否": "no", "未知": "unknown",
          "true": "yes", "false": "no", "y": "yes", "n": "no", "1": "yes", "0": "no", "": "unknown"}
_FORMULA_START = ("=", "+", "-", "@")


class QuoteSheetError(PlannerError):
    """A quote sheet that cannot be read: one line, naming the file and the cell."""


def _err(name: str, cell: str | None, text: str, /, **params: Any) -> QuoteSheetError:
    why = MsgStr.make(CTX, text, **params)
    if cell:
        return QuoteSheetError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: cell {cell}: {why}"),
                                           file=name, cell=cell, why=why))
    return QuoteSheetError(MsgStr.make(CTX, QT_TRANSLATE_NOOP(CTX, "{file}: {why}"), file=name, why=why))


def cell_name(row: int, col: int) -> str:
    """A1-style name of the cell at 1-based ``row`` and 0-based ``col``."""
    letters = ""
    col += 1
    while col:
        col, rem = divmod(col - 1, 26)
        letters = chr(65 + rem) + letters
    return f"{letters}{row}"


# ----------------------------------------------------------------------------------------------- reading

def read_quotes(path: str | Path) -> list[VendorQuote]:
    """The vendors of a ``.csv`` (one vendor) or ``.xlsx`` (one per worksheet with a header) quote sheet."""
    p = Path(path)
    name = one_line(p.name, 120)
    raw = read_limited(p, MAX_BYTES, "quote sheet")
    suffix = p.suffix.lower()
    if suffix == ".csv":
        return [parse_rows(_csv_rows(raw, name), name)]
    if suffix == ".xlsx":
        sheets = _xlsx_sheets(raw, name)
        quotes = [parse_rows(rows, f"{name} [{title}]") for title, rows in sheets if _has_header(rows)]
        if not quotes:
            raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "no worksheet with the quote header (section, item, value, …)"))
        return quotes
    raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not a quote sheet: expected .csv or .xlsx"))


def _csv_rows(raw: bytes, name: str) -> list[list[Any]]:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not UTF-8 text (save the sheet as CSV UTF-8)")) from None
    if "\x00" in text:
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not a text file"))
    rows = []
    try:
        for i, row in enumerate(csv.reader(io.StringIO(text, newline=""), strict=True), 1):
            if i > MAX_ROWS:
                raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "more than {n} lines"), n=MAX_ROWS)
            rows.append(row[:len(COLUMNS) + 4])
    except csv.Error as err:
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not valid CSV ({why})"), why=one_line(str(err), 80)) from None
    return rows


def _xlsx_sheets(raw: bytes, name: str) -> list[tuple[str, list[list[Any]]]]:
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as z:
            infos = z.infolist()
            if len(infos) > MAX_ZIP_ENTRIES or sum(i.file_size for i in infos) > MAX_UNPACKED:
                raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "the workbook unpacks to too much data"))
            # zipfile stops each part at its declared size (a lying header fails its CRC): at most MAX_UNPACKED
            tags, formulas = 0, False
            for info in infos:
                part = z.read(info)
                formulas = formulas or b"<f>" in part or b"<f " in part or b":f>" in part or b":f " in part
                if _declares_dtd(part):
                    raise _err(name, None, QT_TRANSLATE_NOOP(
                        CTX, "the workbook declares a DTD or entities (no spreadsheet needs them; refused)"))
                tags += part.count(b"<")  # C speed; parsing time grows with the elements, not the bytes
            if tags > MAX_TAGS:
                raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "the workbook holds too much markup (over {n} tags)"),
                           n=f"{MAX_TAGS:,}")
    except zipfile.BadZipFile:
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not an XLSX workbook")) from None
    except QuoteSheetError:
        raise
    except Exception as err:  # noqa: BLE001 - zlib.error, encrypted, an unknown method, a broken header …: one line
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not a readable XLSX workbook ({why})"),
                   why=one_line(type(err).__name__, 60)) from None
    import openpyxl

    try:
        wb = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=True)
    except Exception as err:  # noqa: BLE001 - openpyxl raises many kinds on a broken file: one line
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not a readable XLSX workbook ({why})"),
                   why=one_line(type(err).__name__, 60)) from None
    out = []
    try:
        if len(wb.worksheets) > MAX_SHEETS:  # the sheets past it were left out without a word (probe14)
            raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "more than {n} worksheets ({got}); one vendor a worksheet"),
                       n=MAX_SHEETS, got=len(wb.worksheets))
        for ws in wb.worksheets:
            rows = []
            for i, row in enumerate(ws.iter_rows(max_col=len(COLUMNS) + 4, values_only=True), 1):
                if i > MAX_ROWS:
                    raise _err(f"{name} [{ws.title}]", None, QT_TRANSLATE_NOOP(CTX, "more than {n} lines"), n=MAX_ROWS)
                rows.append(list(row))
            out.append((one_line(ws.title, 40), rows))
    except QuoteSheetError:
        raise
    except Exception as err:  # noqa: BLE001 - a malformed sheet part: one line
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "not a readable XLSX workbook ({why})"),
                   why=one_line(type(err).__name__, 60)) from None
    finally:
        wb.close()
    if formulas:
        _refuse_unsaved_formulas(raw, name, out)
    return out


def _refuse_unsaved_formulas(raw: bytes, name: str, sheets: list[tuple[str, list[list[Any]]]]) -> None:
    """A formula cell whose workbook holds no computed result (a sheet written by a script, never opened and saved
    in a spreadsheet program) reads as an empty cell: a price line so written was skipped as a blank template
    line, and the vendor's offer lost without a word (probe14). Such a cell is refused, naming it and its formula."""
    import openpyxl

    try:
        wb = openpyxl.load_workbook(io.BytesIO(raw), read_only=True, data_only=False)
    except Exception:  # noqa: BLE001 - read once already; nothing more to say about a broken file
        return
    try:
        for ws, (title, rows) in zip(wb.worksheets[:MAX_SHEETS], sheets):
            for r, row in enumerate(ws.iter_rows(max_col=len(COLUMNS) + 4, max_row=len(rows), values_only=True)):
                for c, v in enumerate(row):
                    if isinstance(v, str) and v.startswith("=") and c < len(rows[r]) and rows[r][c] is None:
                        raise _err(f"{name} [{title}]", cell_name(r + 1, c), QT_TRANSLATE_NOOP(
                            CTX, "a formula with no saved result ({v!r}): open and save the sheet in a spreadsheet "
                                 "program, or type the value"), v=v[:40])
    finally:
        wb.close()


_DTD_MARKS = tuple(m.encode(enc) for m in ("<!DOCTYPE", "<!ENTITY") for enc in ("utf-8", "utf-16-le", "utf-16-be"))


def _declares_dtd(part: bytes) -> bool:
    """A part that declares a DTD or entities (as UTF-8/ASCII or UTF-16, the encodings expat detects): entity
    expansion ("billion laughs", external entities) is refused before any XML parser sees the workbook. Python's
    expat stops the expansion, but the parse error it raises inside openpyxl's read-only reader crashed the
    interpreter when collected (SIGSEGV, Python 3.12; issue #32 round 2)."""
    return any(m in part for m in _DTD_MARKS)


def _text(v: Any) -> str:
    """A cell as text: numbers without float noise, dates as ISO, a protective leading apostrophe removed."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        return repr(v) if v != int(v) or abs(v) >= 1e15 else str(int(v))
    if isinstance(v, (_dt.datetime, _dt.date)):
        return (v.date() if isinstance(v, _dt.datetime) else v).isoformat()
    s = str(v).strip()
    if _apostrophe_led(s):
        s = s[1:]
    return s


def _apostrophe_led(s: str) -> bool:
    """``s`` is apostrophes then a formula lead ("'=x", "''=x"): the export put the first apostrophe there
    (:func:`_safe_text`), the reader removes it; one level of escaping, so whatever was typed comes back."""
    return s[:1] == "'" and s.lstrip("'")[:1] in _FORMULA_START


def _has_header(rows: list[list[Any]]) -> bool:
    return _header_at(rows) is not None


def _header_at(rows: list[list[Any]]) -> tuple[int, dict[str, int]] | None:
    names = {c: c for c in COLUMNS} | dict(zip(HEADER_ZH, COLUMNS))
    for i, row in enumerate(rows):
        first = _text(row[0]) if row else ""
        if not any(_text(c) for c in row) or first.startswith("#"):
            continue
        cols = {names[_text(c).lower() if _text(c).lower() in names else _text(c)]: j
                for j, c in enumerate(row) if (_text(c).lower() in names or _text(c) in names)}
        return (i, cols) if {"section", "item", "value"} <= set(cols) else None
    return None


def parse_rows(rows: list[list[Any]], name: str) -> VendorQuote:
    """One vendor from the lines of a sheet (header, then vendor/offer/question lines)."""
    found = _header_at(rows)
    if found is None:
        raise _err(name, None, QT_TRANSLATE_NOOP(CTX, "no header line with section, item and value"))
    start, cols = found
    vendor: dict[str, Any] = {}
    cells: dict[tuple, str] = {}
    offers: list[dict] = []
    answers: dict[str, dict] = {}
    for r, row in enumerate(rows[start + 1:], start + 2):
        get = {c: (_text(row[j]) if j < len(row) else "") for c, j in cols.items()}
        where = {c: cell_name(r, j) for c, j in cols.items()}
        if any(len(v) > MAX_CELL for v in get.values()):
            c = next(c for c, v in get.items() if len(v) > MAX_CELL)
            raise _err(name, where[c], QT_TRANSLATE_NOOP(CTX, "longer than {n} characters"), n=MAX_CELL)
        section = get.get("section", "")
        if not any(get.values()) or section.startswith("#"):
            continue
        kind = SECTIONS.get(section.lower(), SECTIONS.get(section))
        if kind is None:
            raise _err(name, where["section"], QT_TRANSLATE_NOOP(CTX, "section must be vendor, offer or question, not {v!r}"),
                       v=section[:40])
        if kind == "vendor":
            _vendor_line(get, where, vendor, cells, name)
        elif kind == "offer":
            _offer_line(get, where, offers, cells, name)
        else:
            _question_line(get, where, answers, cells, name)
    vendor["offers"] = offers
    vendor["answers"] = answers
    return _validate(vendor, cells, name)


def _new_key(get: dict, where: dict, seen, known, name: str, unknown: str) -> str:
    """A line's item as a key of ``known`` not given before (in ``seen``); else the one-line error naming its cell."""
    key = get["item"].lower()
    if key not in known:
        raise _err(name, where["item"], unknown, v=get["item"][:40], known=", ".join(known))
    if key in seen:
        raise _err(name, where["item"], QT_TRANSLATE_NOOP(CTX, "{v} given twice"), v=key)
    return key


def _vendor_line(get: dict, where: dict, vendor: dict, cells: dict, name: str) -> None:
    item = _new_key(get, where, vendor, VENDOR_FIELDS, name,
                    QT_TRANSLATE_NOOP(CTX, "unknown vendor field {v!r} (known: {known})"))
    value = get["value"]
    if item == "setup_billed":
        value = _word(value, where["value"], name)
    elif item in ("network", "currency", "storage_billing"):
        value = value.upper() if item == "currency" else value.lower()
        value = {"按月": "month", "按天": "day"}.get(value, value)
    if value != "" or item == "provider":
        vendor[item] = value
    cells[(item,)] = where["value"]


def _offer_line(get: dict, where: dict, offers: list, cells: dict, name: str) -> None:
    if get["value"] == "":
        return  # a blank template line
    unit = get.get("unit", "").lower().replace("-", "_").replace(" ", "_")
    if unit not in UNITS:
        raise _err(name, where.get("unit", where["value"]), QT_TRANSLATE_NOOP(CTX, "unit must be one of {units}, not {v!r}"),
                   units=", ".join(UNITS), v=get.get("unit", "")[:40])
    price = _decimal(get["value"], where["value"], name)
    if price == 0:  # a spreadsheet's =B4*C4 over blank cells shows 0: the "cheapest" vendor at no cost (probe15)
        raise _err(name, where["value"], QT_TRANSLATE_NOOP(
            CTX, "a price of 0 ({v!r}) is no offer; give the vendor's price or leave the value empty"), v=get["value"][:40])
    o: dict[str, Any] = {"gpu": get["item"], "unit": unit, "price": price, "note": get.get("note", "")}
    if get.get("gpus_per_server"):
        o["gpus_per_server"] = _decimal(get["gpus_per_server"], where["gpus_per_server"], name)
    if get.get("min_term_days"):
        o["min_term_days"] = _decimal(get["min_term_days"], where["min_term_days"], name)
    if get.get("cap_at_month"):
        o["cap_at_month"] = _word(get["cap_at_month"], where["cap_at_month"], name) == "yes"
    if get.get("multi_node"):  # optional column (sheets written before it load without it): yes / no / unknown
        o["multi_node"] = {"yes": True, "no": False}.get(_word(get["multi_node"], where["multi_node"], name))
    i = len(offers)
    for key, col in (("gpu", "item"), ("unit", "unit"), ("price", "value"), ("gpus_per_server", "gpus_per_server"),
                     ("min_term_days", "min_term_days"), ("cap_at_month", "cap_at_month"), ("note", "note"),
                     ("multi_node", "multi_node")):
        cells[("offers", i, key)] = where.get(col, where["value"])
    offers.append(o)


def _question_line(get: dict, where: dict, answers: dict, cells: dict, name: str) -> None:
    qid = _new_key(get, where, answers, QUESTIONS, name,
                   QT_TRANSLATE_NOOP(CTX, "unknown question {v!r} (known: {known})"))
    a: dict[str, Any] = {"answer": _word(get["value"], where["value"], name), "note": get.get("note", "")}
    if get.get("date"):
        a["date"] = get["date"]
    answers[qid] = a
    for key, col in (("answer", "value"), ("note", "note"), ("date", "date")):
        cells[("answers", qid, key)] = where.get(col, where["value"])


def _word(v: str, cell: str, name: str) -> str:
    w = _WORDS.get(v.strip().lower())
    if w is None:
        raise _err(name, cell, QT_TRANSLATE_NOOP(CTX, "expected yes, no or unknown, not {v!r}"), v=v[:40])
    return w


def _decimal(v: str, cell: str, name: str) -> Decimal:
    try:
        d = Decimal(v.replace(",", "").replace("，", "").strip())
    except InvalidOperation:
        raise _err(name, cell, QT_TRANSLATE_NOOP(CTX, "expected a number, not {v!r}"), v=v[:40]) from None
    if not d.is_finite():
        raise _err(name, cell, QT_TRANSLATE_NOOP(CTX, "expected a finite number, not {v!r}"), v=v[:40])
    return d


def _validate(vendor: dict, cells: dict, name: str) -> VendorQuote:
    try:
        return VendorQuote.model_validate(vendor)
    except ValidationError as err:
        first = err.errors()[0]
        loc = tuple(first.get("loc", ()))
        cell = cells.get(loc) or cells.get(loc[:3]) or cells.get(loc[:1])
        why = validation_reason(first)
        if not isinstance(why, MsgStr):
            why = one_line(why, 160)
        raise _err(name, cell, QT_TRANSLATE_NOOP(CTX, "{why}"), why=field_message(loc, why)) from None


# ----------------------------------------------------------------------------------------------- writing

def _doc_lines(lang: str) -> list[str]:
    """The notes at the top of a sheet: what each column holds, the units and the questions."""
    from ..core.quotes import QUESTIONS as Q

    zh = lang == "zh_CN"
    if zh:
        lines = ["# GPU Planner 报价单模板：每个供应商一张表。以 # 开头的行是说明，导入时跳过。",
                 "# 类别 = vendor（供应商信息）、offer（一行一个报价）、question（硬性问题的回答）。",
                 "# offer 行：项目 = GPU 型号 id（如 a800-sxm-80gb），值 = 单价，计价单位 = " + ", ".join(UNITS) + "。",
                 "# 每台卡数 = 整机报价的卡数；最短租期以天计；按月封顶 = 卡时费用不超过包月价（yes/no）。",
                 "# question 行：值 = yes / no / unknown（是 / 否 / 未知），备注与日期写在后面两列。",
                 "# 金额使用 currency 一行的币种；与方案币种不同时，必须填写 exchange_rate 和 exchange_rate_date。",
                 "# storage_billing = month（按月，每个开始的月整月计费，默认）或 day（按天折算）。",
                 "# 多机组网（可选）：该报价的服务器之间是否组网（InfiniBand/RoCE），yes / no / unknown。"]
        lines += [f"# {k}: {v}" for k, v in Q.items()]
        return lines
    lines = ["# GPU Planner quote sheet: one sheet per vendor. Lines starting with # are notes, skipped on import.",
             "# section = vendor (who and on which terms), offer (one line per offer), question (the hard questions).",
             "# offer lines: item = GPU id (e.g. a800-sxm-80gb), value = price, unit = " + ", ".join(UNITS) + ".",
             "# gpus_per_server = cards in a whole-server offer; min_term_days in days; cap_at_month = card-hours "
             "never cost more than the card-month price (yes/no).",
             "# question lines: value = yes / no / unknown, then a note and the date it was answered.",
             "# Prices are in the currency line's currency; another currency than the plan's needs exchange_rate "
             "(plan currency per unit) and exchange_rate_date.",
             "# storage_billing = month (every month started is billed whole; the default) or day (prorated).",
             "# multi_node (optional): the offer's servers are networked to each other (InfiniBand/RoCE) for "
             "multi-node training: yes / no / unknown."]
    lines += [f"# {k}: {v}" for k, v in Q.items()]
    return lines


def quote_rows(q: VendorQuote | None, lang: str = "en") -> list[list[Any]]:
    """The lines of a sheet for ``q`` (None: the blank template), notes and header first."""
    rows: list[list[Any]] = [[line] for line in _doc_lines(lang)]
    rows.append(list(HEADER_ZH if lang == "zh_CN" else COLUMNS))
    data = q.model_dump(mode="python") if q is not None else {}
    for f in VENDOR_FIELDS:
        v = data.get(f)
        rows.append(["vendor", f, "" if v is None else v] + [""] * 7)
    offers = q.offers if q is not None else []
    for o in offers:
        rows.append(["offer", o.gpu, o.price, o.unit, o.gpus_per_server, o.min_term_days,
                     "yes" if o.cap_at_month else "no", o.note, "",
                     {True: "yes", False: "no"}.get(o.multi_node, "unknown")])
    if not offers:
        rows.append(["offer", "", "", "card_hour", 8, "", "no", "", "", "unknown"])
    for qid in QUESTIONS:
        a = q.answer(qid) if q is not None else QuestionAnswer()
        rows.append(["question", qid, a.answer, "", "", "", "", a.note, a.date or "", ""])
    return rows


def _safe_text(v: Any) -> Any:
    """A text cell of the CSV export: a formula lead gets the protective apostrophe the reader removes
    (:func:`_text`); so does a text that starts with that apostrophe already (a note typed as "'=x"), else
    the reader took it for the protection and the note came back as "=x" (probe16)."""
    if isinstance(v, str) and (v.startswith(_FORMULA_START) or _apostrophe_led(v)):
        return "'" + v
    return v


def _cell_value(v: Any) -> Any:
    if isinstance(v, Decimal):
        return format(v.normalize(), "f") if v == v.to_integral_value() else format(v, "f")
    if isinstance(v, (_dt.date,)):
        return v.isoformat()
    return v


def _xlsx_value(v: Any) -> Any:
    """Numbers as numbers (a Decimal as int or float: ``repr`` gives back the digits typed), the rest as text, with
    the control characters XML 1.0 cannot hold (openpyxl ``ILLEGAL_CHARACTERS_RE``: a bell or an escape in a
    vendor's name from a CSV or a plan file) shown as U+FFFD: openpyxl raised ``IllegalCharacterError`` and the
    export failed with a traceback (probe13)."""
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return _xml_text(_cell_value(v))


def _xml_text(v: Any) -> Any:
    if isinstance(v, str):
        from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

        return ILLEGAL_CHARACTERS_RE.sub("\ufffd", v)
    return v


def write_csv(quotes: VendorQuote | None, lang: str = "en") -> bytes:
    buf = io.StringIO(newline="")
    w = csv.writer(buf, lineterminator="\r\n")
    for row in quote_rows(quotes, lang):
        w.writerow([_safe_text(_cell_value(v)) for v in row])
    return buf.getvalue().encode("utf-8-sig")  # Excel opens UTF-8 with a BOM as UTF-8


def write_xlsx(quotes: list[VendorQuote] | None, lang: str = "en") -> bytes:
    """A workbook with one worksheet per vendor (the blank template when ``quotes`` is empty or None)."""
    import openpyxl
    from openpyxl.styles import Font

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    for i, q in enumerate(quotes or [None]):
        title = sheet_title(q.provider if q is not None else ("报价单" if lang == "zh_CN" else "Quote"), i)
        if title.lower() in (n.lower() for n in wb.sheetnames):  # Excel compares sheet names ignoring case
            title = f"{title[:24]} {i + 1}"
        ws = wb.create_sheet(title)
        for row in quote_rows(q, lang):
            ws.append([_xlsx_value(v) for v in row])
        for row in ws.iter_rows():
            for c in row:
                _protect(c)
        for c in ws[len(_doc_lines(lang)) + 1]:
            c.font = Font(bold=True)
        for col, width in zip("ABCDEFGHI", (10, 24, 16, 16, 10, 12, 10, 40, 12)):
            ws.column_dimensions[col].width = width
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def _protect(c) -> None:
    """An exported XLSX text cell that a spreadsheet could take for a formula: stored as text (openpyxl makes a
    formula of a text starting with "="), with Excel's quote prefix (text still after an edit in the cell, F2 then
    Enter; probe16); a text typed as "'=x" gets a second apostrophe, as the CSV export's (:func:`_safe_text`)."""
    v = c.value
    if not isinstance(v, str):
        return
    if _apostrophe_led(v):
        c.value = "'" + v
    elif v.lstrip(" ").startswith(_FORMULA_START + ("\t", "\r", "\n")):
        c.data_type = "s"
        c.quotePrefix = True


def sheet_title(provider: str, i: int) -> str:
    """A worksheet name Excel accepts for the vendor ``provider`` (the ``i``-th sheet): none of ``[]:*?/\\``, no
    control or format character (a bidi override or zero-width space, invisible in the tab), no apostrophe first
    or last, not the reserved "History", at most 28 characters (31 with the number a repeated name gets). Excel
    names these rules in its rename dialog and, for a file that breaks them, "repairs" the workbook by dropping
    the sheet's name (probe16: a vendor "'quoted'" or "History" gave such a file)."""
    title = "".join(ch for ch in _xml_text(provider) if ch not in "[]:*?/\\" and ch.isprintable())
    title = title.strip(" '")[:28].strip(" '")
    if title.lower() == "history":
        title = f"{title} {i + 1}"
    return title or f"Quote {i + 1}"


def write_sheet(path: str | Path, quotes: list[VendorQuote] | None, lang: str = "en") -> Path:
    """Write the quotes (None: the template) to ``path`` (.csv: the first vendor; .xlsx: all), atomically."""
    from .planfile import write_output

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix == ".csv":
        data = write_csv(quotes[0] if quotes else None, lang)
    elif suffix == ".xlsx":
        data = write_xlsx(quotes, lang)
    else:
        raise _err(p.name, None, QT_TRANSLATE_NOOP(CTX, "not a quote sheet: expected .csv or .xlsx"))
    return write_output(p, data)
