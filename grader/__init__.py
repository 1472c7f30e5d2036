"""The grader of the classroom edition: its own users (teachers, and students studying
alone), its own threat model.

    python -m grader student FOLDER
        write the student edition (the notebooks with stubs) to FOLDER
    python -m grader grade FOLDER [--json FILE]
        grade the notebooks a student hands in, stage by stage
    python -m grader.nbgrader_metadata [--check]
        write (or check) nbgrader's cell metadata in the stage notebooks

- classroom.py: the student edition, and the grader: each stage's checks (our notebook,
  the student's beside it), then its hidden tests, the tests of tests/ marked
  `@pytest.mark.stage(name=MODULE)`;
- boundary.py: how our checks and tests call the student's code, in a process of its
  own: only data crosses;
- sandbox.py: how student code runs apart from the grader (Linux namespaces as root,
  else a session of its own);
- nbgrader_metadata.py: the same cells, described for teachers who grade with nbgrader
  instead.

Student code is untrusted: the README's section on the grader says what it guarantees,
and what it does not."""
