"""Analysis: many games played and summed up (`cardgame simulate`, `cardgame compare`).

- `simulate`: one record per game, in batches, seeds fixed per game;
- `metrics`: the figures over records; `stats`: their 95% intervals;
- `coverage`: which rules fired, over every configuration of a game;
- `compare`: two games or variants on the same seeds;
- `parallel`: where batches run (this process, `--jobs N` processes, Dask);
- `report`, `plots`: text, JSON and charts;
- `reachability`: a witness of each `expect sometimes` (bots, solver), for `cardgame fuzz`;
- `mutate`: `cardgame mutate`, the mutants of a game file and their judges.
"""

from .compare import compare, comparison_json, comparison_text, side
from .mutate import mutate, mutation_json, mutation_text
from .parallel import make_runner
from .plots import charts  # matplotlib itself is imported only when a chart is drawn
from .reachability import check_reachability, reach_text
from .report import simulation_json, simulation_text
from .simulate import GameRecord, Simulation, simulate

__all__ = ["GameRecord", "Simulation", "charts", "check_reachability", "compare",
           "comparison_json", "comparison_text", "make_runner", "mutate", "mutation_json",
           "mutation_text", "reach_text", "side", "simulate", "simulation_json",
           "simulation_text"]
