"""Run untrusted code (a student's notebook and module) apart from the grader, and our
checks and hidden tests apart from it.

On Linux with util-linux's `unshare` and `setpriv`, the isolation is strong: each run
gets
- its own PID namespace: when its first process ends, or is killed, every process it
  started is killed with it;
- its own, empty network namespace: no network;
- its own mount namespace, in which every file system is read-only except the run's
  workspace and a private /dev/shm, and the folders it is asked to hide (the grader's
  repository, with our solutions) are empty but for the Python environment inside them;
- no privileges: no capabilities, and no way to gain any (no_new_privs).
As root (mode "root"), the run's user is nobody, and the folders above Python and the
workspace that nobody may not enter (such as /root) are replaced, in that namespace
only, by a tmpfs holding just those. Without root (mode "user namespace", where the
kernel lets users create user namespaces), the run is the grader's own user, so the
user's home and temporary folder are hidden as well.
Otherwise (mode "weak") a run gets its own HOME, temporary folder and working directory,
and when it ends every process carrying its marker in its environment is killed; such
code runs as the grader's user and can write where the grader can. `describe()` says
which mode applies, and why a weak one."""

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
# the strong modes, strongest first
MODES = ("root", "user namespace")

# Run by /bin/sh inside the new namespaces, as (the namespace's) root: $1 is the
# workspace, $2 the user to become (empty: stay, without privileges), then the folders
# to cover (each a newline-separated list: the folder, then the folders inside it to
# keep), "--", and the command. Mounts made here are private to the namespace.
SETUP = r"""
set -e
workspace=$1; user=$2; shift 2
# -n: write nothing to /run/mount (read-only when a sandbox runs the grader itself)
mount -n --make-rprivate /
# a private, empty /dev/shm: scratch space for the run, and where kept folders wait
mount -n -t tmpfs -o mode=1777 tmpfs /dev/shm
stash=/dev/shm/.kept
cover() {  # replace folder $1 by an empty tmpfs that holds only the folders $2...
    folder=$1; shift; i=0
    for kept; do
        i=$((i + 1)); mkdir -p "$stash/$i"; mount -n --rbind "$kept" "$stash/$i"
    done
    mount -n -t tmpfs -o mode=755 tmpfs "$folder"
    i=0
    for kept; do
        i=$((i + 1)); mkdir -p "$kept"; mount -n --move "$stash/$i" "$kept"
        rmdir "$stash/$i"
    done
}
newline='
'
while [ "$1" != -- ]; do
    IFS=$newline; set -f; cover $1; unset IFS; set +f; shift
done
shift
mount -n --bind "$workspace" "$workspace"
# every other mount read-only (mountinfo writes a space as \040: printf %b decodes it);
# a mount that stays writable stops the run
awk '{print $5}' /proc/self/mountinfo | sort -ru | while IFS= read -r target; do
    target=$(printf '%b' "$target")
    case $target in
        /proc|/proc/*|/dev|/dev/*|"$workspace") ;;
        *) if [ -e "$target" ]; then mount -n -o remount,bind,ro "$target"; fi ;;
    esac
done
mount -n -t proc proc /proc
# the working directory, found again through the new mounts (the old one is read-only)
cd "$PWD"
# --pdeathsig: the run dies with unshare, which the grader kills to stop it (becoming
# nobody clears the signal that unshare's --kill-child set)
set -- --inh-caps=-all --bounding-set=-all --no-new-privs --pdeathsig KILL -- "$@"
if [ -n "$user" ]; then
    exec setpriv --reuid="$user" --regid="$user" --clear-groups "$@"
fi
# a user namespace: its root is the grader's user outside; without capabilities it can
# neither undo these mounts nor write where the read-only mounts forbid
exec setpriv "$@"
"""


def locked_above(path):
    """The topmost folder on the way to `path` that other users may not enter, or
    None."""
    parts = Path(path).resolve().parts
    for i in range(2, len(parts)):
        if not Path(*parts[:i]).stat().st_mode & 0o001:
            return Path(*parts[:i])
    return None


def covers(mode, workspace, hidden=(), reach=()):
    """{folder: the folders inside it to keep}: what the set-up replaces by an empty
    tmpfs. Kept are Python, the workspace and `reach`; covered are
    the folders `hidden` and, as root, those that nobody may not enter on the way."""
    keep = {Path(p).resolve() for p in (sys.base_prefix, sys.prefix, workspace, *reach)}
    folders = {Path(folder).resolve() for folder in hidden}
    if mode == "root":
        folders |= {locked for path in keep if (locked := locked_above(path))}
    # never "/", nor a folder inside what must stay (that would hide part of Python)
    folders = {
        folder
        for folder in folders
        if len(folder.parts) > 1 and not any(folder.is_relative_to(p) for p in keep)
    }
    plan = {}
    for folder in sorted(folders, key=lambda folder: len(folder.parts)):
        if any(folder.is_relative_to(outer) for outer in plan):
            continue  # covered already, but for what is kept
        inside = [path for path in keep if path.is_relative_to(folder)]
        # a kept folder inside another kept one comes with it
        plan[folder] = sorted(
            path
            for path in inside
            if not any(path != other and path.is_relative_to(other) for other in inside)
        )
    if any("\n" in str(path) for path in [*plan, *keep]):
        raise ValueError("the sandbox cannot keep or hide a path with a newline in it")
    return plan


def isolated(argv, workspace, hidden=(), mode=None, reach=()):
    """`argv` wrapped to run in new PID, network and mount namespaces (in `mode`, by
    default this machine's), without privileges, writing only to `workspace`, the
    folders `hidden` looking empty; `reach`: other folders it must see."""
    mode = mode or isolation()
    if mode == "user namespace":
        # the user's own files: what nobody could not read as root
        hidden = [*hidden, Path.home(), tempfile.gettempdir()]
    plan = covers(mode, workspace, hidden, reach)
    return [
        "unshare",
        *(["--user", "--map-root-user"] if mode == "user namespace" else []),
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
        str(NOBODY) if mode == "root" else "",
        *("\n".join(map(str, [folder, *kept])) for folder, kept in plan.items()),
        "--",
        *argv,
    ]


# What a run must not do, tried inside the sandbox: prints "ok", or what went wrong.
PROBE = """
import os, sys
import IPython, nltk, sacrebleu
outside, hidden = sys.argv[1:]
try:
    open(os.path.join(outside, "written"), "w")
    print("a file outside the workspace could be written")
except OSError:
    capabilities = [line for line in open("/proc/self/status") if "CapEff" in line]
    if os.path.isdir(hidden) and os.listdir(hidden):
        print("a hidden folder could be read")
    elif int(capabilities[0].split()[1], 16):
        print("the run kept privileges")
    else:
        print("ok")
"""


@functools.lru_cache(maxsize=None)
def probe(mode):
    """None if `mode` works on this machine as the module docstring says, else why not
    (tried once)."""
    if sys.platform != "linux":
        return "not Linux"
    if mode == "root" and os.geteuid() != 0:
        return "not root"
    missing = [tool for tool in ("unshare", "setpriv") if not shutil.which(tool)]
    if missing:
        return f"{' and '.join(missing)} not found (util-linux)"
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        # the sandbox's user may pass through to its workspace
        tmp.chmod(0o711)
        workspace = prepare(tmp / "workspace", mode)
        outside, hidden = tmp / "outside", tmp / "hidden"
        outside.mkdir()
        # writable by anyone: only a read-only mount stops the write
        outside.chmod(0o777)
        hidden.mkdir()
        (hidden / "secret").write_text("")
        argv = [sys.executable, "-c", PROBE, str(outside), str(hidden)]
        try:
            done = subprocess.run(
                isolated(argv, workspace, [hidden], mode),
                env=environment(workspace, "probe"),
                capture_output=True,
                text=True,
                timeout=120,
            )
        except (OSError, subprocess.TimeoutExpired) as error:
            return f"the sandbox did not start ({type(error).__name__})"
    if done.stdout.strip() == "ok":
        return None
    # what the probe printed, its error, or the set-up's first (it stops there)
    errors = done.stderr.strip().splitlines()
    said = done.stdout.strip().splitlines()[-1:] or (
        errors[-1:] if "Traceback" in done.stderr else errors[:1]
    )
    return said[0].strip(" .") if said else f"the sandbox exited with {done.returncode}"


@functools.lru_cache(maxsize=None)
def isolation():
    "The strongest mode this machine allows: 'root', 'user namespace' or 'weak'."
    return next((mode for mode in MODES if probe(mode) is None), "weak")


def why_weak():
    "Why no strong mode works here."
    reasons = {mode: probe(mode) for mode in MODES}
    if os.geteuid() != 0:
        return f"not root, and no user namespace: {reasons['user namespace']}"
    if len(set(reasons.values())) == 1:
        return reasons["root"]
    return (
        f"as root: {reasons['root']}; in a user namespace: {reasons['user namespace']}"
    )


def describe():
    "The grader's first line: which isolation student code gets on this machine."
    if isolation() == "root":
        return (
            "isolation: strong (root): student code runs as nobody, without network or "
            "privileges, in its own process namespace, every file system read-only but "
            "its workspace, the grader's repository hidden"
        )
    if isolation() == "user namespace":
        return (
            "isolation: strong (user namespace): student code runs without network or "
            "privileges, in its own process namespace, every file system read-only but "
            "its workspace, your home, temporary folder and the grader's repository "
            "hidden"
        )
    return (
        f"isolation: weak: {why_weak()}. Student code runs as you, with its own HOME "
        "and working directory, and its processes are killed when it ends, but it can "
        "read and write where you can"
    )


def announce(require=False):
    """Print the grader's first line (to stderr); with `require`, False if the
    isolation is weak, after saying so."""
    print(describe(), file=sys.stderr, flush=True)
    if require and isolation() == "weak":
        print(
            "refusing to grade: --require-isolation needs strong isolation. Run the "
            "grader on Linux with util-linux's unshare and setpriv, as root or as a "
            "user allowed to create user namespaces (`unshare --user --map-root-user "
            "true` must work), or grade without --require-isolation",
            file=sys.stderr,
        )
        return False
    return True


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
    if (mode or isolation()) == "root":
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
    """`argv` as this machine's isolation runs it; when strong, the folders `hidden`
    look empty to it."""
    return argv if isolation() == "weak" else isolated(argv, workspace, hidden)


def new_marker():
    return secrets.token_hex(8)


def end(marker):
    """Kill whatever a run left behind. With strong isolation nothing can be left;
    otherwise, every process with its marker."""
    if isolation() != "weak":
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
