"""Balance analysis of an experiment's dataset: statistics (stats), polars tables
(aggregate), charts (charts) and the HTML + Markdown report (report)."""
