"""Data checks for the model presets in gpuplanner/resources/models/*.json.

Each preset carries the model's Hugging Face ``config.json`` (architecture keys verbatim), where it came
from and when, and an exact published parameter count where one exists. These tests check the file
contract and the internal consistency of the data; turning configs into parameter counts is tested
with the architecture code, against ``published_params``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

MODELS_DIR = Path(__file__).resolve().parents[1] / "gpuplanner" / "resources" / "models"
PRESET_FILES = sorted(MODELS_DIR.glob("*.json"))
ID_RE = re.compile(r"^[a-z0-9][a-z0-9.-]*[a-z0-9]$")
DATE_RE = re.compile(r"^(19|20)\d\d-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?$")

# Families the brief requires (value of the preset's "family" key).
REQUIRED_FAMILIES = {
    "llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen3_moe", "qwen2_moe", "deepseek_v2",
    "deepseek_v3", "chatglm", "baichuan", "internlm2", "yi", "gemma2", "phi3", "gpt2", "gpt3",
}
# Named models the brief requires, by preset id.
REQUIRED_IDS = {
    "llama-2-7b", "llama-2-13b", "llama-2-70b", "llama-3-8b", "llama-3-70b", "llama-3.1-8b",
    "llama-3.1-70b", "llama-3.1-405b", "mistral-7b-v0.1", "mixtral-8x7b", "mixtral-8x22b",
    "qwen2.5-0.5b", "qwen2.5-1.5b", "qwen2.5-7b", "qwen2.5-14b", "qwen2.5-32b", "qwen2.5-72b",
    "qwen3-8b", "qwen3-30b-a3b", "qwen3-235b-a22b", "deepseek-v2-lite", "deepseek-v3", "glm-4-9b",
    "baichuan2-7b", "baichuan2-13b", "internlm2-7b", "internlm2-20b", "yi-34b", "gemma-2-9b",
    "gemma-2-27b", "phi-3-mini-4k", "gpt2", "gpt2-xl", "gpt3-175b",
}
MOE_TYPES = {"mixtral", "qwen2_moe", "qwen3_moe", "deepseek_v2", "deepseek_v3"}


def _load(path: Path) -> dict:
    with path.open(encoding="utf-8") as fh:
        return json.load(fh)


@pytest.fixture(scope="module")
def presets() -> dict[str, dict]:
    return {p.stem: _load(p) for p in PRESET_FILES}


def test_enough_presets():
    assert len(PRESET_FILES) >= 25


@pytest.mark.parametrize("path", PRESET_FILES, ids=lambda p: p.stem)
def test_preset_contract(path: Path):
    d = _load(path)
    assert d["id"] == path.stem
    assert ID_RE.match(d["id"]), d["id"]
    for key in ("name", "family", "source", "source_date"):
        assert isinstance(d.get(key), str) and d[key].strip(), key
    assert DATE_RE.match(d["source_date"]), d["source_date"]
    cfg = d["config"]
    assert isinstance(cfg, dict)
    assert isinstance(cfg.get("model_type"), str) and cfg["model_type"]
    pp = d["published_params"]
    assert isinstance(pp.get("source"), str) and pp["source"].strip()
    assert "total" in pp and "active" in pp
    for k in ("total", "active"):
        assert pp[k] is None or (isinstance(pp[k], int) and not isinstance(pp[k], bool) and pp[k] > 0)
    if pp["total"] is None:
        # a missing count must say why (the rule: never guess)
        assert re.search(r"\bno exact\b", pp["source"], re.I), pp["source"]
    if pp["active"] is not None:
        assert pp["total"] is not None and pp["active"] < pp["total"]


def test_ids_unique(presets):
    ids = [d["id"] for d in presets.values()]
    assert len(ids) == len(set(ids))


def test_required_models_and_families_present(presets):
    assert REQUIRED_IDS <= set(presets), sorted(REQUIRED_IDS - set(presets))
    families = {d["family"] for d in presets.values()}
    assert REQUIRED_FAMILIES <= families, sorted(REQUIRED_FAMILIES - families)


def test_moe_presets_have_expert_keys_and_active_count(presets):
    moe = [d for d in presets.values() if d["config"]["model_type"] in MOE_TYPES]
    assert len(moe) >= 6
    for d in moe:
        cfg = d["config"]
        n_exp = cfg.get("num_local_experts") or cfg.get("num_experts") or cfg.get("n_routed_experts")
        assert isinstance(n_exp, int) and n_exp > cfg["num_experts_per_tok"] >= 1, d["id"]
        assert d["published_params"]["active"] is not None, d["id"]
        assert d["published_params"].get("approximate") is True, d["id"]


def test_head_geometry_consistent(presets):
    """hidden_size / heads must give an integer head size unless head_dim is explicit (Gemma 2 27B, Qwen3)."""
    for d in presets.values():
        cfg = d["config"]
        if "hidden_size" not in cfg or "num_attention_heads" not in cfg:
            continue
        heads = cfg["num_attention_heads"]
        kv = cfg.get("num_key_value_heads", heads)
        assert heads % kv == 0, d["id"]
        if "head_dim" not in cfg and "kv_lora_rank" not in cfg:
            assert cfg["hidden_size"] % heads == 0, d["id"]


def test_spot_values_from_sources(presets):
    """A few values checked by hand against the cited sources (config.json / paper tables)."""
    l3 = presets["llama-3-8b"]["config"]
    assert (l3["hidden_size"], l3["num_hidden_layers"], l3["num_key_value_heads"], l3["vocab_size"]) == (
        4096, 32, 8, 128256)
    assert presets["llama-3.1-8b"]["config"]["rope_scaling"]["rope_type"] == "llama3"
    g3 = presets["gpt3-175b"]["config"]  # Brown et al. 2020 Table 2.1
    assert (g3["n_layer"], g3["n_embd"], g3["n_head"], g3["n_positions"], g3["vocab_size"]) == (
        96, 12288, 96, 2048, 50257)
    assert g3["n_embd"] // g3["n_head"] == 128  # d_head in Table 2.1
    glm = presets["glm-4-9b"]["config"]
    assert glm["model_type"] == "chatglm" and glm["multi_query_group_num"] == 2 and glm["add_qkv_bias"] is True
    ds = presets["deepseek-v3"]
    assert ds["config"]["num_nextn_predict_layers"] == 1
    assert "MTP" in ds["notes"] and "671" in ds["notes"] and "685" in ds["notes"]
    assert presets["gemma-2-27b"]["config"]["query_pre_attn_scalar"] == 4608 // 32


def test_published_counts_match_hand_arithmetic_for_llama_shapes(presets):
    """Independent of the app code: a plain Llama block (GQA attention, SwiGLU MLP, 2 RMSNorms, untied
    head) has L*(2*h*h + 2*h*kv*d + 3*h*i + 2*h) + 2*V*h + h weights. The published counts of these
    presets must satisfy it exactly; a typo in either the config or the count breaks the equality."""
    for pid in ("llama-2-7b", "llama-2-70b", "llama-3-8b", "llama-3.1-405b", "mistral-7b-v0.1", "yi-34b"):
        c = presets[pid]["config"]
        h, L, i, V = c["hidden_size"], c["num_hidden_layers"], c["intermediate_size"], c["vocab_size"]
        heads = c["num_attention_heads"]
        kv = c["num_key_value_heads"]
        d = h // heads
        n = L * (2 * h * h + 2 * h * kv * d + 3 * h * i + 2 * h) + 2 * V * h + h
        assert n == presets[pid]["published_params"]["total"], pid


def test_one_preset_is_read_from_its_own_file_and_equals_the_list_entry():
    """A command naming one preset reads that file, not the 39 others (issue 20's start-up); the preset is the
    same as the full list's; ids that are not plain names never reach the file system."""
    from gpuplanner.core import architecture as A
    from gpuplanner.core.errors import ScenarioError
    from gpuplanner.resources import model_preset_document

    A.load_presets.cache_clear()
    A._one_preset.cache_clear()
    p = A.get_preset("llama-2-7b")
    assert A.load_presets.cache_info().currsize == 0          # the full list was not built
    assert p == A.load_presets()["llama-2-7b"]
    for bad in ("../gpus", "/etc/passwd", ".hidden", "", "a" * 200, "llama-2-7b.json"):
        assert model_preset_document(bad) is None
    with pytest.raises(ScenarioError, match="did you mean"):
        A.get_preset("llama-2-7")
