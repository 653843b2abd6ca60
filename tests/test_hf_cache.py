"""A model id resolves from a Hugging Face cache laid out by hand (offline), named by its id; hostile caches
give one-line errors."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path

import pytest

from gpuplanner.core.architecture import resolve_arch
from gpuplanner.core.errors import ModelConfigError
from gpuplanner.core.params import count_params
from gpuplanner.core.scenario import ModelSection
from gpuplanner.io.hf_cache import cache_dir, find_cached, is_model_id, list_cached_models
from gpuplanner.io.model_files import ModelFiles

COMMIT = "a" * 40
OTHER = "0123456789abcdef0123456789abcdef01234567"
TINY = dict(model_type="qwen2", hidden_size=64, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
            intermediate_size=128, vocab_size=1000, tie_word_embeddings=True, max_position_embeddings=4096,
            _name_or_path="/tmp/some/training/output")


def _safetensors(path: Path, tensors: dict) -> None:
    header = {n: {"dtype": "BF16", "shape": s, "data_offsets": [0, 0]} for n, s in tensors.items()}
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw)


def lay_out(cache: Path, model_id: str, commit: str = COMMIT, cfg: dict | None = None, ref: str | None = None,
            weights: bool = True) -> Path:
    """``models--org--name/{refs/main, blobs/, snapshots/<commit>/}`` with the snapshot's files linked into
    ``blobs/`` the way huggingface_hub stores them."""
    repo = cache / ("models--" + model_id.replace("/", "--"))
    (repo / "refs").mkdir(parents=True, exist_ok=True)
    (repo / "blobs").mkdir(exist_ok=True)
    snap = repo / "snapshots" / commit
    snap.mkdir(parents=True)
    blob = repo / "blobs" / ("c" * 64)
    blob.write_text(json.dumps(cfg or TINY))
    os.symlink(os.path.relpath(blob, snap), snap / "config.json")
    if weights:
        wblob = repo / "blobs" / ("d" * 64)
        _safetensors(wblob, {"embed": [1000, 64], "extra": [10, 10]})
        os.symlink(os.path.relpath(wblob, snap), snap / "model.safetensors")
    if ref is not False:
        (repo / "refs" / "main").write_text(ref if ref is not None else commit)
    return snap


def test_cache_location_follows_huggingface_hub(tmp_path):
    assert cache_dir({"HF_HUB_CACHE": str(tmp_path / "a"), "HF_HOME": str(tmp_path / "b")}) == tmp_path / "a"
    assert cache_dir({"HUGGINGFACE_HUB_CACHE": str(tmp_path / "legacy")}) == tmp_path / "legacy"
    assert cache_dir({"HF_HOME": str(tmp_path / "b")}) == tmp_path / "b" / "hub"
    assert cache_dir({"XDG_CACHE_HOME": str(tmp_path / "x")}) == tmp_path / "x" / "huggingface" / "hub"
    assert cache_dir({}) == Path.home() / ".cache" / "huggingface" / "hub"


@pytest.mark.parametrize("text, ok", [
    ("Qwen/Qwen2.5-7B", True), ("gpt2", True), ("meta-llama/Llama-3.1-8B@main", True),
    (f"org/name@{COMMIT}", True), ("../etc", False), ("a/../b", False), ("org--x/name", False),
    ("/abs/path", False), ("org/name/extra", False), ("org/na me", False), ("", False), ("org/", False),
    ("x" * 97, False), ("org/name@../../x", False)])
def test_model_id_rules(text, ok):
    assert is_model_id(text) is ok


def test_model_id_resolves_offline_from_hf_home(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    snap = lay_out(tmp_path / "hf" / "hub", "Qwen/Tiny-Model")
    found = find_cached("Qwen/Tiny-Model")
    assert found.snapshot == snap and found.commit == COMMIT and found.model_id == "Qwen/Tiny-Model"
    arch = ModelFiles(tmp_path / "elsewhere").load("Qwen/Tiny-Model")
    # named by its id, not the commit hash nor the config's _name_or_path
    assert arch.name == "Qwen/Tiny-Model"
    assert arch.hidden_size == 64 and arch.model_type == "qwen2"
    # the safetensors header behind the blob link is read (the links stay inside the model's cache folder)
    assert arch.stored_params == 1000 * 64 + 100
    # through the scenario, as the CLI and the app resolve it
    a = resolve_arch(ModelSection(hf_config="Qwen/Tiny-Model"), ModelFiles(tmp_path))
    assert count_params(a).total == count_params(arch).total


def test_hf_hub_cache_wins_and_revision_and_single_snapshot(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path / "unused"))
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    lay_out(tmp_path / "hub", "org/m", ref=False)  # snapshot_download of a pinned commit: no refs/main
    assert find_cached("org/m").commit == COMMIT
    assert find_cached(f"org/m@{COMMIT}").snapshot.name == COMMIT
    lay_out(tmp_path / "hub", "org/m", commit=OTHER, ref=False)
    with pytest.raises(ModelConfigError, match="2 snapshots and no refs/main"):
        find_cached("org/m")
    (tmp_path / "hub" / "models--org--m" / "refs" / "main").write_text(OTHER + "\n")
    assert find_cached("org/m").commit == OTHER


def test_list_cached_models(tmp_path):
    hub = tmp_path / "hub"
    lay_out(hub, "b-org/Model-B")
    lay_out(hub, "a-org/model-a", weights=False)
    lay_out(hub, "gpt2")
    (hub / "datasets--x--y").mkdir()
    (hub / "models--broken--ref").mkdir()  # no refs, no snapshots
    lay_out(hub, "bad/ref", ref="../../../../etc/passwd")
    found = list_cached_models(root=hub)
    assert [m.model_id for m in found] == ["a-org/model-a", "b-org/Model-B", "gpt2"]
    assert list_cached_models(root=tmp_path / "missing") == []


@pytest.mark.parametrize("ref, msg", [
    ("../../../../etc/passwd", "does not hold a commit hash"),
    ("x" * 5000, "too large"),
    ("ff" * 20, "snapshot ffffffffffff is missing"),
])
def test_hostile_refs_give_one_line(tmp_path, ref, msg):
    lay_out(tmp_path, "org/m", ref=ref)
    with pytest.raises(ModelConfigError, match=msg) as ei:
        find_cached("org/m", root=tmp_path)
    assert "\n" not in str(ei.value)


def test_links_out_of_the_cache_are_refused(tmp_path, monkeypatch):
    snap = lay_out(tmp_path / "hub", "org/m", weights=False)
    outside = tmp_path / "secret.json"
    outside.write_text(json.dumps(TINY))
    (snap / "config.json").unlink()
    os.symlink(outside, snap / "config.json")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(ModelConfigError, match="links outside"):
        ModelFiles(tmp_path).load("org/m")


def test_missing_model_says_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(ModelConfigError, match="nor a model in the local Hugging Face cache") as ei:
        ModelFiles(tmp_path).load("Qwen/Qwen2.5-7B")
    assert str(tmp_path / "hub") in str(ei.value) and "huggingface-cli download Qwen/Qwen2.5-7B" in str(ei.value)


def test_a_local_path_wins_over_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    lay_out(tmp_path / "hub", "org/m")
    local = tmp_path / "scen" / "org" / "m"
    local.mkdir(parents=True)
    (local / "config.json").write_text(json.dumps({**TINY, "hidden_size": 128}))
    assert ModelFiles(tmp_path / "scen").load("org/m").hidden_size == 128
    assert ModelFiles(tmp_path / "other").load("org/m").hidden_size == 64


def test_cli_estimates_a_cached_model_by_id(tmp_path, monkeypatch, capsys):
    from gpuplanner.cli import run_cli

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    lay_out(tmp_path / "hub", "org/m")
    scen = tmp_path / "s.json"
    scen.write_text(json.dumps({"model": {"hf_config": "org/m"}, "hardware": {"gpu": "h100-sxm-80gb"}}))
    assert run_cli(["estimate", str(scen), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["model"] == "org/m"


def test_a_fifo_or_device_as_ref_is_refused(tmp_path):
    lay_out(tmp_path, "org/m", ref=False)
    ref = tmp_path / "models--org--m" / "refs" / "main"
    os.mkfifo(ref)
    with pytest.raises(ModelConfigError, match="not a regular file"):
        find_cached("org/m", root=tmp_path)
    ref.unlink()
    os.symlink("/dev/zero", ref)
    with pytest.raises(ModelConfigError, match="links outside"):
        find_cached("org/m", root=tmp_path)


def test_a_snapshot_linking_out_of_the_model_folder_is_refused(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "config.json").write_text(json.dumps(TINY))
    repo = tmp_path / "hub" / "models--org--m"
    (repo / "snapshots").mkdir(parents=True)
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text(COMMIT)
    os.symlink(outside, repo / "snapshots" / COMMIT)
    with pytest.raises(ModelConfigError, match="snapshot aaaaaaaaaaaa is missing"):
        find_cached("org/m", root=tmp_path / "hub")


@pytest.mark.parametrize("ref", ["org/" + "x" * 300, "org/na\x1bme", "org/名字", "org/m@" + "r" * 150, "org//m",
                                 "-org/m", "org/m.", "a/b/c/d"])
def test_hostile_model_ids_through_the_cli_are_one_line(tmp_path, monkeypatch, capsys, ref):
    from gpuplanner.cli import run_cli

    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    f = tmp_path / "s.json"
    f.write_text(json.dumps({"model": {"hf_config": ref}}))
    assert run_cli(["estimate", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("gpuplanner: error:") and "\n" not in err and err.isprintable() and len(err) <= 400
