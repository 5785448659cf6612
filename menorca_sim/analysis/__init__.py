"""Balance analysis of an experiment's dataset: statistics (stats), polars tables
(aggregate), findings, sweeps, planning, charts (charts), the HTML + Markdown report
(report), and `open(DIR)`: the report's tables from Python (study)."""
from menorca_sim.analysis.study import Study, open_study as open  # noqa: A001  (the name a notebook expects)

__all__ = ["Study", "open"]
