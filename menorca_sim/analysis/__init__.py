"""Balance analysis of an experiment's dataset: dataset (loading), measures and tables
(polars), strategies (ratings, head to head), effects (rule effects, like with like),
comparisons (the tests), strength (rungs, styles, labels), pipeline (the whole
analysis), findings (the sentences), advice (what to change), sweeps, planning,
charts, report (HTML + Markdown), and `open(DIR)`: the tables from Python (study)."""
from menorca_sim.analysis.study import Study, open_study as open  # noqa: A001  (the name a notebook expects)

__all__ = ["Study", "open"]
