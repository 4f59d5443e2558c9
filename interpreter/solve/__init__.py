"""The solver for open solitaires: `solve` a position (solved, unsolvable or undecided,
with the bound that stopped it), `solve_seed`/`solve_deals` for deals, `run` for the
`cardgame solve` command."""

from .command import run, solve_deals, solve_seed
from .search import SOLVED, UNDECIDED, UNSOLVABLE, Bounds, GoalFn, Result, solve
from .symmetry import key_for

__all__ = ["SOLVED", "UNDECIDED", "UNSOLVABLE", "Bounds", "GoalFn", "Result", "run", "solve",
           "solve_deals", "solve_seed", "key_for"]
