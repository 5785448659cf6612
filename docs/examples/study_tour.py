"""A tour of a study from Python (run it after `make report`):

    .venv/bin/python docs/examples/study_tour.py [reports/balance/data]
"""
import sys

import polars as pl

from menorca_sim.analysis import open as open_study

study = open_study(sys.argv[1] if len(sys.argv) > 1 else "reports/balance/data")
for line in study.findings()[:5]:  # the report's first screen
    print(line)
seats = study.seats()  # win share by seat with its 95 % interval, per population and player count
print(seats.filter(pl.col("players") == 2).select("population", "seat", "games", "win_share", "win_share_low",
                                                  "win_share_high"))
games = study.games()  # the raw games table: one row per game
print(games.group_by("players").agg(pl.col("ors").mean().alias("mean ORs"), pl.len().alias("games")))
