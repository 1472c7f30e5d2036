"""Session setup shared by tests/ and the notebooks under nbval."""

import os
import tempfile

import matplotlib

# Hypothesis caches Unicode tables in .hypothesis/. Tests run in parallel, and the
# grader's tests check that no file of the repository changes while a submission is
# graded: the cache lives outside the repository.
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY",
    os.path.join(tempfile.gettempdir(), "bleu-lib-hypothesis"),
)

# Build matplotlib's font cache now, in this process: on a fresh machine a slow first
# build logs "Matplotlib is building the font cache", which would otherwise land in a
# notebook's output under nbval.
matplotlib.use("Agg")
import matplotlib.pyplot  # noqa: E402,F401
