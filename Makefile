# Two commands do everything on a fresh machine: `make report` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
# what a build reads: the sources setup.py compiles and their .pxd (menorca_sim/compiled.py)
COMPILED := $(shell $(PYTHON) menorca_sim/compiled.py)
BUILT  := .build-stamp

.PHONY: test test-slow check-build chromium viewer-check viewer-png report bench fuzz golden build clean tune ladder value

# The venv holds the package installed in editable mode with its test and dask extras
# (without compiling: $(BUILT) compiles the core in place, so it is compiled once).
$(STAMP): pyproject.toml setup.py
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	MENORCA_SIM_NO_EXT=1 $(PY) -m pip install --quiet -e '.[test,dask]'
	touch $(STAMP)

# Compile the core and the layers in place (serialised: several shells may build at once).
# codes.py is plain Python since issue 24 (its C enums live in codes.pxd): an extension
# left by an older build would shadow it, so it goes.
$(BUILT): $(STAMP) $(COMPILED) setup.py
	rm -f menorca_sim/core/codes.*.so menorca_sim/core/codes.c
	flock .build.lock $(PY) setup.py -q build_ext --inplace
	touch $(BUILT)

build: $(BUILT)

test: $(BUILT)
	$(PY) -m pytest -q

test-slow: $(BUILT)
	$(PY) -m pytest -q -m slow

# A fresh checkout's build (a new venv; minutes): quiet, and each module compiled once.
check-build:
	$(PYTHON) tests/fresh_build.py

# The game viewer in a real headless Chromium (Debian's package, installed here when
# missing): the tests marked `browser` (not in `make test`), and docs/viewer.png afresh.
chromium:
	command -v chromium >/dev/null || (apt-get update -q && apt-get install -y -q chromium)

viewer-check: $(BUILT) chromium
	$(PY) -m pytest -q -m browser

viewer-png: $(BUILT) chromium
	$(PY) tests/helpers/viewer_browser.py docs/viewer.png

# Rewrite the golden games (tests/golden/) after a change meant to change games; it
# prints which games changed and at which action. Say why in the commit.
golden: $(BUILT)
	$(PY) tests/golden_games.py --write

# The default balance study, played afresh, then its report (reports/balance/).
report: $(BUILT)
	rm -rf reports/balance/data
	$(VENV)/bin/menorca-sim run experiments/balance.toml --out reports/balance/data
	$(VENV)/bin/menorca-sim report reports/balance/data

bench: $(BUILT)
	$(PY) benchmarks/run.py
	$(PY) benchmarks/routes_bench.py
	$(PY) benchmarks/strong_players.py
	$(PY) benchmarks/value_bench.py
	$(PY) benchmarks/tree_sharing.py

# Tune the heuristic by self-play into the preset heuristic_tuned (policies/presets/),
# resuming a stopped search; then the ladder of players with its report (reports/ladder/),
# and the budget ladder of `mcts` (16 to 128 playouts, and value=rollout; reports/budget_ladder/).
# Both are long (docs/strong-players.md) and not part of CI.
tune: $(BUILT)
	$(VENV)/bin/menorca-sim tune experiments/tune_heuristic.toml --jobs 2

ladder: $(BUILT)
	$(VENV)/bin/menorca-sim run experiments/ladder.toml --out reports/ladder/data --jobs 2 --resume
	$(VENV)/bin/menorca-sim report reports/ladder/data
	$(VENV)/bin/menorca-sim run experiments/budget_ladder.toml --out reports/budget_ladder/data --jobs 2 --resume
	$(VENV)/bin/menorca-sim report reports/budget_ladder/data

# The learned value (docs/strong-players.md): self-play states of the heuristics
# (experiments/value_data.toml, about a minute on two cores), the model
# policies/models/value_v2 made afresh from them (scored against value_v1 on the same
# held-out rows; value_v1 stays as commit ba850e7's `make value` made it, on the states
# after the auction and each OR only); then the second generation: games of the search
# on value_v2 (experiments/value_data_g2.toml, about 10 minutes) and value_v3 fitted on
# both; then the third: games of the search on value_v3 (value_data_g3.toml, about 10
# minutes) and value_v4, fitted on the search's games of both generations and the
# heuristics' 3-player states only; then a league: games of the search on value_v4
# against the rollout search (value_data_g4.toml, about 4 minutes) and value_v5, fitted
# on them beside value_v4's data; then the leaves of the search's trees on value_v5 at 16
# and 64 playouts (value_data_g5.toml and value_data_g6.toml, about 1 and 8 minutes) and
# value_v6, fitted on value_v5's data and both sets of leaves, each counted ten times
# (with `root=halving` the strongest two-player search head to head: docs/strong-players.md);
# then value_v7, the average of value_v5 and value_v6 (the default at 2 players); last
# value_v8, a perceptron fitted on value_v6's rows blended with value_v7 (the default at
# 2 players from 64 playouts; the perceptron's folder is an intermediate under reports/).
# value_v6's rows, which value_v8's perceptron is fitted on too
VALUE_V6_DATA = reports/value_data/data:players=3 reports/value_data_g2/data reports/value_data_g3/data \
	reports/value_data_g4/data reports/value_data_g5/data:kind=leaf:weight=10 reports/value_data_g6/data:kind=leaf:weight=10
value: $(BUILT)
	rm -rf reports/value_data/data reports/value_data_g2/data reports/value_data_g3/data reports/value_data_g4/data \
		reports/value_data_g5/data reports/value_data_g6/data policies/models/value_v2 policies/models/value_v3 \
		policies/models/value_v4 policies/models/value_v5 policies/models/value_v6 policies/models/value_v7 \
		reports/value_v8_perceptron policies/models/value_v8
	$(VENV)/bin/menorca-sim run experiments/value_data.toml --out reports/value_data/data --jobs 2 --quiet
	$(VENV)/bin/menorca-sim learn reports/value_data/data --out policies/models/value_v2 --compare policies/models/value_v1
	$(VENV)/bin/menorca-sim run experiments/value_data_g2.toml --out reports/value_data_g2/data --jobs 2 --quiet
	$(VENV)/bin/menorca-sim learn reports/value_data/data reports/value_data_g2/data --out policies/models/value_v3 \
		--compare policies/models/value_v2
	$(VENV)/bin/menorca-sim run experiments/value_data_g3.toml --out reports/value_data_g3/data --jobs 2 --quiet
	$(VENV)/bin/menorca-sim learn reports/value_data/data:players=3 reports/value_data_g2/data reports/value_data_g3/data \
		--out policies/models/value_v4 --compare policies/models/value_v3
	$(VENV)/bin/menorca-sim run experiments/value_data_g4.toml --out reports/value_data_g4/data --jobs 2 --quiet
	$(VENV)/bin/menorca-sim learn reports/value_data/data:players=3 reports/value_data_g2/data reports/value_data_g3/data \
		reports/value_data_g4/data --out policies/models/value_v5 --compare policies/models/value_v4
	$(VENV)/bin/menorca-sim run experiments/value_data_g5.toml --out reports/value_data_g5/data --jobs 2 --quiet
	$(VENV)/bin/menorca-sim run experiments/value_data_g6.toml --out reports/value_data_g6/data --jobs 2 --quiet
	$(VENV)/bin/menorca-sim learn $(VALUE_V6_DATA) --out policies/models/value_v6 --compare policies/models/value_v5
	$(VENV)/bin/menorca-sim average-models policies/models/value_v5 policies/models/value_v6 --out policies/models/value_v7
	$(VENV)/bin/menorca-sim learn $(VALUE_V6_DATA) --model perceptron --kind-weight auction=10 \
		--out reports/value_v8_perceptron
	$(VENV)/bin/menorca-sim average-models reports/value_v8_perceptron policies/models/value_v7 --out policies/models/value_v8

fuzz: $(BUILT)
	$(VENV)/bin/menorca-sim fuzz

clean:
	rm -rf build $(BUILT) .build.lock .pytest_cache .hypothesis
	find menorca_sim policies -name '*.so' -delete -o -name '*.c' -delete
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
