"""Re-extract translatable strings into gpuplanner/resources/i18n/gpuplanner_zh_CN.ts.

Usage: python scripts/update_translations.py [--check] [--list]
  --check: exit 1 if the .ts would change (strings added/removed without re-extraction), has
           unfinished entries, or the code has translation calls whose context cannot be known.
  --list:  print the extracted (context, text) pairs.

Why not run ``pyside6-lupdate`` straight over ``gpuplanner/``: its Python parser (6.12) needs string
literals and misses three patterns the code uses —

* ``QT_TRANSLATE_NOOP(CTX, "…")`` with ``CTX = "Search"`` a module constant: the string is dropped;
* ``self.tr("…")`` inside an f-string: not seen;
* ``tr = self.tr; tr("…")``: filed under an empty context, which Qt never looks up at run time.

So this script reads the sources with :mod:`ast` (contexts resolved from module constants, ``tr`` calls
given the enclosing class — PySide6's ``QObject.tr`` walks the class's MRO at run time), writes every
message as a literal ``QCoreApplication.translate("Context", "text")`` line into a temporary file, and
lets ``pyside6-lupdate`` merge that file into the .ts (keeping translations, dropping vanished
entries with ``-no-obsolete``). lupdate needs ``-extensions py`` for folders (qt-app-engineering notes,
§D1 pitfall), so the temporary file is passed by name.
"""

from __future__ import annotations

import argparse
import ast
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "gpuplanner"
TS = PACKAGE / "resources" / "i18n" / "gpuplanner_zh_CN.ts"

TR_NAMES = {"tr", "QT_TR_NOOP"}                          # context = the enclosing class
CTX_NAMES = {"translate", "QT_TRANSLATE_NOOP", "QT_TRANSLATE_NOOP3"}  # context = first argument


@dataclass(frozen=True)
class Message:
    context: str
    text: str
    comment: str = ""
    numerus: bool = False


@dataclass(frozen=True)
class Problem:
    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def _literal(node: ast.AST, consts: dict[str, str]) -> str | None:
    """A string constant, an implicit/explicit concatenation of them, or a module constant's value."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        a, b = _literal(node.left, consts), _literal(node.right, consts)
        return a + b if a is not None and b is not None else None
    if isinstance(node, ast.Name) and node.id in consts:
        return consts[node.id]
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls") \
            and node.attr in consts:
        return consts[node.attr]
    return None


def _module_constants(tree: ast.Module) -> dict[str, str]:
    """``NAME = "text"`` at module level or in a class body (``CTX = "Report"``)."""
    out: dict[str, str] = {}
    bodies = [tree.body] + [n.body for n in ast.walk(tree) if isinstance(n, ast.ClassDef)]
    for body in bodies:
        for st in body:
            if isinstance(st, ast.Assign) and isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                for t in st.targets:
                    if isinstance(t, ast.Name):
                        out.setdefault(t.id, st.value.value)
            elif isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and \
                    isinstance(st.value, ast.Constant) and isinstance(st.value.value, str):
                out.setdefault(st.target.id, st.value.value)
    return out


class _Visitor(ast.NodeVisitor):
    def __init__(self, rel: str, consts: dict[str, str]):
        self.rel, self.consts = rel, consts
        self.classes: list[str] = []
        self.annotations: list[dict[str, str]] = []  # per function: parameter -> annotated class name
        self.messages: list[Message] = []
        self.problems: list[Problem] = []

    def visit_ClassDef(self, node: ast.ClassDef) -> None:  # noqa: N802 (ast API)
        self.classes.append(node.name)
        self.generic_visit(node)
        self.classes.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:  # noqa: N802 (ast API)
        ann: dict[str, str] = dict(self.annotations[-1]) if self.annotations else {}
        for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs:
            t = a.annotation
            if isinstance(t, ast.Constant) and isinstance(t.value, str):
                ann[a.arg] = t.value.rsplit(".", 1)[-1]
            elif isinstance(t, ast.Name):
                ann[a.arg] = t.id
            elif isinstance(t, ast.Attribute):
                ann[a.arg] = t.attr
        self.annotations.append(ann)
        self.generic_visit(node)
        self.annotations.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def _where(self, node: ast.AST) -> str:
        return f"{self.rel}:{node.lineno}"

    def visit_Call(self, node: ast.Call) -> None:  # noqa: N802 (ast API)
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
        if name in TR_NAMES and node.args:
            self._tr_call(node, f)
        elif name in CTX_NAMES and len(node.args) >= 2:
            self._ctx_call(node, name)
        self.generic_visit(node)

    def _tr_call(self, node: ast.Call, f: ast.AST) -> None:
        text = _literal(node.args[0], self.consts)
        if text is None:
            if isinstance(node.args[0], ast.JoinedStr):
                self.problems.append(Problem(self._where(node), "tr(f\"…\"): an f-string cannot be translated; "
                                                                 "use tr(\"… {0}\").format(…)"))
            return
        comment = _literal(node.args[1], self.consts) if len(node.args) > 1 else None
        numerus = len(node.args) > 2 or any(k.arg == "n" for k in node.keywords)
        if isinstance(f, ast.Attribute) and not (isinstance(f.value, ast.Name) and f.value.id in ("self", "cls")):
            owner = f.value.id if isinstance(f.value, ast.Name) else None
            known = owner if owner in self.classes else (self.annotations[-1].get(owner) if self.annotations else None)
            if known is None:
                self.problems.append(Problem(self._where(node), f"{ast.unparse(f)}({text!r}): the context is the "
                                     f"class of '{ast.unparse(f.value)}', unknown here; annotate the parameter "
                                     "(window: \"MainWindow\") or use QCoreApplication.translate(\"ThatClass\", …)"))
                return
            self.messages.append(Message(known, text, comment or "", numerus))
            return
        if not self.classes:
            if isinstance(f, ast.Name) and f.id == "tr":
                self.problems.append(Problem(self._where(node), f"tr({text!r}) outside a class: no context"))
            return
        self.messages.append(Message(self.classes[-1], text, comment or "", numerus))

    def _ctx_call(self, node: ast.Call, name: str) -> None:
        text = _literal(node.args[1], self.consts)
        if text is None:
            return  # translating a value computed elsewhere (a core message): marked where it is made
        ctx = _literal(node.args[0], self.consts)
        if ctx is None:
            self.problems.append(Problem(self._where(node), f"{name}(…, {text!r}): the context is not a string "
                                                             "literal or a constant of this module"))
            return
        comment = _literal(node.args[2], self.consts) if len(node.args) > 2 else None
        numerus = name == "translate" and len(node.args) > 3
        self.messages.append(Message(ctx, text, comment or "", numerus))


def extract(package: Path = PACKAGE) -> tuple[list[Message], list[Problem]]:
    """Every translatable message in ``package`` (first occurrence order) and the calls that cannot be
    extracted correctly."""
    messages: dict[tuple[str, str, str], Message] = {}
    problems: list[Problem] = []
    for py in sorted(package.rglob("*.py")):
        rel = str(py.relative_to(package.parent))
        try:
            tree = ast.parse(py.read_text(encoding="utf-8"), filename=rel)
        except SyntaxError as err:
            problems.append(Problem(rel, f"cannot parse: {err}"))
            continue
        v = _Visitor(rel, _module_constants(tree))
        v.visit(tree)
        problems += v.problems
        for m in v.messages:
            key = (m.context, m.text, m.comment)
            if key not in messages or (m.numerus and not messages[key].numerus):
                messages[key] = m
    return list(messages.values()), problems


def write_shim(messages: list[Message], path: Path) -> None:
    """A Python file lupdate reads: one literal ``QCoreApplication.translate`` call per message."""
    lines = ["from PySide6.QtCore import QCoreApplication", ""]
    for m in messages:
        args = [repr(m.context), repr(m.text)]
        if m.comment or m.numerus:
            args.append(repr(m.comment) if m.comment else "None")
        if m.numerus:
            args.append("n")
        lines.append(f"QCoreApplication.translate({', '.join(args)})")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def find_lupdate() -> str:
    for name in ("pyside6-lupdate",):
        cand = Path(sys.executable).with_name(name)
        if cand.exists():
            return str(cand)
        if shutil.which(name):
            return shutil.which(name)
    raise SystemExit("pyside6-lupdate not found (install PySide6-Essentials)")


def run_lupdate(ts: Path, messages: list[Message] | None = None) -> None:
    """Merge the extracted messages into ``ts`` (translations kept, vanished entries dropped)."""
    if messages is None:
        messages, _ = extract()
    with tempfile.TemporaryDirectory() as d:
        shim = Path(d) / "gpuplanner_strings.py"
        write_shim(messages, shim)
        subprocess.run(
            [find_lupdate(), "-no-obsolete", "-locations", "none", "-source-language", "en",
             "-target-language", "zh_CN", str(shim), "-ts", str(ts)],
            check=True, capture_output=True, text=True,
        )


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--list", action="store_true")
    args = ap.parse_args(argv)
    messages, problems = extract()
    if args.list:
        for m in messages:
            print(f"[{m.context}] {m.text!r}")
    for p in problems:
        print(f"warning: {p}", file=sys.stderr)
    if args.check:
        with tempfile.TemporaryDirectory() as d:
            tmp = Path(d) / TS.name
            shutil.copy(TS, tmp)
            run_lupdate(tmp, messages)
            changed = tmp.read_text(encoding="utf-8") != TS.read_text(encoding="utf-8")
        text = TS.read_text(encoding="utf-8")
        unfinished = text.count('type="unfinished"')
        if changed or unfinished or problems:
            print(f"translations out of date: changed={changed}, unfinished={unfinished}, "
                  f"untranslatable calls={len(problems)}")
            return 1
        return 0
    TS.parent.mkdir(parents=True, exist_ok=True)
    run_lupdate(TS, messages)
    print(f"updated {TS.relative_to(ROOT)} ({len(messages)} messages)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
