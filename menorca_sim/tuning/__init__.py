"""`menorca-sim tune`: the heuristic's numeric parameters searched by self-play.

The optimiser is CMA-ES (the `cma` package). Why CMA-ES: the objective (a win share
from a few dozen games) is noisy, has no gradient and couples its parameters (how much
cash to commit interacts with how many companies to direct); CMA-ES ranks each
generation's candidates only against each other, so a noisy score moves it by its order,
not its size, and it learns the parameters' correlations. `cma` is Hansen's reference
implementation, pure Python on numpy, with box bounds and a picklable state (what makes a
search resumable). Optuna's TPE and Nevergrad were the alternatives: TPE treats the
parameters as nearly independent, and Nevergrad's wrapper around CMA adds a dependency
without adding a method.

- `space`: the tuning file (which parameters, their bounds, the games) and the map
  between parameters and the optimiser's unit cube.
- `search`: the CMA-ES loop, its state file (resume) and its record.
- `matches`: the real objective, paired games against the opponents on common seeds."""
