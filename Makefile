# The two commands of README.md: `make lab` and `make test`.
# Each creates .venv with python3 (3.10 or newer) and installs what it needs;
# a second run reinstalls only when pyproject.toml has changed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LAB_ARGS ?=
PYTEST_ARGS ?=

.PHONY: lab test notebooks present bench lint test-oldest clean

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

lab: $(VENV)/.installed-notebook
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks $(ROOT_FLAG) $(LAB_ARGS)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest $(PYTEST_ARGS)

# Re-execute every notebook in place from a fresh kernel (after a change to attnlib).
notebooks: $(VENV)/.installed-test
	$(BIN)/python tools/execute_notebooks.py

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_attention.py
	$(BIN)/python benchmarks/bench_explorer.py

# The classroom page: the explorers, large, without code (Voila), on this machine only.
PRESENT_PORT ?= 8866
present: $(VENV)/.installed-notebook
	@echo "Classroom page: http://127.0.0.1:$(PRESENT_PORT)/  (Ctrl-C stops it)"
	$(BIN)/voila notebooks/classroom.ipynb --no-browser --Voila.ip=127.0.0.1 \
	    --port=$(PRESENT_PORT) --theme=light $(PRESENT_ARGS)

# The library's tests against the oldest numpy, matplotlib and ipywidgets we claim to
# support (the lower bounds in pyproject.toml), in a venv of their own.
OLDEST := .venv-oldest
test-oldest: requirements/oldest.txt
	test -x $(OLDEST)/bin/python || $(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet -c requirements/oldest.txt -e . \
	    pytest hypothesis pyyaml nbformat nbclient ipykernel "tomli; python_version < '3.11'"
	$(OLDEST)/bin/python -m pytest -o addopts="-p no:cacheprovider" tests \
	    --ignore=tests/browser --deselect tests/test_packaging.py::test_ruff_is_clean
	$(OLDEST)/bin/python -c "import numpy, matplotlib, ipywidgets, PIL; \
	    print('tested with numpy', numpy.__version__, 'matplotlib', matplotlib.__version__, \
	          'ipywidgets', ipywidgets.__version__, 'pillow', PIL.__version__)"

# The simulated class (tests/classhub, README "For a class"): JupyterHub on 127.0.0.1,
# CLASS_N students log in, start a server, pull the course, run notebook 05 and move
# the sliders CLASS_K times at once (CLASS_BROWSERS of them in Chromium), CLASS_THINK
# seconds apart on average; prints the figures. Installs the "class" extra and the
# npm configurable-http-proxy into deploy/jupyterhub/node_modules.
CLASS_N ?= 20
CLASS_K ?= 10
CLASS_BROWSERS ?= 2
CLASS_THINK ?= 1
CLASS_ARGS ?=
.PHONY: class
class: $(VENV)/.installed-class deploy/jupyterhub/node_modules/.package-lock.json
	CLASS_N=$(CLASS_N) CLASS_K=$(CLASS_K) CLASS_BROWSERS=$(CLASS_BROWSERS) \
	    CLASS_THINK=$(CLASS_THINK) $(BIN)/python -m pytest -m hub -s tests/classhub $(CLASS_ARGS)

$(VENV)/.installed-class: pyproject.toml $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e '.[notebook,test,class]'
	touch $@

deploy/jupyterhub/node_modules/.package-lock.json: deploy/jupyterhub/package.json deploy/jupyterhub/package-lock.json
	npm ci --prefix deploy/jupyterhub --no-audit --no-fund

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .

$(VENV)/.created:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "attnlib needs Python 3.10 or newer; this is " + sys.version.split()[0] + ". Run: make PYTHON=python3.11 ...")'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	touch $@

$(VENV)/.installed-notebook: pyproject.toml $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e '.[notebook]'
	touch $@

$(VENV)/.installed-test: pyproject.toml $(VENV)/.created
	$(BIN)/python -m pip install --quiet -e '.[notebook,test]'
	touch $@ $(VENV)/.installed-notebook

clean:
	rm -rf $(VENV) $(OLDEST) test-artifacts build *.egg-info
