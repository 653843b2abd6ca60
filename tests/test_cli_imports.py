"""Commands import only what they run: ``--version`` and ``--help`` load neither numpy nor pydantic, and each
command's parser is registered without importing the core (issue "Fast at any size")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PROBE = """
import contextlib, io, sys
from gpuplanner.__main__ import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        rc = main({argv!r})
    except SystemExit as e:
        rc = e.code
heavy = sorted(m for m in ("numpy", "pydantic", "pydantic_core", "PySide6", "gpuplanner.core.scenario", "gpuplanner.core.search",
                           "gpuplanner.verify.acceptance", "gpuplanner.report.render") if m in sys.modules)
print(rc, ",".join(heavy) or "-", len(out.getvalue()))
"""


def _probe(argv: list[str]) -> tuple[int, str, int]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.run([sys.executable, "-c", PROBE.format(argv=argv)], capture_output=True, text=True, env=env,
                       cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    rc, heavy, n = p.stdout.split()
    return int(rc), heavy, int(n)


@pytest.mark.parametrize("argv", [["--version"], ["--help"], ["plan", "--help"], ["report", "--help"]])
def test_version_and_help_load_no_numpy_or_pydantic(argv):
    rc, heavy, printed = _probe(argv)
    assert rc == 0 and printed > 0
    assert heavy == "-", heavy


def test_estimate_still_runs_and_loads_only_the_core(tmp_path):
    rc, heavy, printed = _probe(["estimate", str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")])
    assert rc == 0 and printed > 500
    # the scenario is a pydantic model: estimate loads numpy and pydantic (its start-up is timed against that
    # floor in bench/bench_commands.py), and nothing of the verify ring, the report or Qt (the search: since round
    # 15 estimate compares the user's layout with the search's best plan, choice15)
    assert {"numpy", "pydantic", "pydantic_core", "gpuplanner.core.scenario"} <= set(heavy.split(",")), heavy
    for not_needed in ("PySide6", "gpuplanner.verify.acceptance", "gpuplanner.report.render"):
        assert not_needed not in heavy.split(","), heavy


# What ``gpuplanner estimate`` on a scenario JSON must not load (issue #20, start-up): the other commands, the
# search, the project, the report, the verify ring, the plan-file format, Qt and the app's translations, and the
# Hugging Face cache lookup (a preset names no model id), and the standard modules that only a rarer path needs
# (pkgutil: listing every command for --help; configparser: only with a settings file to read; difflib: only to
# suggest a near GPU id). (pydantic's model layer is loaded: the scenario is a pydantic model; its plugin loader
# imports importlib.metadata, which brings email, zipfile, shutil and tempfile.)
ESTIMATE_MUST_NOT_LOAD = (
    "PySide6", "gpuplanner.ui", "gpuplanner.i18n", "gpuplanner.report", "gpuplanner.verify",
    # (not the search since round 15: estimate on a layout of the user's compares it with the search's best plan,
    # the Answer's ``better`` line, choice15)
    "gpuplanner.core.project", "gpuplanner.core.inference", "gpuplanner.core.checklist",
    "gpuplanner.io.planfile", "gpuplanner.io.autosave", "gpuplanner.io.hf_cache",
    "gpuplanner.commands.plan", "gpuplanner.commands.report", "gpuplanner.commands.kit",
    "gpuplanner.commands.project", "gpuplanner.commands.gpus", "gpuplanner.commands.health",
    "gpuplanner.commands.net", "gpuplanner.commands.topo",
    "pkgutil", "configparser", "difflib",
) + (("platformdirs",) if sys.platform == "linux" else ())  # Linux: the XDG rule (io/app_settings.py)

LOADED_PROBE = """
import contextlib, io, json, os, sys
from gpuplanner.__main__ import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    rc = main({argv!r})
loader = sys.modules.get("pydantic.plugin._loader")
print(json.dumps({{"rc": rc, "printed": len(out.getvalue()), "modules": sorted(sys.modules),
                  "disable_plugins": os.environ.get("PYDANTIC_DISABLE_PLUGINS"),
                  "plugins_scanned": loader is not None and loader._plugins is not None}}))
"""


def _loaded(argv: list[str], tmp_path, **env_extra) -> dict:
    import json

    env = dict(os.environ, PYTHONPATH=str(ROOT), GPUPLANNER_CONFIG_DIR=str(tmp_path / "config"), **env_extra)
    env.pop("PYDANTIC_DISABLE_PLUGINS", None)
    env.update(env_extra)
    p = subprocess.run([sys.executable, "-c", LOADED_PROBE.format(argv=argv)], capture_output=True, text=True,
                       env=env, cwd=ROOT, timeout=60)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


def _under(modules: list[str], name: str) -> list[str]:
    return [m for m in modules if m == name or m.startswith(name + ".")]


def test_estimate_imports_only_what_it_runs(tmp_path):
    got = _loaded(["estimate", str(ROOT / "tests" / "data" / "examples_fixed" / "llama3-8b-full-8xh100-zero3.json")], tmp_path)
    assert got["rc"] == 0 and got["printed"] > 500
    # it did run the core: the scenario was validated and evaluated
    for needed in ("gpuplanner.core.scenario", "gpuplanner.core.evaluate", "gpuplanner.commands.estimate"):
        assert needed in got["modules"]
    loaded = {name: _under(got["modules"], name) for name in ESTIMATE_MUST_NOT_LOAD}
    assert {k: v for k, v in loaded.items() if v} == {}
    # pydantic's plugin discovery (every installed distribution's entry points) is switched off at the start
    assert got["disable_plugins"] == "__all__" and got["plugins_scanned"] is False


def test_a_users_pydantic_plugin_setting_is_kept(tmp_path):
    """setdefault: a PYDANTIC_DISABLE_PLUGINS the user set (here: disable one named plugin only) stays as it is,
    and pydantic then discovers the others as it would without us."""
    got = _loaded(["estimate", str(ROOT / "examples" / "8b-full-8xh100.gpuplan")], tmp_path,
                  PYDANTIC_DISABLE_PLUGINS="some_plugin")
    assert got["rc"] == 0
    assert got["disable_plugins"] == "some_plugin" and got["plugins_scanned"] is True


def test_a_command_is_found_without_importing_the_others():
    """Each registered command is found by its module's name alone (``kit-import`` in ``kit``), so running it
    imports no other command's module; names that are not commands (a plan file, a module that is not a
    command) resolve to nothing and open the app."""
    from gpuplanner.cli import _module_by_name, command_module, command_names

    names = command_names()
    assert {"estimate", "plan", "report", "kit", "kit-import"} <= names
    for name in names:
        module = _module_by_name(name)
        assert module is not None, f"command {name!r}: name its module {name!r} (or {name.split('-')[0]!r})"
        assert command_module(name) is module
        assert module.__name__ == "gpuplanner.commands." + name.split("-", 1)[0]
    for not_a_command in ("plan.gpuplan", "report-2024.gpuplan", "_lang", "_args", "../estimate", "estimate.py",
                          "", "kit-nope", "commands"):
        assert command_module(not_a_command) is None, not_a_command


def test_a_command_in_a_module_named_otherwise_is_still_found(monkeypatch):
    """The name is a shortcut, not a rule: a command registered by a module of another name is found by listing
    every command module (as ``--help`` does)."""
    import types

    from gpuplanner import cli

    def register(sub):
        sub.add_parser("odd-one").set_defaults(func=lambda args: 0)

    odd = types.SimpleNamespace(__name__="gpuplanner.commands.misc", register=register)
    monkeypatch.setattr(cli, "_command_modules", lambda: [odd])
    cli.command_module.cache_clear()
    try:
        assert cli._module_by_name("odd-one") is None
        assert cli.command_module("odd-one") is odd and cli.is_command("odd-one")
        assert cli.command_module("odd-two") is None
    finally:
        cli.command_module.cache_clear()
