"""Session setup shared by tests/ and the notebooks under nbval."""
import matplotlib

# Build matplotlib's font cache now, in this process: on a fresh machine a slow first build logs
# "Matplotlib is building the font cache", which would otherwise land in a notebook's output under nbval.
matplotlib.use("Agg")
import matplotlib.pyplot  # noqa: E402,F401
