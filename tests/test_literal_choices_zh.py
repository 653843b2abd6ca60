"""A value outside a field's choices is refused in the user's language: pydantic's "Input should be 'sdpa' or
'flash_attention_2'" read "输入值应为 'sdpa' or 'flash_attention_2'" in Chinese (the "or" was part of the value).
The English stays pydantic's sentence word for word."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpuplanner.cli import run_cli

EX = Path(__file__).resolve().parents[1] / "examples" / "mixtral-8x7b-ep8-16xa800.json"


@pytest.mark.parametrize("lang, want", [
    # the line names the value typed after the choices (probe13: ", got …", zh "，实际为 …")
    ("en", "Input should be 'sdpa' or 'flash_attention_2', got \"flash_attention_3\""),
    ("zh_CN", "输入值应为 'sdpa' 或 'flash_attention_2'，实际为 \"flash_attention_3\"")])
def test_attn_implementation_choices_refused_in_the_language(tmp_path, capsys, lang, want):
    d = json.loads(EX.read_text(encoding="utf-8"))
    d["training"]["attn_implementation"] = "flash_attention_3"
    f = tmp_path / "s.json"
    f.write_text(json.dumps(d), encoding="utf-8")
    assert run_cli(["estimate", str(f), "--lang", lang]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.endswith(want), err
    assert " or " not in err if lang == "zh_CN" else True


def test_three_choices_keep_pydantics_english():
    from pydantic import BaseModel, ValidationError
    from typing import Literal

    from gpuplanner.core.messages import validation_reason

    class M(BaseModel):
        x: Literal["tokens", "samples", "text"]

    with pytest.raises(ValidationError) as e:
        M(x="bytes")
    err = e.value.errors()[0]
    reason = validation_reason(err)
    assert str(reason) == err["msg"] == "Input should be 'tokens', 'samples' or 'text'"
