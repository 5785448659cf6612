"""Shared by every test. pytest puts this folder (tests/) on sys.path, as it does for a
conftest.py outside a package, so any test imports `helpers` (the tests' helper package)
and `golden_games` whatever its folder. The fixtures below are the ones several test
folders use; a folder's own live in its test files."""
import pytest

from menorca_sim.core.maptables import map_tables
from menorca_sim.rules import load_ruleset


@pytest.fixture(scope="session")
def ruleset():
    """The default ruleset (frozen: tests share it)."""
    return load_ruleset()


@pytest.fixture(scope="session")
def tables(ruleset):
    """The default ruleset's map tables."""
    return map_tables(ruleset)
