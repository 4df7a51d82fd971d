"""How `make test` shares tests out between its workers: tests/scheduling.py, used by conftest."""

from __future__ import annotations

from tests import scheduling


def test_a_notebooks_cells_and_a_files_tests_stay_together():
    cells = [f"notebooks/03_qkv.ipynb::Cell {k}" for k in range(3)]
    assert {scheduling.work_unit(c) for c in cells} == {"notebooks/03_qkv.ipynb"}
    tests = ["tests/test_widgets.py::test_a[n-6]", "tests/test_widgets.py::test_b"]
    assert {scheduling.work_unit(t) for t in tests} == {"tests/test_widgets.py"}
    # the browser files' other tests too (they share a file's page and server)
    assert (
        scheduling.work_unit(
            "tests/browser/test_lab.py::test_detectors_on_a_broken_notebook[chromium]"
        )
        == "tests/browser/test_lab.py"
    )


def test_each_run_of_a_whole_notebook_is_a_unit_of_its_own():
    ids = [
        "tests/browser/test_lab.py::test_notebook_in_lab[chromium-03_qkv.ipynb]",
        "tests/browser/test_lab.py::test_notebook_in_lab[chromium-04_attention_scores.ipynb]",
        "tests/browser/test_notebook7.py::test_notebook_in_notebook7[chromium-03_qkv.ipynb]",
        "tests/test_notebook_clients.py::test_notebook_runs_under_papermill[03_qkv.ipynb]",
    ]
    assert [scheduling.work_unit(i) for i in ids] == ids


def test_the_longest_kinds_of_test_run_first():
    ids = [
        "tests/test_core.py::test_x",
        "notebooks/03_qkv.ipynb::Cell 0",
        "tests/test_notebook_clients.py::test_notebooks_run_under_nbconvert",
        "tests/browser/test_lab.py::test_notebook_in_lab[chromium-03_qkv.ipynb]",
        "attnlib/maths/core.py::attnlib.maths.core.attention",
    ]
    assert sorted(ids, key=scheduling.running_order) == [ids[3], ids[2], ids[1], ids[0], ids[4]]


def test_the_english_word_check_of_a_chinese_notebook_runs_after_it_on_its_worker():
    check = "tests/test_zh_english.py::test_no_more_english_than_the_baseline[04_attention_scores]"
    assert scheduling.work_unit(check) == "notebooks/zh/04_attention_scores.ipynb"
    other = "tests/test_zh_english.py::test_which_words_are_english[steps-english11]"
    assert scheduling.work_unit(other) == "tests/test_zh_english.py"

    class Item:
        def __init__(self, nodeid):
            self.nodeid = nodeid

        def __repr__(self):
            return self.nodeid

    ids = [
        check,
        "tests/test_core.py::test_x",
        "notebooks/zh/04_attention_scores.ipynb::Cell 0",
        "notebooks/zh/04_attention_scores.ipynb::Cell 1",
        "tests/test_zh_english.py::test_no_more_english_than_the_baseline[classroom]",
        "notebooks/03_qkv.ipynb::Cell 0",
    ]
    moved = [item.nodeid for item in scheduling.after_their_notebooks([Item(i) for i in ids])]
    # right after the notebook's last cell; a check whose notebook is not collected stays
    assert moved == [ids[1], ids[2], ids[3], ids[0], ids[4], ids[5]]


def test_the_learners_install_without_make_starts_with_the_browser_tests():
    # a fresh venv and JupyterLab, 1-2 minutes: among the first units a worker takes
    no_make = scheduling.running_order("tests/test_no_make.py::test_x")
    assert no_make == scheduling.running_order("tests/browser/test_lab.py::test_x")
    assert no_make < scheduling.running_order("tests/test_notebook_clients.py::test_x")
