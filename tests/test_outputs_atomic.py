"""Every output file is written atomically (issue 18, lost work): ``kit -o``, ``report -o`` and the PDF and
chart exports leave a complete file or none (an earlier file stays as it was) on a full disk or a read-only
folder, and say so in one line with exit code 2."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PLAN = ROOT / "examples" / "8b-full-8xh100.gpuplan"

try:
    import resource
except ImportError:  # pragma: no cover - Windows
    resource = None

needs_fsize_limit = pytest.mark.skipif(resource is None or not hasattr(signal, "SIGXFSZ"),
                                       reason="needs RLIMIT_FSIZE (POSIX)")


def _cli(*args: str, fsize_limit: int | None = None, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """``gpuplanner ARGS`` in a child process (stderr as the terminal sees it, Qt's own messages included).
    ``fsize_limit``: no file may grow past this many bytes, as on a disk that fills up mid-write."""

    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # the write fails with EFBIG instead of killing
        resource.setrlimit(resource.RLIMIT_FSIZE, (fsize_limit, fsize_limit))

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "gpuplanner", *args], capture_output=True, text=True, timeout=300,
                          env=env, cwd=cwd or ROOT, preexec_fn=limit if fsize_limit else None)


def _names(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def _one_error_line(proc: subprocess.CompletedProcess) -> str:
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("gpuplanner: error: ") and "Traceback" not in proc.stderr
    return lines[0]


# ------------------------------------------------------------------------------------------------ kit

@needs_fsize_limit
def test_kit_onto_a_full_disk_leaves_no_truncated_script(tmp_path):
    out = tmp_path / "kit.sh"
    proc = _cli("kit", str(PLAN), "-o", str(out), fsize_limit=8192)  # the kit is ~27 kB
    assert proc.returncode == 2
    assert "cannot write" in _one_error_line(proc)
    assert _names(tmp_path) == []  # no kit.sh that would pass 'bash -n' half-written, no temp file
    # an earlier kit stays whole
    out.write_text("#!/bin/bash\necho previous kit\n")
    proc = _cli("kit", str(PLAN), "-o", str(out), fsize_limit=8192)
    assert proc.returncode == 2
    assert out.read_text() == "#!/bin/bash\necho previous kit\n" and _names(tmp_path) == ["kit.sh"]


def test_kit_is_written_whole_and_executable(tmp_path):
    out = tmp_path / "kit.sh"
    out.write_text("old")
    proc = _cli("kit", str(PLAN), "-o", str(out))
    assert proc.returncode == 0, proc.stderr
    text = out.read_text(encoding="utf-8")
    assert text.startswith("#!")
    # the kit's header carries the minute it was made: two runs may straddle a minute boundary
    stamp = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")
    assert stamp.sub("<time>", text) == stamp.sub("<time>", _cli("kit", str(PLAN)).stdout)
    assert _names(tmp_path) == ["kit.sh"]
    if os.name == "posix":
        assert os.stat(out).st_mode & 0o111
        assert subprocess.run(["bash", "-n", str(out)], capture_output=True).returncode == 0


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores directory permissions")
def test_kit_into_a_read_only_folder_is_one_line(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        proc = _cli("kit", str(PLAN), "-o", str(folder / "kit.sh"))
    finally:
        folder.chmod(0o700)
    assert proc.returncode == 2
    assert "permission denied" in _one_error_line(proc)
    assert _names(folder) == []


# --------------------------------------------------------------------------------------------- report

@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc: a folder nobody can create files in")
def test_report_into_an_unwritable_folder_is_exactly_one_line():
    """Qt used to add its own "QPainter::begin(): Returned false" line on stderr."""
    proc = _cli("report", str(PLAN), "-o", "/proc/gpuplanner-report.pdf")
    assert proc.returncode == 2
    line = _one_error_line(proc)
    assert "gpuplanner-report.pdf: cannot write (" in line and "QPainter" not in proc.stderr + proc.stdout


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores directory permissions")
def test_report_into_a_read_only_folder_is_exactly_one_line(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        proc = _cli("report", str(PLAN), "-o", str(folder / "out.pdf"))
    finally:
        folder.chmod(0o700)
    assert proc.returncode == 2
    assert _one_error_line(proc) == ("gpuplanner: error: out.pdf: cannot write (permission denied; the folder may be "
                                     "read-only); nothing was written")
    assert _names(folder) == []


def test_report_into_a_missing_folder_is_one_line(tmp_path):
    proc = _cli("report", str(PLAN), "-o", str(tmp_path / "no" / "such" / "out.pdf"))
    assert proc.returncode == 2
    assert "the folder does not exist" in _one_error_line(proc)


@needs_fsize_limit
def test_report_onto_a_full_disk_leaves_no_truncated_pdf(tmp_path):
    out = tmp_path / "out.pdf"
    out.write_bytes(b"%PDF-1.4 previous report")
    proc = _cli("report", str(PLAN), "-o", str(out), fsize_limit=64 * 1024)  # the PDF is ~1 MB
    assert proc.returncode == 2, proc.stderr
    assert "cannot write" in _one_error_line(proc)
    assert out.read_bytes() == b"%PDF-1.4 previous report" and _names(tmp_path) == ["out.pdf"]


# ------------------------------------------------------------------------------- the library entry

def test_export_pdf_failing_at_the_last_step_keeps_the_old_file(tmp_path, monkeypatch):
    from gpuplanner.core.errors import PlannerError
    from gpuplanner.io import planfile
    from gpuplanner.app.answer import report_data as load_report_data
    from gpuplanner.report.render import ensure_app
    from gpuplanner.report_file import export_pdf

    ensure_app()
    data = load_report_data(PLAN)
    out = tmp_path / "r.pdf"
    out.write_bytes(b"old")
    with monkeypatch.context() as m:
        m.setattr(planfile.os, "replace", lambda a, b: (_ for _ in ()).throw(OSError(28, "No space left")))
        with pytest.raises(PlannerError, match=r"^r.pdf: cannot write \(the disk is full\); nothing was written$"):
            export_pdf(data, out)
    assert out.read_bytes() == b"old" and _names(tmp_path) == ["r.pdf"]
    assert export_pdf(data, out) == out
    assert out.read_bytes()[:5] == b"%PDF-" and _names(tmp_path) == ["r.pdf"]
