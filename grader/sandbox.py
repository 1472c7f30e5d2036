"""Run untrusted code (a student's kernel, and the hidden tests that import a student's
module) apart from the grader.

As root on Linux, with util-linux's `unshare` and `setpriv` (the "namespaces"
isolation), each run gets
- its own PID namespace: when its first process ends, or is killed, every process it
  started is killed with it;
- its own, empty network namespace: no network;
- its own mount namespace, in which every file system is read-only except the run's
  workspace, and the folders it is asked to hide (the grader's repository, with our
  solutions) are empty but for the Python environment inside them;
- the unprivileged user nobody (no capabilities). Directories above the Python
  interpreter that nobody may not enter (such as /root) are replaced, in that namespace
  only, by a tmpfs holding just the way through to the interpreter.
Otherwise (the "session" isolation: not root, or a machine without namespaces) a run
gets its own HOME, temporary folder and working directory, and when it ends every
process carrying its marker in its environment is killed. That is weaker: such code runs
as the grader's user and can write where the grader can. `describe()` says which
applies."""

import functools
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

NOBODY = 65534

# Run by /bin/sh inside the new namespaces, as root, before it becomes nobody: $1 is the
# workspace, $2 the ways through ("directory:child" pairs: the directory is replaced by
# an empty tmpfs holding only its child, if one is named), the rest the command. Mounts
# made here are private to the namespace.
SETUP = r"""
set -e
workspace=$1; ways=$2; shift 2
mount --make-rprivate /
for way in $ways; do
    directory=${way%%:*}; child=${way#*:}
    mkdir -p "$workspace/.way"
    if [ -n "$child" ]; then mount --bind "$child" "$workspace/.way"; fi
    mount -t tmpfs -o mode=755 tmpfs "$directory"
    if [ -n "$child" ]; then
        mkdir -p "$child" && mount --bind "$workspace/.way" "$child"
        umount "$workspace/.way"
    fi
    rmdir "$workspace/.way"
done
mount --bind "$workspace" "$workspace"
for target in $(awk '{print $5}' /proc/self/mountinfo | sort -ru); do
    case $target in
        /proc|/proc/*|/sys|/sys/*|/dev|/dev/*|"$workspace") ;;
        *) mount -o remount,bind,ro "$target" 2>/dev/null || true ;;
    esac
done
mount -t proc proc /proc
# the working directory, found again through the new mounts (the old one is read-only)
cd "$PWD"
previous=
# a kernel's connection file (after -f), which Jupyter writes readable by its owner only
for argument; do
    if [ "$previous" = "-f" ]; then chown 65534:65534 "$argument"; fi
    previous=$argument
done
exec setpriv --reuid=65534 --regid=65534 --clear-groups --no-new-privs -- "$@"
"""


def ways_through(path):
    """The 'directory:child' pairs on the way to `path` where other users may not enter
    the directory."""
    parts = Path(path).resolve().parts
    return [
        f"{Path(*parts[:i])}:{Path(*parts[: i + 1])}"
        for i in range(2, len(parts))
        if not Path(*parts[:i]).stat().st_mode & 0o001
    ]


def hiding(folder):
    """The way that hides `folder`, keeping only the Python environment the grader runs,
    if it is inside."""
    folder, keep = Path(folder).resolve(), Path(sys.prefix).resolve()
    interpreter = Path(sys.base_prefix).resolve()
    if interpreter.is_relative_to(folder) and not interpreter.is_relative_to(keep):
        # the interpreter itself is in there: hiding it would leave nothing to run
        return []
    return [f"{folder}:{keep if keep.is_relative_to(folder) else ''}"]


def isolated(argv, workspace, hidden=()):
    """`argv` wrapped to run in new PID, network and mount namespaces, as nobody,
    writing only to `workspace`."""
    ways = {way for path in (sys.base_prefix, sys.prefix) for way in ways_through(path)}
    ways |= {way for folder in hidden for way in hiding(folder)}
    return [
        "unshare",
        "--pid",
        "--fork",
        "--kill-child",
        "--net",
        "--mount",
        "--",
        "/bin/sh",
        "-c",
        SETUP,
        "sandbox",
        str(workspace),
        " ".join(sorted(ways, key=len)),
        *argv,
    ]


@functools.lru_cache(maxsize=None)
def isolation():
    """'namespaces' where this machine can run code as the module docstring says,
    'session' otherwise (probed once)."""
    if (
        os.name != "posix"
        or os.geteuid() != 0
        or not (shutil.which("unshare") and shutil.which("setpriv"))
    ):
        return "session"
    with tempfile.TemporaryDirectory() as tmp:
        workspace = prepare(Path(tmp), "namespaces")
        try:
            done = subprocess.run(
                isolated(
                    [sys.executable, "-c", "import ipykernel, nltk, sacrebleu"],
                    workspace,
                ),
                env=environment(workspace, "probe"),
                capture_output=True,
                timeout=120,
            )
        except (OSError, subprocess.TimeoutExpired):
            return "session"
        return "namespaces" if done.returncode == 0 else "session"


def describe():
    "One line for the teacher: how student code is kept apart on this machine."
    if isolation() == "namespaces":
        return (
            "isolation: student code runs as nobody, without network, in its own "
            "process namespace, with every file system read-only but its workspace"
        )
    return (
        "isolation: weak (run the grader as root on Linux for more): student code runs "
        "as you, with its own HOME and working directory, and its processes are killed "
        "when it ends, but it can write where you can"
    )


def prepare(workspace, mode=None):
    """Make `workspace` ready for a run: a HOME and a temporary folder, matplotlib's
    font cache, and its owner."""
    for folder in ("home", "tmp"):
        (workspace / folder).mkdir(parents=True, exist_ok=True)
    # saves every run a font-cache build of a second or two
    fonts = Path(__import__("matplotlib").get_cachedir())
    if fonts.is_dir():
        shutil.copytree(
            fonts, workspace / "home" / ".cache" / "matplotlib", dirs_exist_ok=True
        )
    if (mode or isolation()) == "namespaces":
        for folder, _, files in os.walk(workspace):
            for path in [folder, *(os.path.join(folder, name) for name in files)]:
                os.chown(path, NOBODY, NOBODY)
    return workspace


def environment(workspace, marker, extra=None):
    """A minimal environment for a run: nothing of the grader's own but PATH and the
    Python it runs."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(workspace / "home"),
        "LANG": "C.UTF-8",
        "TMPDIR": str(workspace / "tmp"),
        "MPLCONFIGDIR": str(workspace / "home" / ".cache" / "matplotlib"),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONPATH": str(workspace),
        "BLEU_GRADER_RUN": marker,
        **(extra or {}),
    }


def command(argv, workspace, hidden=()):
    """`argv` as this machine's isolation runs it; with namespaces, the folders `hidden`
    look empty to it."""
    return isolated(argv, workspace, hidden) if isolation() == "namespaces" else argv


def new_marker():
    return secrets.token_hex(8)


def end(marker):
    """Kill whatever a run left behind. With namespaces nothing can be left; otherwise,
    every process with its marker."""
    if isolation() == "namespaces":
        return
    # Linux; elsewhere there is no /proc and this does nothing
    for process in Path("/proc").glob("[0-9]*"):
        try:
            if f"BLEU_GRADER_RUN={marker}".encode() in (
                process / "environ"
            ).read_bytes().split(b"\0"):
                os.kill(int(process.name), signal.SIGKILL)
        except (OSError, ValueError):
            continue
