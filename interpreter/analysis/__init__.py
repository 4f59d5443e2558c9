"""Analysis: many games played and summed up (`cardgame simulate`).

Today one simulation loop with random moves; metrics, confidence intervals, variant
comparison, `--jobs` and Dask grow here (docs/architecture.md), never in the CLI.
"""

from .report import simulation_text
from .simulate import simulate

__all__ = ["simulate", "simulation_text"]
