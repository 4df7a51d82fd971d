"""attnlib.checks as a package: public names, lazy loading, imports between its modules."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import attnlib
from attnlib import checks

PACKAGE = Path(checks.__file__).parent


def test_every_public_name_is_a_check_or_the_result_type():
    for name in checks.__all__:
        obj = getattr(checks, name)
        assert name == "CheckResult" or (name.startswith("check_") and callable(obj)), name
    defined = {
        name
        for path in PACKAGE.glob("*.py")
        for node in ast.parse(path.read_text()).body
        if isinstance(node, ast.FunctionDef) and (name := node.name).startswith("check_")
    }
    assert defined == set(checks.__all__) - {"CheckResult"}


def test_checks_load_only_when_first_used():
    code = (
        "import sys, attnlib\n"
        "print('attnlib.checks' in sys.modules)\n"
        "attnlib.checks.check_prediction_X_shape((6, 8))\n"
        "print('attnlib.checks' in sys.modules, 'matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "False"]
    assert attnlib.checks is checks


def test_no_module_imports_a_private_name_of_another():
    for path in PACKAGE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.level:
                private = [a.name for a in node.names if a.name.startswith("_")]
                assert not private, f"{path.name} imports {private} from {node.module}"


def test_every_module_says_its_job_in_its_first_line():
    for path in PACKAGE.glob("*.py"):
        doc = ast.get_docstring(ast.parse(path.read_text()))
        assert doc and doc.splitlines()[0].endswith("."), path.name
