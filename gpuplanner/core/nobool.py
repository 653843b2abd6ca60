"""``true``/``false`` where a number is expected: refused, for every model of our own files (issue 35 round 10).

pydantic's lax mode reads a JSON bool as 1/0 in an ``int`` or ``float`` field (and ``true`` as ``1`` in
``Literal[1, 2]``): ``training.rl.response_len_std: true`` planned with 1.0 and no word. :class:`NoBoolForNumbers`
is the base of the scenario's sections (core/scenario._Section) and of the plan file's own parts (io/planfile):
one ``before`` validator for every field, which refuses a bool where the field wants a number, in pydantic's own
words with their translated entries (core/messages._PYDANTIC), at the field's place (``training.micro_batch_size:
Input should be a valid integer``); a valid value passes untouched, so valid files load as before.
"""

import types
import typing
from typing import Any, Literal

from pydantic import BaseModel, ValidationInfo, field_validator

from .messages import _GOT, _LITERAL_OR, _PYDANTIC, _VCTX, MsgStr


def _bool_refusal(annotation: Any) -> MsgStr | None:
    """Why ``true``/``false`` is refused where ``annotation`` wants a number (``int``, ``float``, ``Literal[1, 2]``,
    each maybe ``| None``), in pydantic's own words (core/messages._PYDANTIC has them translated); None where a bool
    is a valid value (a ``bool`` field, a union with ``bool``, ``Any``) or no number is expected (strings, sections:
    pydantic refuses a bool there itself)."""
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        refusals = [_bool_refusal(a) for a in typing.get_args(annotation) if a is not type(None)]
        takes_bool = any(a is bool or a is Any for a in typing.get_args(annotation))
        return None if takes_bool else next((r for r in refusals if r is not None), None)
    if origin is Literal:
        values = typing.get_args(annotation)
        if not values or any(isinstance(v, bool) or not isinstance(v, (int, float)) for v in values):
            return None
        shown = [repr(v) for v in values]
        if len(shown) == 1:
            return MsgStr.make(_VCTX, _PYDANTIC["literal_error"], value=shown[0])
        return MsgStr.make(_VCTX, _LITERAL_OR, value=", ".join(shown[:-1]), last=shown[-1])
    if annotation is int:
        return MsgStr.make(_VCTX, _PYDANTIC["int_type"])
    if annotation is float:
        return MsgStr.make(_VCTX, _PYDANTIC["float_type"])
    return None


class NoBoolForNumbers(BaseModel):
    """A model whose number fields refuse ``true``/``false`` (its subclasses inherit the check)."""

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_a_number(cls, v: Any, info: ValidationInfo) -> Any:
        """``true``/``false`` where a number is expected is refused (pydantic's lax mode reads them as 1/0:
        ``training.rl.response_len_std: true`` planned with 1.0), for every field, a file's and an assignment's
        alike; a valid value passes untouched."""
        if type(v) is bool and info.field_name is not None:
            refusal = _bool_refusal(cls.model_fields[info.field_name].annotation)
            if refusal is not None:  # with the value, as every other refusal of a typed value (probe13)
                raise ValueError(MsgStr.make(_VCTX, _GOT, reason=refusal, value="true" if v else "false"))
        return v
