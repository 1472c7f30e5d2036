"""The sandbox's isolation, mode by mode (grader/sandbox.py): as root, in a user
namespace (what a teacher without root gets on Linux), and the weak fallback. Each mode
this machine allows runs the malicious submission's `tamper` trick on one stage."""

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from grader import classroom, sandbox
from grading import FAST
from make_malicious_submission import make
from support import ROOT


def available(mode):
    "Skip unless this machine can isolate in `mode`."
    why_not = sandbox.probe(mode)
    if why_not:
        pytest.skip(f"no {mode} isolation here: {why_not}")


def run(argv, workspace, mode, hidden=(), reach=(), extra=None):
    "Run `argv` in the sandbox, in `mode`; its output."
    done = subprocess.run(
        sandbox.isolated(argv, workspace, hidden, mode, reach),
        env=sandbox.environment(workspace, sandbox.new_marker(), extra),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


PROBE = """
import os, socket, sys
home, root = sys.argv[1:]
print(os.geteuid(), sorted(os.listdir(root)), sorted(os.listdir(home)))
for path in [root + "/README.md", home + "/sandbox-probe", "/etc/sandbox-probe"]:
    try:
        open(path, "a")
        print("wrote", path)
    except OSError:
        pass
try:
    socket.create_connection(("127.0.0.1", 22), timeout=2)
except OSError as error:
    print(type(error).__name__)
print([line.split()[1] for line in open("/proc/self/status") if "CapEff" in line])
"""


@pytest.mark.parametrize("mode", sandbox.MODES)
def test_student_code_runs_without_network_privileges_or_our_files(tmp_path, mode):
    available(mode)
    tmp_path.chmod(0o711)
    workspace = sandbox.prepare(tmp_path / "workspace", mode)
    home = Path.home()
    argv = [sys.executable, "-c", PROBE, str(home), str(ROOT)]
    printed = run(argv, workspace, mode, [ROOT]).splitlines()
    venv = [Path(sys.prefix).name] if Path(sys.prefix).is_relative_to(ROOT) else []
    # in a user namespace the user's home is hidden but for Python; as root, nobody
    # may not enter root's home, but for Python
    kept = sorted(
        {
            path.relative_to(home).parts[0]
            for path in map(Path, [sys.base_prefix, sys.prefix])
            if path.is_relative_to(home)
        }
    )
    user = sandbox.NOBODY if mode == "root" else 0
    # no file written, network unreachable (not refused), no capability
    assert printed == [f"{user} {venv} {kept}", "OSError", "['0000000000000000']"]


@pytest.mark.parametrize("mode", sandbox.MODES)
def test_a_run_stopped_from_outside_takes_its_processes_with_it(tmp_path, mode):
    """The grader stops a run by killing the process it started (a cell that loops);
    the student's code, a child of it in the sandbox, must die too. As root, changing to
    nobody clears the parent-death signal that `unshare --kill-child` set."""
    available(mode)
    tmp_path.chmod(0o711)
    workspace = sandbox.prepare(tmp_path / "workspace", mode)
    marker = sandbox.new_marker()
    loop = f"open('started', 'w').close()\nwhile True:  # {marker}\n    pass"
    started = subprocess.Popen(
        sandbox.isolated([sys.executable, "-c", loop], workspace, (), mode),
        cwd=workspace,
        env=sandbox.environment(workspace, marker),
    )
    for _ in range(100):  # until the loop runs
        if (workspace / "started").exists():
            break
        time.sleep(0.1)
    started.kill()
    started.wait()
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-f", marker], capture_output=True).stdout
    subprocess.run(["pkill", "-9", "-f", marker])  # should the test fail
    assert (workspace / "started").exists() and not left, left


def test_folders_under_one_locked_folder_are_all_kept(tmp_path):
    """As root: two folders to keep under one that nobody may not enter (Python under
    /root/.pyenv and the environment under /root/.cache) are both there, and only
    they."""
    available("root")
    tmp_path.chmod(0o711)
    locked = tmp_path / "locked"
    for name in ["pyenv", "cache", "secret"]:
        (locked / name).mkdir(parents=True)
        (locked / name / "file").write_text(name)
    locked.chmod(0o700)
    workspace = sandbox.prepare(tmp_path / "workspace", "root")
    reach = [locked / "pyenv", locked / "cache"]
    # one tmpfs over the locked folder (or the one above it), keeping both
    plan = sandbox.covers("root", workspace, reach=reach)
    groups = [kept for kept in plan.values() if {*reach} & {*kept}]
    assert len(groups) == 1 and {*reach} <= {*groups[0]}, plan
    show = """
import os, sys
locked = sys.argv[1]
print(sorted(os.listdir(locked)), open(locked + "/cache/file").read())
try:
    open(locked + "/pyenv/new", "w")
except OSError as error:
    print(type(error).__name__)
"""
    printed = run(
        [sys.executable, "-c", show, str(locked)], workspace, "root", [], reach
    )
    assert printed.split("\n") == ["['cache', 'pyenv'] cache", "OSError", ""]


@pytest.mark.skipif(
    os.name != "posix" or os.geteuid() != 0, reason="becomes nobody: needs root"
)
def test_a_user_without_root_gets_a_user_namespace(tmp_path):
    """A teacher on a laptop: the grader run by an unprivileged user (nobody, inside the
    root mode's sandbox, where it can reach Python) isolates in a user namespace."""
    available("root")
    tmp_path.chmod(0o711)
    workspace = sandbox.prepare(tmp_path / "workspace", "root")
    which = "from grader import sandbox; print(sandbox.describe())"
    printed = run(
        [sys.executable, "-c", which],
        workspace,
        "root",
        reach=[ROOT],
        extra={"PYTHONPATH": str(ROOT)},
    )
    assert printed.startswith("isolation: strong (user namespace): "), printed


@pytest.mark.parametrize("mode", sandbox.MODES)
def test_a_malicious_submission_changes_no_grade_and_no_file(
    edition, tmp_path, monkeypatch, mode
):
    """The `tamper` trick tries to make the file systems writable again, then to change
    the teacher's tests/test_differential.py and tests/conftest.py and to write into the
    repository: in each strong mode it fails, and so does the stage. (Without isolation
    it succeeds: tests/test_grader_security.py does not run it then.)"""
    available(mode)
    # the grading workers are forked: they isolate in this mode too
    monkeypatch.setattr(sandbox, "isolation", lambda: mode)
    assert sandbox.describe().startswith(f"isolation: strong ({mode}): ")
    before = classroom.fingerprint()
    report = classroom.grade(
        make(edition, tmp_path / "submission", "tamper"), only=["01"], **FAST
    )
    stage = report["stages"][0]
    assert stage["status"] == "graded" and not stage["passed"], stage
    assert stage["tests_passed"] == 0 < stage["tests_total"], stage
    assert (
        report["isolation"] == mode
        and report["repository_changed"] == []
        and classroom.fingerprint() == before
        and not (ROOT / "HACKED.txt").exists()
    )


def test_without_unshare_isolation_is_weak_and_can_be_required(edition, tmp_path):
    """No util-linux on the PATH: the first line says weak and why, and
    --require-isolation refuses to grade, with exit status 4."""
    gradebook = tmp_path / "gradebook.json"
    done = subprocess.run(
        [sys.executable, "-m", "grader", "grade", str(edition), "--stage", "01"]
        + ["--json", str(gradebook), "--require-isolation"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PATH": str(tmp_path)},
    )
    lines = done.stderr.splitlines()
    assert done.returncode == 4 and done.stdout == "" and not gradebook.exists()
    assert lines[0].startswith("isolation: weak: "), lines
    assert "unshare and setpriv not found (util-linux)" in lines[0]
    assert lines[1].startswith("refusing to grade: --require-isolation needs strong")


def test_the_strongest_mode_that_works_is_taken(monkeypatch):
    """Root first, then a user namespace, then weak, saying why each failed."""
    for failing, expected in [
        ((), "root"),
        (("root",), "user namespace"),
        (sandbox.MODES, "weak"),
    ]:
        monkeypatch.setattr(
            sandbox,
            "probe",
            lambda mode, failing=failing: "no" if mode in failing else None,
        )
        assert sandbox.isolation.__wrapped__() == expected
    monkeypatch.setattr(sandbox, "isolation", lambda: "weak")
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert sandbox.describe().startswith(
        "isolation: weak: not root, and no user namespace: no. Student code runs as you"
    )
