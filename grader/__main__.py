"""`python -m grader student FOLDER`, `python -m grader grade FOLDER ...` (a student's
folder) and `python -m grader grade FOLDER... --out GRADES` (a class: several folders,
or one folder of them): the commands of grader/classroom.py."""

import sys

from grader.classroom import main

sys.exit(main())
