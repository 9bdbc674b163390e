"""Runs a program's Python tests one by one, inside the sandbox (standard library only, Python 3.8+).

Usage in the sandbox: ``python3 _agentunit_tests.py MODE [ENTRY_POINT]`` with the nonce on stdin.
The program is ``main.py``, the tests ``_agentunit_tests_source.py``. The program is executed as a
module named ``candidate`` (so its ``if __name__ == "__main__"`` part does not run), then:

- MODE ``check`` (HumanEval): the test code is executed in the program's namespace and each
  statement of ``check(candidate)`` that holds an ``assert`` is one test, run with ``candidate``
  bound to the function ``ENTRY_POINT``; when ``check`` has no ``assert`` of its own, calling it is
  the one test;
- MODE ``asserts``: each top-level statement of the test code that holds an ``assert`` is one test,
  run in the program's namespace.

Statements without ``assert`` run in order as set-up; one that raises counts as a failed test. Each
result is written as it happens, on a copy of the original stdout, as one line
``@@agentunit NONCE {json}``, so a run that is killed half-way still reports the tests it finished.
"""

import ast
import json
import os
import sys
import traceback

PROGRAM = "main.py"
TESTS = "_agentunit_tests_source.py"
TAIL_LINES = 12


def test_statements(tree, mode):
    """The statements to run, each with whether it is a test: (node, is_test); for ``check`` mode the
    body of ``check`` and the name of its parameter. Shared with the host, which counts the tests."""
    if mode == "asserts":
        return [(node, _has_assert(node)) for node in tree.body], None
    check = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "check"), None)
    if check is None:
        return None, None
    parameter = check.args.args[0].arg if check.args.args else "candidate"
    statements = [(node, _has_assert(node)) for node in check.body]
    if not any(is_test for _, is_test in statements):
        return "call", parameter
    return statements, parameter


def _has_assert(node):
    return any(isinstance(n, ast.Assert) for n in ast.walk(node))


def _tail(exc):
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    kept = [line for line in lines if __file__ not in line]
    return "".join(kept).splitlines()[-TAIL_LINES:]


def main():
    nonce = sys.stdin.readline().strip()
    out = os.fdopen(os.dup(1), "w", buffering=1)  # the program may close or replace sys.stdout

    def report(**fields):
        out.write("@@agentunit " + nonce + " " + json.dumps(fields) + "\n")
        out.flush()

    mode = sys.argv[1]
    entry = sys.argv[2] if len(sys.argv) > 2 else ""
    with open(TESTS, encoding="utf-8") as handle:
        test_source = handle.read()
    with open(PROGRAM, encoding="utf-8") as handle:
        program = handle.read()
    namespace = {"__name__": "candidate", "__file__": PROGRAM, "__builtins__": __builtins__}
    try:
        exec(compile(program, PROGRAM, "exec"), namespace)
    except BaseException as exc:  # the program itself fails: every test fails with this error
        report(load_error="".join(traceback.format_exception_only(type(exc), exc)).strip(), traceback=_tail(exc))
        return
    tree = ast.parse(test_source, TESTS)
    if mode == "check":
        try:
            exec(compile(test_source, TESTS, "exec"), namespace)
        except BaseException as exc:
            report(load_error="the tests do not load: " + "".join(
                traceback.format_exception_only(type(exc), exc)).strip(), traceback=_tail(exc))
            return
        if entry not in namespace:
            report(load_error="the program defines no " + repr(entry))
            return
    statements, parameter = test_statements(tree, mode)
    if mode == "check":
        namespace[parameter] = namespace[entry]
        if statements == "call":
            statements = [(ast.parse("check(" + entry + ")").body[0], True)]
    index = 0
    for node, is_test in statements:
        source = ast.get_source_segment(test_source, node) or ast.dump(node)[:200]
        try:
            exec(compile(ast.Module(body=[node], type_ignores=[]), TESTS, "exec"), namespace)
        except BaseException as exc:
            if isinstance(exc, KeyboardInterrupt):
                raise
            error = "".join(traceback.format_exception_only(type(exc), exc)).strip()
            report(index=index, test=source[:300], passed=False, error=error, traceback=_tail(exc),
                   setup=not is_test)
            index += 1
            continue
        if is_test:
            report(index=index, test=source[:300], passed=True)
            index += 1
    report(done=True)


if __name__ == "__main__":
    main()
