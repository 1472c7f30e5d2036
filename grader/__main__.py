"""`python -m grader student FOLDER` and `python -m grader grade FOLDER ...`: the
commands of grader/classroom.py."""

import sys

from grader.classroom import main

sys.exit(main())
