"""JupyterLab's settings for this tutorial: README command 1 starts it with
`--config=tools/jupyter_server_config.py`.

JupyterLab writes the kernel's display name and the running Python's version into every
notebook it saves, and it autosaves every two minutes: opening a notebook would change
files that git tracks. The pre-save hook below applies `tools/nbtools.py clean` to each
notebook of this repository as it is saved, so that opening, reading, re-running
("Restart Kernel and Run All Cells") and saving a notebook leaves it byte for byte as
committed.

nbgrader is installed for teachers (README, "For teachers and self-study"), and its
JupyterLab tools (an "Nbgrader" menu, a "Validate" button, a "Create Assignment"
sidebar) and server extensions would load for every learner. A learner has no use for
them, so they stay off here; a teacher turns them on with BLEU_TEACHER=1:

    BLEU_TEACHER=1 .venv/bin/jupyter lab --config=tools/jupyter_server_config.py
"""

import os
import sys
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tools.nbtools import clean_on_save  # noqa: E402

c = get_config()  # noqa: F821 (Jupyter provides get_config when it reads this file)
# the file browser shows the whole repository: notebooks, data, README
c.ServerApp.root_dir = str(ROOT)
# containers often run as root, and Jupyter refuses to start as root without it
c.ServerApp.allow_root = True
c.FileContentsManager.pre_save_hook = clean_on_save
# jupyter_server validates the hook twice while it loads this file, and the second time
# warns that the hook replaces itself ("Overriding existing pre_save_hook
# (clean_on_save) with a new one (clean_on_save)"): nothing is overridden.
warnings.filterwarnings(
    "ignore", message=r"Overriding existing pre_save_hook \(clean_on_save\)"
)

# nbgrader's server extensions and its JupyterLab extension, for teachers only
TEACHER = os.environ.get("BLEU_TEACHER") == "1"
NBGRADER_SERVER = [
    "nbgrader.server_extensions.formgrader",
    "nbgrader.server_extensions.validate_assignment",
    "nbgrader.server_extensions.assignment_list",
    "nbgrader.server_extensions.course_list",
]
NBGRADER_LAB = "@jupyter/nbgrader"
if not TEACHER:
    c.ServerApp.jpserver_extensions = dict.fromkeys(NBGRADER_SERVER, False)

    def hide_teachers_tools(handler, page_config):
        """JupyterLab's page config with nbgrader's extension disabled, as
        `jupyter labextension disable` would write it, but for this server only."""
        disabled = page_config.setdefault("disabledExtensions", [])
        # by now a list of names (jupyterlab_server turns its dict into one)
        if isinstance(disabled, dict):
            disabled[NBGRADER_LAB] = True
        elif NBGRADER_LAB not in disabled:
            disabled.append(NBGRADER_LAB)
        return page_config

    c.ServerApp.tornado_settings = {"page_config_hook": hide_teachers_tools}
