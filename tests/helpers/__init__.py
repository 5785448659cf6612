"""Helpers of the tests, as modules of one package (`from helpers.engine import ...`):
engine (states set up by hand), faults (runs that meet faults), real_games and
synthetic_data (datasets), experiment_files, routes_reference (a brute-force route
search), toy_games (fast stand-ins for the engine in runner tests), user_policies (for
policy specs), viewer_browser (a headless Chromium)."""
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
ROOT = TESTS.parent
