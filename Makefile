# The two commands of README.md: `make lab` and `make test`.
# Each creates .venv with python3 (3.10 or newer) and installs what it needs;
# a second run reinstalls only when pyproject.toml has changed.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
LAB_ARGS ?=
PYTEST_ARGS ?=
# The test installs (make test, notebooks, lint, bench, class) and the one-machine hub
# take every version from this lock; `make lab` and `make present` take pyproject's
# ranges, as learners do.
# requirements/test.in says why everything is pinned; `make lock` refreshes it.
TEST_LOCK := requirements/test.txt
# The course image (repo2docker reads binder/) installs binder/requirements.txt, which
# `make lock` compiles from binder/requirements.in with the versions of this lock, for the
# image's Python (binder/runtime.txt) on Linux.
IMAGE_PYTHON = $(patsubst python-%,%,$(strip $(shell cat binder/runtime.txt)))

.PHONY: lab test notebooks present bench lint test-oldest lock clean site site-preview

# Jupyter refuses to run as root unless told; containers and CI machines often are root.
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

# Project-level settings, not the user's: jupyter/lab/settings/overrides.json turns
# JupyterLab's news and update checks off (no "Jupyter news?" pop-up, no request to
# the internet). notebook_shim only serves old notebook-server extensions (none
# here), and its start-up walk over every server setting is what printed the
# ServerApp.token deprecation warning.
JUPYTER_FLAGS := --ServerApp.jpserver_extensions=notebook_shim=False $(ROOT_FLAG)
# jupyter/server: the students' server settings of a class, for a learner's own server
# too (the kernel websocket sends each message at once: a slider's new picture no longer
# waits behind its echo). Searched before any JUPYTER_CONFIG_PATH of the user's.
SERVER_CONFIG_PATH := JUPYTER_CONFIG_PATH=$(CURDIR)/jupyter/server$(if $(JUPYTER_CONFIG_PATH),:$(JUPYTER_CONFIG_PATH))

# EDITION=zh (make lab EDITION=zh, make present EDITION=zh): the Chinese edition. What an
# edition needs (notebooks folder, JupyterLab settings folder, the pip extra of its
# language pack) is its record in attnlib/i18n/languages.py, read here before anything
# is installed. LANG=zh on the command line still works, with a notice: LANG in the
# environment is the locale (en_US.UTF-8, ...), never a choice of edition.
EDITION ?= en
ifeq ($(origin LANG),command line)
$(info make: LANG=$(LANG) chooses the edition; say EDITION=$(LANG) (LANG is the locale's name))
EDITION := $(LANG)
unexport LANG
endif
ifneq ($(filter lab present,$(MAKECMDGOALS)),)
EDITION_RECORD := $(shell $(PYTHON) attnlib/i18n/languages.py $(EDITION))
ifeq ($(EDITION_RECORD),)
$(error EDITION=$(EDITION) is not an edition (see above))
endif
NOTEBOOK_DIR := $(word 1,$(EDITION_RECORD))
# The edition's JupyterLab settings (jupyter/lab/settings-zh: the interface in Chinese
# from the zh-CN language pack, installed for this only): the project's default, as
# for the news; the user's own JupyterLab settings are untouched.
LAB_SETTINGS := $(CURDIR)/$(word 2,$(EDITION_RECORD))
LAB_EXTRA := $(filter-out -,$(word 3,$(EDITION_RECORD)))
endif

lab: $(VENV)/.installed-notebook $(if $(LAB_EXTRA),$(VENV)/.installed-$(LAB_EXTRA))
	$(SERVER_CONFIG_PATH) $(BIN)/jupyter lab --ServerApp.root_dir=$(NOTEBOOK_DIR) \
	    --LabApp.app_settings_dir=$(LAB_SETTINGS) $(JUPYTER_FLAGS) $(LAB_ARGS)

# axe-core, from npm, for the browser tests' accessibility checks (tests/browser/axe).
# Without npm the step says so and the tests that need it skip (fail under CI=true).
AXE := tests/browser/axe/node_modules/axe-core/axe.min.js
$(AXE): tests/browser/axe/package.json tests/browser/axe/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	    npm ci --prefix tests/browser/axe --no-audit --no-fund --silent && touch $@; \
	else echo "make: no npm here: the accessibility checks will skip (install Node.js 20 and npm)"; fi

# pytest-xdist: one worker per core (PYTEST_WORKERS=1 for one process). A file's
# tests stay together, except the tests that run one whole notebook each (in a
# browser, under papermill), which spread over the workers (conftest.py says how).
PYTEST_WORKERS ?= auto
test: $(VENV)/.installed-test $(AXE)
	$(BIN)/python -m pytest -n $(PYTEST_WORKERS) --dist loadfile $(PYTEST_ARGS)

# Re-execute every notebook in place from a fresh kernel (after a change to attnlib).
notebooks: $(VENV)/.installed-test
	$(BIN)/python tools/execute_notebooks.py

# The course website (docs/website.md): both editions from the notebooks' stored outputs into
# SITE_OUT (site/en, site/zh, site/index.html), with the website's tools from the lock.
# Optional links per page: SITE_BINDER_REPO=owner/name, SITE_HUB=https://... with
# SITE_COURSE_REPO=git-url (nbgitpuller), SITE_BRANCH (main). Preview: make site-preview.
SITE_OUT ?= site
SITE_PORT ?= 8000
site: $(VENV)/.installed-site
	$(BIN)/python tools/site/build.py --out $(SITE_OUT)

site-preview:
	@echo "The course website: http://127.0.0.1:$(SITE_PORT)/  (Ctrl-C stops it)"
	$(PYTHON) -m http.server $(SITE_PORT) --bind 127.0.0.1 --directory $(SITE_OUT)

$(VENV)/.installed-site: pyproject.toml $(TEST_LOCK) $(VENV)/.created
	$(call STEP,installing attnlib with the website's tools into $(VENV),$(BIN)/python -m pip install --quiet -c $(TEST_LOCK) -e '.[site]')
	@touch $@

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/bench_attention.py
	$(BIN)/python benchmarks/bench_training.py
	$(BIN)/python benchmarks/bench_move.py
	$(BIN)/python benchmarks/bench_class_walk.py
	$(BIN)/python benchmarks/bench_keypress.py

# The classroom page: the explorers, large, without code (Voila), on this machine only.
PRESENT_PORT ?= 8866
PRESENT_NOTEBOOK ?= $(NOTEBOOK_DIR)/classroom.ipynb
# --template=offline (jupyter/voila/templates/offline): Voila's page without its CDN
# links, so that it works in a room without internet. The page loads only the
# JupyterLab extensions it needs (the widgets, anywidget for the explorers drawn in the
# page, Voila's own widget manager): others installed beside them (Notebook 7's,
# nbdime's) cannot load outside JupyterLab and log errors on the page.
# `jupyter trust` signs the classroom notebook in your own signature store (the file
# does not change): you chose to serve it, so Voila does not warn "not trusted".
VOILA_EXTENSIONS := @jupyter-widgets/jupyterlab-manager anywidget \
    @voila-dashboards/widgets-manager8 @voila-dashboards/widgets-manager7
VOILA_FLAGS := --theme=light --template=offline \
    $(foreach e,$(VOILA_EXTENSIONS),--VoilaConfiguration.extension_allowlist=$(e))
present: $(VENV)/.installed-notebook
	@$(BIN)/jupyter trust $(PRESENT_NOTEBOOK) >/dev/null
	@echo "Classroom page ($(PRESENT_NOTEBOOK)): http://127.0.0.1:$(PRESENT_PORT)/  (Ctrl-C stops it)"
	JUPYTER_PATH=$(CURDIR)/jupyter $(BIN)/voila $(PRESENT_NOTEBOOK) --no-browser \
	    --Voila.ip=127.0.0.1 --port=$(PRESENT_PORT) $(VOILA_FLAGS) $(PRESENT_ARGS)

# The library's tests against the oldest numpy, matplotlib and ipywidgets we claim to
# support (the lower bounds in pyproject.toml), in a venv of their own.
OLDEST := .venv-oldest
test-oldest: requirements/oldest.txt
	test -x $(OLDEST)/bin/python || $(PYTHON) -m venv $(OLDEST)
	$(OLDEST)/bin/python -m pip install --quiet -c requirements/oldest.txt -e . \
	    pytest pytest-xdist hypothesis pyyaml nbformat nbclient ipykernel "tomli; python_version < '3.11'"
	$(OLDEST)/bin/python -m pytest -o addopts="-p no:cacheprovider" tests \
	    --ignore=tests/browser --deselect tests/test_packaging.py::test_ruff_is_clean
	$(OLDEST)/bin/python -c "import numpy, matplotlib, ipywidgets, PIL; \
	    print('tested with numpy', numpy.__version__, 'matplotlib', matplotlib.__version__, \
	          'ipywidgets', ipywidgets.__version__, 'pillow', PIL.__version__)"

# The simulated class (tests/classhub, docs/class-simulation.md): JupyterHub on 127.0.0.1,
# CLASS_N students log in (all at once, or arriving over CLASS_SPREAD seconds:
# CLASS_ARRIVAL=even or random), start a server, pull the course, run notebook 05 and
# move the sliders CLASS_K times at once (CLASS_BROWSERS of them in Chromium),
# CLASS_THINK seconds apart on average; prints the figures. Also a forgotten password on
# a live first-use hub (tests/classhub/test_password_reset.py: reset, log in, the work is
# still there). Installs the "class" extra and the npm configurable-http-proxy into
# deploy/jupyterhub/node_modules.
CLASS_N ?= 20
CLASS_K ?= 10
CLASS_BROWSERS ?= 2
CLASS_THINK ?= 1
CLASS_ARRIVAL ?= even
CLASS_ARGS ?=
# make class-curve: the class sizes of CLASS_CURVE one after another, each with logins
# spread over CLASS_SPREAD seconds (60 unless given), and CLASS_CURVE_AT_ONCE's sizes
# also all at once; no Chromium students (CLASS_CURVE_BROWSERS), so that every student
# loads the machine alike. Prints one table and how many students two cores hold.
CURVE_SPREAD := $(if $(filter undefined default,$(origin CLASS_SPREAD)),60,$(CLASS_SPREAD))
CLASS_SPREAD ?= 0
CLASS_CURVE ?= 10 20 40
CLASS_CURVE_AT_ONCE ?= 20
CLASS_CURVE_BROWSERS ?= 0
CLASS_ENV = CLASS_K=$(CLASS_K) CLASS_THINK=$(CLASS_THINK) CLASS_ARRIVAL=$(CLASS_ARRIVAL)
.PHONY: class class-curve
class: $(VENV)/.installed-class deploy/jupyterhub/node_modules/.package-lock.json
	$(CLASS_ENV) CLASS_N=$(CLASS_N) CLASS_BROWSERS=$(CLASS_BROWSERS) CLASS_SPREAD=$(CLASS_SPREAD) \
	    CLASS_CURVE= $(BIN)/python -m pytest -m hub -s tests/classhub $(CLASS_ARGS)

class-curve: $(VENV)/.installed-class deploy/jupyterhub/node_modules/.package-lock.json
	$(CLASS_ENV) CLASS_BROWSERS=$(CLASS_CURVE_BROWSERS) CLASS_SPREAD=$(CURVE_SPREAD) \
	    CLASS_CURVE="$(CLASS_CURVE)" CLASS_CURVE_AT_ONCE="$(CLASS_CURVE_AT_ONCE)" \
	    $(BIN)/python -m pytest -m hub -s tests/classhub/test_class.py::test_capacity_curve \
	    $(CLASS_ARGS)

$(VENV)/.installed-class: pyproject.toml $(TEST_LOCK) $(VENV)/.created
	$(BIN)/python -m pip install --quiet -c $(TEST_LOCK) -e '.[notebook,test,class]'
	touch $@

deploy/jupyterhub/node_modules/.package-lock.json: deploy/jupyterhub/package.json deploy/jupyterhub/package-lock.json
	npm ci --prefix deploy/jupyterhub --no-audit --no-fund

# Every shell script of the project (tests/test_deploy.py finds them by their first line
# and fails when one is missing here). shellcheck comes from the system's packages: without
# it, lint says what to install and goes on, except under CI=true.
SHELL_SCRIPTS := .ci/run binder/postBuild deploy/jupyterhub/build-image.sh \
    deploy/jupyterhub/create-students.sh deploy/tljh/setup.sh
lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@if command -v shellcheck >/dev/null 2>&1; then \
	    echo "shellcheck -S warning $(SHELL_SCRIPTS)"; shellcheck -S warning $(SHELL_SCRIPTS); \
	elif [ "$$CI" = true ]; then \
	    echo "make lint: shellcheck is not installed (CI=true): apt-get install shellcheck" >&2; exit 1; \
	else \
	    echo "make lint: shell scripts not checked: install shellcheck (apt-get install shellcheck, brew install shellcheck)"; \
	fi

# One line per install step (pip itself stays quiet), with the time it took.
# the website's tools too: tests/browser/test_site.py builds the site (make site)
WITH_TEST_TOOLS := .[notebook,test,site]
WITH_ZH := .[notebook,zh]
STEP = @echo "make: $(1)" && start=$$(date +%s) && $(2) && echo "make:   done in $$(( $$(date +%s) - start )) s"

$(VENV)/.created:
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 10) else "attnlib needs Python 3.10 or newer; this is " + sys.version.split()[0] + ". Run: make PYTHON=python3.11 ...")'
	$(call STEP,creating $(VENV) with $(PYTHON),$(PYTHON) -m venv $(VENV))
	$(call STEP,upgrading pip in $(VENV),$(BIN)/python -m pip install --quiet --upgrade pip)
	@touch $@

$(VENV)/.installed-notebook: pyproject.toml $(VENV)/.created
	$(call STEP,installing attnlib with JupyterLab / Notebook / Voila into $(VENV) (first time: a minute or two),$(BIN)/python -m pip install --quiet -e '.[notebook]')
	@touch $@

$(VENV)/.installed-zh: pyproject.toml $(VENV)/.installed-notebook
	$(call STEP,installing the zh-CN language pack for JupyterLab into $(VENV),$(BIN)/python -m pip install --quiet -e '$(WITH_ZH)')
	@touch $@

$(VENV)/.installed-test: pyproject.toml $(TEST_LOCK) $(VENV)/.created
	$(call STEP,installing attnlib with JupyterLab / Notebook / Voila and the test tools into $(VENV) (first time: a minute or two),$(BIN)/python -m pip install --quiet -c $(TEST_LOCK) -e '$(WITH_TEST_TOOLS)')
	@touch $@ $(VENV)/.installed-notebook $(VENV)/.installed-site

# Recompile the lock from pyproject.toml's extras and requirements/test.in with uv, for
# every platform and every Python from 3.10 on (markers where the pins differ). The
# class extra and the one-machine hub's requirements are in it too: the hub's
# environment (deploy/jupyterhub/README.md) and `make class` install with -c from it,
# so JupyterHub, the culler, nbgitpuller and the spawner do not float.
# Afterwards: review the diff, run make test, commit both.
lock: $(VENV)/.created
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile --quiet --upgrade pyproject.toml requirements/test.in \
	    deploy/jupyterhub/requirements.txt \
	    --extra notebook --extra test --extra class --extra site --universal --python-version 3.10 \
	    --custom-compile-command "make lock" -o $(TEST_LOCK)
	$(BIN)/uv pip compile --quiet binder/requirements.in -c $(TEST_LOCK) \
	    --python-version $(IMAGE_PYTHON) --python-platform linux --annotation-style line \
	    --custom-compile-command "make lock" -o binder/requirements.txt

clean:
	rm -rf $(VENV) $(OLDEST) test-artifacts build *.egg-info $(SITE_OUT)
