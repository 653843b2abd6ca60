"""The hostile-input probes' one runner (``bench/probe_hostile_r13.py`` … ``r17.py``): the case record, the builders
of strangers' files the probes share, the judge, the in-process and forked runners and the command line.

Before round 17 the runner was written three times (r13 ``run_case``/``_judge``, r14 ``run_case``/``run_forked``
with a fresh HOME, r15/r16 copying r14's ``main``) and the builders lived in r14, imported by r15/r16 through it.
Now every probe imports this module; the rules are unchanged (the strictest of the copies):

* the exit code is the one expected (``"2"`` a refusal; ``"0|2"`` where either is a fair answer);
* an exit 2 prints exactly ONE line ``gpuplanner: error: …``: printable, at most 400 characters, no "Traceback", no
  pydantic dump, naming the words the case lists (``words``) and none it must not (``absent``);
* stdout holds no terminal control, bidirectional override or invisible character; ``--json`` output is strict JSON;
* nothing is written outside the scratch folder (the example folder, a fresh HOME but the app's own cache), and in
  the scratch folder only the files the command was asked to write (``outputs``);
* no case takes more than :data:`MAX_SECONDS` (a SIGALRM; ``--fork``: a child killed after 3 × that).

``main(argv, doc, makers, direct, direct_words)`` is each probe's command line: ``--only A|B`` (cases whose name
holds A or B; the direct checks run when a word of ``direct_words`` holds it), ``--list``, ``--fork``.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import io
import json
import os
import signal
import stat
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

MAX_SECONDS = 20.0
_FIXED = ROOT / "tests" / "data" / "examples_fixed"
EXAMPLE = json.loads((_FIXED / "llama3-8b-full-8xh100-zero3.json").read_text(encoding="utf-8"))
GRPO = json.loads((_FIXED / "7b-grpo-lora-8xh100-vllm.json").read_text(encoding="utf-8"))
MOE = json.loads((ROOT / "examples" / "mixtral-8x7b-ep8-16xa800.json").read_text(encoding="utf-8"))
LORA_JSON = ROOT / "examples" / "7b-lora-1x4090.json"
PLAN_PROJECT = ROOT / "examples" / "shenzhen-7b-domain-project.gpuplan"
PLAN_LORA = ROOT / "examples" / "7b-lora-1x4090.gpuplan"
QUOTES = ROOT / "examples" / "quotes" / "autodl-a800.csv"
KIT = ROOT / "tests" / "data" / "kit" / "result-cpu-sample.json"
KIT_MN = ROOT / "tests" / "data" / "kit" / "multinode-2x8-h100-ib-constructed.json"
CONFIG = ROOT / "tests" / "data" / "hf_configs"
SETTINGS = ".config/gpuplanner/gpuplanner-ui.ini"  # under the case's fresh HOME
BAD_OUT = set("\x1b\x00\u202e\u2066\u2067\u2068\u200b\u200f\u2028\u2029")
DUMP_WORDS = ("Traceback", "validation error", "For further information", "pydantic", "errors.pydantic.dev")
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r", "\n")  # OWASP "CSV Injection": = + - @ tab CR
MEG = {"training__framework": "megatron", "training__recompute": "none", "parallel__zero": 1}

Check = tuple[str, bool, str]  # a direct check: (what, passed, the line shown)


@dataclass
class Case:
    name: str
    argv: list[str]
    files: dict = field(default_factory=dict)  # written into the scratch folder first (see write_files)
    expect: str = "2"  # "2", "0" or "0|2"
    words: tuple[str, ...] = ()  # the one error line names each
    outputs: tuple[str, ...] = ()  # files the command may write (relative to the scratch folder)
    stdin: bytes | None = None
    max_out: int = 200_000  # stdout characters: a name from a file never multiplies the output
    absent: tuple[str, ...] = ()  # the one error line holds none of these
    home: dict = field(default_factory=dict)  # files written under the fresh HOME first (left as they were)
    chmod: dict = field(default_factory=dict)  # relative path -> mode, after writing


# ------------------------------------------------------------------------------------------ builders

_DEL = object()  # patched(..., key=_DEL): the key removed


def patched(base: dict, **paths) -> str:
    """``base`` with ``section__field=value`` set (``__`` for the dots), as JSON text (NaN kept as the literal)."""
    d = copy.deepcopy(base)
    for path, value in paths.items():
        node = d
        keys = path.split("__")
        for k in keys[:-1]:
            node = node.setdefault(k, {})
        if value is _DEL:
            node.pop(keys[-1], None)
        else:
            node[keys[-1]] = value
    return json.dumps(d, ensure_ascii=False)


def s(name, base, words=(), cmd="estimate", expect="2", extra=(), **paths) -> Case:
    """A scenario case: ``base`` patched with ``paths``, run through ``cmd``."""
    return Case(name, [cmd, "s.json", *extra], {"s.json": patched(base, **paths)}, expect, tuple(words))


def plan_text(**paths) -> str:
    """The LoRA example plan file patched (:func:`patched`)."""
    return patched(json.loads(PLAN_LORA.read_text(encoding="utf-8")), **paths)


def cfg(**over) -> str:
    """A small llama config.json with ``over`` set (``_DEL`` removes a key)."""
    d = {"model_type": "llama", "hidden_size": 512, "num_hidden_layers": 2, "num_attention_heads": 8,
         "num_key_value_heads": 8, "vocab_size": 1000, "intermediate_size": 1024}
    for k, v in over.items():
        if v is _DEL:
            d.pop(k, None)
        else:
            d[k] = v
    return json.dumps(d)


def cfg_case(name, words, cfg_text, expect="2", cmd="estimate") -> Case:
    """The example scenario reading its model from ``m/config.json`` = ``cfg_text``."""
    return Case(name, [cmd, "s.json"], {"s.json": patched(EXAMPLE, model__preset=None, model__hf_config="m"),
                                        "m/config.json": cfg_text}, expect, tuple(words))


def sheet_csv(offer_value="5.88", extra_rows="", vendor="X") -> str:
    """A one-offer quote sheet (CSV text)."""
    return ("section,item,value,unit,gpus_per_server,min_term_days,cap_at_month,note,date\n"
            f"vendor,provider,{vendor},,,,,,\nvendor,currency,CNY,,,,,,\n"
            f"offer,rtx-4090-24gb,{offer_value},card_hour,8,,no,,\n" + extra_rows)


def xlsx(build: Callable) -> bytes:
    """The one-offer quote sheet as a workbook, changed by ``build(wb, ws)``."""
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "v1"
    for r in [["section", "item", "value", "unit", "gpus_per_server", "min_term_days", "cap_at_month", "note", "date"],
              ["vendor", "provider", "X"], ["vendor", "currency", "CNY"],
              ["offer", "rtx-4090-24gb", 5.88, "card_hour", 8, None, "no"]]:
        ws.append(r)
    build(wb, ws)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


def q(name, words, files, expect="2", extra=()) -> Case:
    """``quotes PLAN_LORA q.* --json`` with the sheet in ``files``."""
    sheet = next(k for k in files if k.startswith("q."))
    return Case(name, ["quotes", str(PLAN_LORA), sheet, *extra, "--json"], files, expect, tuple(words))


def kit_text(fn: Callable, base: Path = KIT) -> str:
    """The sample kit result (``base``) changed in place by ``fn``, as JSON text."""
    d = json.loads(base.read_text(encoding="utf-8"))
    fn(d)
    return json.dumps(d)


def k(name, words, text, expect="2", scen=None) -> Case:
    """``kit-import SCENARIO r.json`` with ``text`` as the result."""
    return Case(name, ["kit-import", scen or str(LORA_JSON), "r.json"], {"r.json": text}, expect, tuple(words))


def with_files(c: Case, files: dict) -> Case:
    c.files = {**files, **c.files}
    return c


TOPO = ("\tGPU0\tGPU1\tNIC0\tCPU Affinity\tNUMA Affinity\tGPU NUMA ID\n"
        "GPU0\t X \tNV18\tPXB\t0-47\t0\t\tN/A\n"
        "GPU1\tNV18\t X \tPXB\t0-47\t0\t\tN/A\n"
        "NIC0\tPXB\tPXB\t X \n\nLegend:\n\n  X    = Self\n  NV#  = Connection traversing a bonded set of # NVLinks\n"
        "\nNIC Legend:\n\n  NIC0: mlx5_0\n")


def t(name, text: bytes | str, expect="0|2", words=(), extra=()) -> Case:
    """``topo t.txt`` with ``text`` (pasted ``nvidia-smi topo -m``)."""
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return Case(name, ["topo", "t.txt", *extra], {"t.txt": data}, expect, tuple(words))


def project_plan() -> tuple[dict, int]:
    """The example project plan (a fresh copy) and the index of its serving phase."""
    plan = json.loads(PLAN_PROJECT.read_text(encoding="utf-8"))
    return plan, next(i for i, p in enumerate(plan["project"]["phases"]) if p["kind"] == "inference")


def serving_case(name, words, expect="2", cmd=("project",), **spec) -> Case:
    """``project p.gpuplan`` (or ``cmd``) with the example project's serving phase's inference spec updated."""
    plan, serve = project_plan()
    plan["project"]["phases"][serve]["inference"].update(spec)
    return Case(name, [*cmd, "p.gpuplan"], {"p.gpuplan": json.dumps(plan)}, expect, tuple(words))


def printable_line(text: str) -> bool:
    return text.isprintable() and "\n" not in text and len(text) <= 400


# ------------------------------------------------------------------------------------------ running

class _Hang(Exception):
    pass


def _alarm(signum, frame):
    raise _Hang()


def write_files(base: Path, files: dict) -> None:
    """Write ``files`` under ``base``: bytes/str, or ``("symlink", target)``, ``("fifo",)``,
    ``("chardev", major, minor)``."""
    for rel, data in files.items():
        p = base / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, tuple) and data[0] == "symlink":
            os.symlink(data[1], p)
        elif isinstance(data, tuple) and data[0] == "fifo":
            os.mkfifo(p)
        elif isinstance(data, tuple) and data[0] == "chardev":
            os.mknod(p, 0o666 | stat.S_IFCHR, os.makedev(data[1], data[2]))
        else:
            p.write_bytes(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)


def tree(root: Path) -> dict:
    """Every file and folder under ``root`` (links not followed): (mtime ns, size, kind)."""
    out = {}
    for dirpath, dirs, names in os.walk(root):
        for n in names + dirs:
            p = Path(dirpath) / n
            with contextlib.suppress(OSError):
                st = p.lstat()
                out[str(p.relative_to(root))] = (st.st_mtime_ns, st.st_size, stat.S_IFMT(st.st_mode))
    return out


def home_of(tree_: dict) -> dict:
    """HOME's files but the app's own cache (~/.cache/gpuplanner: the compiled translation of a zh_CN run)."""
    return {k: v for k, v in tree_.items() if not k.startswith(".cache")}


def judge(case: Case, rc, out: str, err: str, dt: float) -> list[str]:
    """What is wrong with one run (empty: the case passes)."""
    problems = []
    allowed = {"2": {2}, "0": {0}, "0|2": {0, 2}}[case.expect]
    if rc not in allowed:
        problems.append(f"exit {rc}, expected {case.expect}")
    if dt > MAX_SECONDS:
        problems.append(f"took {dt:.1f} s")
    lines = err.strip().splitlines()
    if rc == 2:
        if len(lines) != 1 or not lines[0].startswith("gpuplanner: error: "):
            problems.append(f"{len(lines)} error lines")
        elif not lines[0].isprintable() or len(lines[0]) > 400:
            problems.append("error line not printable or over 400 characters")
        missing = [w for w in case.words if lines and w not in lines[0]]
        if missing:
            problems.append(f"error line does not name {missing}")
        held = [w for w in case.absent if lines and w in lines[0]]
        if held:
            problems.append(f"error line holds {held}")
    if any(w in err for w in DUMP_WORDS):
        problems.append("traceback or pydantic dump on stderr")
    if len(out) > case.max_out:
        problems.append(f"{len(out):,} characters on stdout")
    if set(out) & BAD_OUT:
        problems.append("control/bidi characters on stdout")
    if rc == 0 and "--json" in case.argv:
        try:
            json.loads(out, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
        except ValueError as e:
            problems.append(f"--json output not strict JSON ({e})")
    return problems


_ENV_KEYS = ("HOME", "XDG_CONFIG_HOME", "GPUPLANNER_CONFIG_DIR")


def _call_cli(argv: list[str], stdin: bytes | None) -> tuple[object, str, str, float]:
    """``gpuplanner ARGV`` in this process under the alarm: (exit code or "hang"/"crash X", stdout, stderr, s)."""
    from gpuplanner.cli import run_cli

    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.TextIOWrapper(io.BytesIO(stdin))
    out, err = io.StringIO(), io.StringIO()
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(int(MAX_SECONDS) + 1)
    t0 = time.perf_counter()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = run_cli(argv)
            except SystemExit as e:
                rc = e.code
    except _Hang:
        rc = "hang"
    except BaseException as e:  # noqa: BLE001 (a crash is what the probe looks for)
        import traceback

        rc = f"crash {type(e).__name__}"
        err.write(traceback.format_exc())
    finally:
        signal.alarm(0)
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue(), time.perf_counter() - t0


def run_case(case: Case) -> tuple[bool, str, float]:
    """Run one case in a fresh scratch folder (the working directory) and a fresh HOME; judge it."""
    with tempfile.TemporaryDirectory(prefix="probe-") as d, tempfile.TemporaryDirectory(prefix="probe-home-") as h:
        tmp, home = Path(d), Path(h)
        write_files(tmp, case.files)
        write_files(home, case.home)
        for rel, mode in case.chmod.items():
            os.chmod(tmp / rel, mode)
        before, before_home, before_root = tree(tmp), tree(home), tree(ROOT / "examples")
        saved_env = {key: os.environ.get(key) for key in _ENV_KEYS}
        old_cwd = os.getcwd()
        os.chdir(tmp)
        os.environ["HOME"] = h
        os.environ.pop("XDG_CONFIG_HOME", None)
        os.environ.pop("GPUPLANNER_CONFIG_DIR", None)
        try:
            rc, out, err, dt = _call_cli(case.argv, case.stdin)
        finally:
            os.chdir(old_cwd)
            for key, v in saved_env.items():
                if v is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = v
        problems = judge(case, rc, out, err, dt)
        after = tree(tmp)
        new = sorted(set(after) - set(before) - set(case.outputs))
        changed = sorted(key for key in before if after.get(key) != before[key] and key not in case.outputs)
        if new or changed:
            problems.append(f"wrote {new + changed}")
        if tree(ROOT / "examples") != before_root or home_of(tree(home)) != home_of(before_home):
            problems.append("wrote outside the scratch folder")
    first = (err.strip().splitlines() or [""])[0]
    return not problems, ("; ".join(problems) + " | " if problems else "") + f"rc={rc} " + repr(first[:220])[1:-1], dt


def run_forked(case: Case) -> tuple[bool, str, float]:
    """:func:`run_case` in a child process (``--fork``): a case that crashes the interpreter (a signal) or outlives
    the alarm inside C code is that case's FAIL, not the end of the run (how old code is scored)."""
    import select

    from gpuplanner.cli import run_cli  # noqa: F401  (imported once, before forking)

    rfd, wfd = os.pipe()
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:  # the child
        os.close(rfd)
        try:
            res = run_case(case)
        except BaseException as e:  # noqa: BLE001
            res = (False, f"runner crash {type(e).__name__}", time.perf_counter() - t0)
        os.write(wfd, json.dumps(res).encode())
        os._exit(0)
    os.close(wfd)
    ready, _, _ = select.select([rfd], [], [], MAX_SECONDS * 3)
    data = b""
    if ready:
        while chunk := os.read(rfd, 65536):
            data += chunk
    else:
        os.kill(pid, signal.SIGKILL)
    os.close(rfd)
    _, status = os.waitpid(pid, 0)
    dt = time.perf_counter() - t0
    if data:
        ok, line, dt = json.loads(data)
        return ok, line, dt
    if not ready:
        return False, f"hang: still running after {dt:.0f} s (killed)", dt
    return False, f"crash: the process died (signal {os.WTERMSIG(status) if os.WIFSIGNALED(status) else '?'})", dt


def guarded(*makers: Callable[[], list[Check]]) -> list[Check]:
    """Each maker's direct checks; a maker that raises is one failed check naming it."""
    out: list[Check] = []
    for fn in makers:
        try:
            out += fn()
        except Exception as err:  # noqa: BLE001
            out.append((fn.__name__, False, f"raised {type(err).__name__}: {err}"[:200]))
    return out


def main(argv: list[str] | None, doc: str, makers: Iterable[Callable[[], list[Case]]],
         direct: Callable[[], list[Check]] | None = None, direct_words: str = "direct") -> int:
    """A probe's command line: run its cases (``makers``) and direct checks; print a line each and the count."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("--only", default="", help="run the cases whose name holds this text (A|B: either)")
    ap.add_argument("--list", action="store_true", help="list the cases' names and exit")
    ap.add_argument("--fork", action="store_true", help="run each case in a child process (a crash fails that case)")
    args = ap.parse_args(argv)
    wanted = args.only.split("|")
    cases = [c for make in makers for c in make() if any(o in c.name for o in wanted)]
    if args.list:
        print("\n".join(c.name for c in cases))
        return 0
    failed = 0
    t0 = time.perf_counter()
    for case in cases:
        ok, line, dt = (run_forked if args.fork else run_case)(case)
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'} {dt:5.1f}s {case.name}: {line}", flush=True)
    checks = direct() if direct is not None and any(o in direct_words for o in wanted) else []
    for what, ok, line in checks:
        failed += not ok
        print(f"{'PASS' if ok else 'FAIL'}   0.0s {what}: {line}", flush=True)
    total = len(cases) + len(checks)
    print(f"{total - failed}/{total} cases pass ({time.perf_counter() - t0:.0f} s)")
    return 1 if failed else 0
