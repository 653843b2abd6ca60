"""The one message type: a sentence id (context + English template, marked with ``QT_TRANSLATE_NOOP``) and its
parameters, translated and formatted only when shown (``gpuplanner.i18n.translate_message``). The core, verify,
the report and the UI all pass these around; nothing is formatted in English first. A parameter may itself be a
message (translated with the sentence)."""

from __future__ import annotations

from dataclasses import field
from decimal import Decimal
from typing import Any, Mapping

from dataclasses import dataclass
from .i18n import QT_TRANSLATE_NOOP

import re as _re
import math

#: "{nodes} node(s)": a count placeholder right before a word marked "(s)"
_PLURAL = _re.compile(r"\{(\w+)(?::[^{}]*)?\} ([A-Za-z][\w-]*)\(s\)")


def english_plurals(text: str, params: Mapping[str, Any]) -> str:
    """An English template's "{n} word(s)" read with its count: "1 node", "2 nodes" (the app ships no English
    plural forms). Only a word right after its count's placeholder is changed, so a sentence with several counts
    puts each count's word right after it ("{n} server(s) with {g} GPU(s) each"); a translation has no "(s)" and is unchanged."""
    if "(s)" not in text:
        return text

    def one(m: "_re.Match[str]") -> str:
        v = params.get(m.group(1))
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return m.group(0)
        return m.group(0)[:-3] + ("" if abs(v) == 1 else "s")

    return _PLURAL.sub(one, text)


#: "{cost:,.0f} {cur}": an amount placeholder (grouped, fixed decimals) followed by the currency code parameter
_MONEY = _re.compile(r"\{(\w+):,\.(\d)f\} ?\{cur\}")


def money_params(text: str, params: Mapping[str, Any], lang: str | None = None) -> tuple[str, dict]:
    """A template's amounts written "{cost:,.0f} {cur}" (the advisor's sentences, and their translations) read
    through the one money formatter (``formatting.format_money``): "$194", "¥1,505", as the tables, the live
    panel and the PDF write them, not "194 USD". Each such placeholder becomes one of its own, filled with the
    formatted amount at the template's decimals (",.0f" as the Plans page and the PDF write a cost, ",.2f" a
    price), so only the currency's wording changes. Unchanged when ``cur`` is no currency code or the
    amount no number (``lang``: None → the UI language)."""
    cur = params.get("cur")
    if "{cur}" not in text or not isinstance(cur, str) or not cur:
        return text, dict(params)
    from ..formatting import format_money  # pure Python, no Qt: the core stays pure

    out = dict(params)

    def one(m: "_re.Match[str]") -> str:
        name, d = m.group(1), int(m.group(2))
        v = params.get(name)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return m.group(0)
        key = f"_money_{name}_{d}"
        out[key] = format_money(float(v), cur, lang, decimals=d)
        return "{" + key + "}"

    return _MONEY.sub(one, text), out


def plain_param(v: Any) -> Any:
    """A parameter as the English sentence shows it: a message rendered, a list or tuple of items (each a message
    or a word) joined with ", " (a view joins them with its language's list separator:
    ``i18n.translate_param`` and ``formatting.format_list``), anything else as it is."""
    if isinstance(v, Msg):
        return v.render()
    if isinstance(v, (list, tuple)):
        return ", ".join(str(plain_param(x)) for x in v)
    return v


@dataclass(slots=True, frozen=True)
class Msg:
    """A user-facing sentence: ``QCoreApplication.translate(context, text).format(**params)``;
    :meth:`render` gives the English sentence."""

    context: str
    text: str
    params: Mapping[str, Any] = field(default_factory=dict)

    def render(self) -> str:
        """The English sentence (parameters that are messages themselves are rendered too)."""
        text, params = money_params(english_plurals(self.text, self.params), self.params, "en")
        return text.format(**{k: plain_param(v) for k, v in params.items()})

    def to_json(self) -> dict:
        return {"text": self.render(), "template": self.text, "context": self.context,
                "params": {k: v.to_json() if isinstance(v, Msg) else plain_param(v) for k, v in self.params.items()}}

    def __str__(self) -> str:  # pragma: no cover - convenience
        return self.render()

    @classmethod
    def of(cls, msg: Any) -> "Msg":
        """``msg`` as a message: a message as it is, anything with context/text/params copied, a plain string
        as an untranslated sentence."""
        if isinstance(msg, Msg):
            return msg
        if hasattr(msg, "text") and hasattr(msg, "context"):
            return cls(str(msg.context), str(msg.text), dict(getattr(msg, "params", {}) or {}))
        return cls("", str(msg), {})


#: Python's JSON parser's reasons (``json.JSONDecodeError.msg``; CPython 3.12 Lib/json/decoder.py and
#: Modules/_json.c), marked for translation: the Chinese CLI and app said "不是有效的 JSON（第 2 行，第 1 列：
#: Expecting ',' delimiter）" (round 15, ux23)
_JSON_REASONS = {
    "Expecting value": QT_TRANSLATE_NOOP("Errors", "a value was expected"),
    "Expecting ',' delimiter": QT_TRANSLATE_NOOP("Errors", "a ',' was expected"),
    "Expecting ':' delimiter": QT_TRANSLATE_NOOP("Errors", "a ':' was expected"),
    "Expecting property name enclosed in double quotes": QT_TRANSLATE_NOOP(
        "Errors", "a key in double quotation marks was expected"),
    "Unterminated string starting at": QT_TRANSLATE_NOOP("Errors", "a string is not closed"),
    "Invalid control character at": QT_TRANSLATE_NOOP("Errors", "a control character inside a string"),
    "Invalid \\escape": QT_TRANSLATE_NOOP("Errors", "an invalid backslash escape"),
    "Invalid \\uXXXX escape": QT_TRANSLATE_NOOP("Errors", "an invalid \\uXXXX escape"),
    "Extra data": QT_TRANSLATE_NOOP("Errors", "more text after the JSON value"),
}


def json_reason(reason: str) -> "Msg | str":
    """The reason of a JSON parse error (``JSONDecodeError.msg``) as a message the views translate; a reason Python
    may word otherwise (another version) as it is."""
    text = _JSON_REASONS.get(str(reason))
    return Msg("Errors", text, {}) if text else str(reason)


class MsgStr(str):
    """An English sentence that is a plain ``str`` everywhere (CLI output, logs, exceptions, JSON) and also keeps
    its message id (``context``, ``text``, ``params``), so a view can show it in the UI language
    (``ui.text.tr_msg`` / ``i18n.translate_message``). For code that formatted a marked sentence at once."""

    context: str
    text: str
    params: dict

    @classmethod
    def make(klass, context: str, template: str, /, **params: Any) -> "MsgStr":
        text, shown = money_params(english_plurals(template, params), params, "en")
        rendered = text.format(**{k: plain_param(v) for k, v in shown.items()})
        out = klass(rendered)
        out.context, out.text, out.params = context, template, dict(params)
        return out

    def render(self) -> str:
        return str.__str__(self)


def error_text(err: BaseException) -> str:
    """An exception's one-line sentence: its first argument as it is when that keeps a message id (a
    :class:`MsgStr`, so the app and ``--lang`` show it translated), else ``str(err)``."""
    first = err.args[0] if len(err.args) == 1 else None
    return first if isinstance(first, MsgStr) else str(err)


_VCTX = "Errors"
#: pydantic's English sentences for the checks a typed value fails most (greater than, a whole number …),
#: marked so they are shown translated; the value after the fixed words is taken from pydantic's own text, so
#: the English stays exactly pydantic's (https://docs.pydantic.dev/latest/errors/validation_errors/).
_PYDANTIC = {
    "greater_than": QT_TRANSLATE_NOOP(_VCTX, "Input should be greater than {value}"),
    "greater_than_equal": QT_TRANSLATE_NOOP(_VCTX, "Input should be greater than or equal to {value}"),
    "less_than": QT_TRANSLATE_NOOP(_VCTX, "Input should be less than {value}"),
    "less_than_equal": QT_TRANSLATE_NOOP(_VCTX, "Input should be less than or equal to {value}"),
    "literal_error": QT_TRANSLATE_NOOP(_VCTX, "Input should be {value}"),
    "missing": QT_TRANSLATE_NOOP(_VCTX, "Field required"),
    "int_parsing": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid integer, unable to parse string as an integer"),
    "int_from_float": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid integer, got a number with a fractional part"),
    "int_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid integer"),
    "float_parsing": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid number, unable to parse string as a number"),
    "float_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid number"),
    "bool_parsing": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid boolean, unable to interpret input"),
    "bool_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid boolean"),
    "string_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid string"),
    "dict_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid dictionary"),
    "model_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid dictionary or instance of {value}"),
    "list_type": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid list"),
    "finite_number": QT_TRANSLATE_NOOP(_VCTX, "Input should be a finite number"),
    "string_too_short": QT_TRANSLATE_NOOP(_VCTX, "String should have at least {value} character"),
    "string_too_long": QT_TRANSLATE_NOOP(_VCTX, "String should have at most {value} characters"),
    "decimal_parsing": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid decimal"),
    "date_from_datetime_parsing": QT_TRANSLATE_NOOP(_VCTX, "Input should be a valid date or datetime, {value}"),
    "string_pattern_mismatch": QT_TRANSLATE_NOOP(_VCTX, "String should match pattern {value}"),
}


def not_negative_price(v: Any) -> Any:
    """A price field's pydantic "before" validator: a number below zero is refused in words ("a price cannot be
    below zero (-3)", translatable), where pydantic would say "Input should be greater than or equal to 0"; any
    other value goes on to the field's own checks unchanged (a valid price is never altered)."""
    if isinstance(v, bool) or not isinstance(v, (int, float, str, Decimal)):
        return v
    try:
        n = float(v)
    except (TypeError, ValueError):
        return v
    if n < 0:
        raise ValueError(MsgStr.make(_VCTX, QT_TRANSLATE_NOOP(_VCTX, "a price cannot be below zero ({value})"),
                                     value=str(v).strip()[:40]))
    return v


def validation_reason(error: Mapping[str, Any]) -> str:
    """Why one pydantic error (an item of ``ValidationError.errors()``) failed, as a one-line sentence that keeps
    a message id where it can: the validator's own sentence when it raised ``ValueError(MsgStr)``, pydantic's
    sentence for the common checks (:data:`_PYDANTIC`), "unknown field" for a key the schema does not have; any
    other pydantic text as it is, without its "Value error, " prefix."""
    import re

    kind = error.get("type")
    if kind == "extra_forbidden":
        return MsgStr.make(_VCTX, QT_TRANSLATE_NOOP(_VCTX, "unknown field"))
    inner = (error.get("ctx") or {}).get("error")
    if isinstance(inner, BaseException) and isinstance(error_text(inner), MsgStr):
        return error_text(inner)
    msg = str(error.get("msg", "invalid value"))
    if msg.startswith("Value error, "):
        msg = msg[len("Value error, "):]
    template = _PYDANTIC.get(kind)
    if template:
        head, sep, tail = template.partition("{value}")
        if not sep and msg == template:
            return MsgStr.make(_VCTX, template)
        m = re.fullmatch(re.escape(head) + "(.+)" + re.escape(tail), msg, flags=re.S) if sep else None
        if m and kind == "literal_error" and " or " in m.group(1):
            # the choices' last "or" is a word of the sentence, translated with it (zh "或"), not a part of the value
            first, last = m.group(1).rsplit(" or ", 1)
            return MsgStr.make(_VCTX, _LITERAL_OR, value=first, last=last)
        if m:
            return MsgStr.make(_VCTX, template, value=m.group(1))
    return msg


#: the pydantic checks whose input is one value the user typed: the line names that value after the reason
#: ('training.precision: Input should be 'bf16', 'fp16', 'fp32' or 'fp8', got "fp4"'; probe13: the brief's "one line
#: naming the field and value"); a length, a missing key or an unknown key has no such value
_NAMES_INPUT = {"greater_than", "greater_than_equal", "less_than", "less_than_equal", "literal_error", "int_parsing",
                "int_from_float", "int_type", "float_parsing", "float_type", "bool_parsing", "bool_type", "string_type",
                "finite_number", "string_pattern_mismatch", "enum", "dict_type", "list_type", "model_type"}
_GOT = QT_TRANSLATE_NOOP(_VCTX, "{reason}, got {value}")


def input_text(value: Any, width: int = 40) -> str | None:
    """A typed value as the error line shows it: JSON's spelling (``true``, ``null``, ``"fp4"`` with its control
    characters escaped), at most ``width`` characters; a list or an object by its kind alone (``[…]``, ``{…}``)."""
    import json

    if isinstance(value, (list, tuple)):
        return "[…]"
    if isinstance(value, dict):
        return "{…}"
    if isinstance(value, bool) or value is None or isinstance(value, (int, float, str)):
        try:
            text = json.dumps(value, ensure_ascii=False, allow_nan=True)
        except ValueError:  # an integer past Python's digit limit
            text = "…"
        return text if len(text) <= width else text[:width - 1] + "…"
    return None


def validation_line(error: Mapping[str, Any]) -> str:
    """:func:`validation_reason` followed by the value that failed (``, got 'fp4'``) where the check is about
    one typed value (:data:`_NAMES_INPUT`)."""
    reason = validation_reason(error)
    shown = input_text(error.get("input")) if error.get("type") in _NAMES_INPUT and "input" in error else None
    return reason if shown is None else MsgStr.make(_VCTX, _GOT, reason=reason, value=shown)


#: pydantic's literal_error with two or more choices ("Input should be 'sdpa' or 'flash_attention_2'")
_LITERAL_OR = QT_TRANSLATE_NOOP(_VCTX, "Input should be {value} or {last}")


#: a span of elapsed time in a sentence, by its unit (formatting.ELAPSED_UNITS; issue 35 round 10, ux15): the zh
#: entries are the words formatting.format_elapsed writes ("{n} 小时"), so a sentence and a table read alike
ELAPSED_TEMPLATES = {"hours": QT_TRANSLATE_NOOP("Units", "{n} hours"), "days": QT_TRANSLATE_NOOP("Units", "{n} days"),
                     "weeks": QT_TRANSLATE_NOOP("Units", "{n} weeks")}
ELAPSED_ONE = {"hours": QT_TRANSLATE_NOOP("Units", "{n} hour"), "days": QT_TRANSLATE_NOOP("Units", "{n} day"),
               "weeks": QT_TRANSLATE_NOOP("Units", "{n} week")}


def elapsed_msg(days: float, unit: str | None = None) -> "Msg":
    """A span of ``days`` as a message parameter in the unit that suits it ("3.8 hours", "9.5 days", "3.0 weeks";
    ``unit``: one chosen for a whole sentence, from its largest span). The number is
    ``formatting.elapsed_numbers``'s, the words :func:`formatting.format_elapsed`'s."""
    from ..formatting import elapsed_numbers, elapsed_unit  # pure Python, no Qt: the core stays pure

    unit = unit or elapsed_unit(days)
    n = elapsed_numbers([days], unit, "en")[0]
    return Msg("Units", (ELAPSED_ONE if n == "1" else ELAPSED_TEMPLATES)[unit], {"n": n})


def elapsed_msgs(unit: str | None = None, **days: float) -> dict:
    """Spans of days as message parameters, all in one unit (``unit``, default that of the longest), since a
    sentence compares them ("takes 4.1 hours and overruns its slot of 3.8 hours by 0.3 hours"); their numbers are
    written together (``formatting.elapsed_numbers``), so two different spans never read the same ("7.04 days
    against 7.00", not "7.0 days against 7"); a span that is no number reads "—"."""
    from ..formatting import elapsed_numbers, elapsed_unit  # pure Python, no Qt: the core stays pure
    import math

    finite = {k: float(v) for k, v in days.items() if v is not None and math.isfinite(float(v))}
    unit = unit or elapsed_unit(max((abs(v) for v in finite.values()), default=0.0))
    nums = dict(zip(finite, elapsed_numbers(list(finite.values()), unit, "en")))
    return {k: Msg("Units", (ELAPSED_ONE if nums[k] == "1" else ELAPSED_TEMPLATES)[unit], {"n": nums[k]})
            if k in nums else "—" for k in days}


def span_msg(unit: str, n: str) -> "Msg":
    """A span already written as a number (``formatting.plan_span_numbers``) in ``unit`` as a message parameter:
    "15.8 hours" / "15.8 小时", the words of :func:`formatting.format_elapsed` (issue 35 round 13, ux21)."""
    return Msg("Units", (ELAPSED_ONE if n == "1" else ELAPSED_TEMPLATES)[unit], {"n": n})


def plan_span_msgs(days: float, compute_days: float | None = None, band=None) -> tuple:
    """A plan's calendar time, compute time and likely range as ``Units`` messages, in the one unit of the plan's
    whole range (``formatting.plan_span_unit``) with ``formatting.plan_span_numbers``' numbers — the texts
    ``formatting.format_plan_time`` writes ("15.4 hours", "14.8 hours", "13.6–15.4 hours"), for a view that
    translates its words (the app: ``tr_msg``). (head, compute or None, range or None); issue 35 round 14, ux22."""
    from ..formatting import elapsed_numbers, format_range, plan_span_numbers  # pure Python, no Qt

    unit, num, lo_s, hi_s = plan_span_numbers(days, band, "en")
    comp = None if compute_days is None else span_msg(unit, elapsed_numbers([compute_days], unit, "en")[0])
    rng = None if lo_s is None else span_msg(unit, format_range(lo_s, hi_s))
    return span_msg(unit, num), comp, rng


def deadline_msgs(**days: float) -> dict:
    """A plan's calendar days and a deadline as message parameters, in days (the unit the deadline is typed in and
    the Plans table's calendar-days column shows, at its precision: ``formatting.format_time_number``) and written
    together (:func:`elapsed_msgs`): "Misses the deadline already at the estimate (7.04 days against 7 days)"; a
    whole number of days (the typed deadline) without decimals (``formatting.format_typed_days``; ux25).
    The one way the advisor's, the search's and the report's deadline lines write their spans (issue 35 round 13,
    ux20: they formatted days themselves, "{days:.1f} days against {deadline_days:g}")."""
    from ..formatting import format_typed_days  # pure Python, no Qt

    out = elapsed_msgs("days", **days)
    # a deadline is typed in whole days: it reads as typed, "14 days" (was "14.0"), also beside a plan's days ("7.04
    # days against 7 days"); a plan's computed days are never a whole number to the last bit (issue 35 r16, ux25)
    for k, v in days.items():
        if v is not None and math.isfinite(float(v)) and float(v) >= 1 and float(v) == round(float(v)):
            out[k] = span_msg("days", format_typed_days(v, "en"))
    return out


#: the memory a plan uses per GPU, said as the sum the fit check adds (the estimate + the margin kept free, against
#: the card): one sentence for every view that says it in words — the live summary, each plan's own line (`plan`,
#: the Plans details, the PDF's bullets) and the PDF's plan table (ux27 said the sum in three views; ux28 found the
#: live summary and the PDF's bullet still "69.4 of 80 GiB", without the 2.0 GiB the others add)
MEMORY_SUM = QT_TRANSLATE_NOOP("Report", "{m} GiB + {head} GiB kept free on top of the estimate = {need} of {cap} GiB")


def memory_sum_msg(total: float, headroom: float, capacity: float) -> Msg:
    """:data:`MEMORY_SUM` for a plan's memory per GPU (``Evaluation.memory``: ``total``, ``headroom``, ``capacity``),
    each figure through the one formatter (GiB to one decimal, the card's size as its catalog says it)."""
    from ..formatting import format_number, format_sig  # pure Python, no Qt

    return Msg("Report", MEMORY_SUM, {"m": format_number(total, 1), "head": format_number(headroom, 1),
                                      "need": format_number(total + headroom, 1), "cap": format_sig(capacity)})
