"""Analysis: many games played and summed up (`cardgame simulate`, `cardgame compare`).

- `simulate`: one record per game, in batches, seeds fixed per game;
- `metrics`: the figures over records; `stats`: their 95% intervals;
- `coverage`: which rules fired, over every configuration of a game;
- `compare`: two games or variants on the same seeds;
- `parallel`: where batches run (this process, `--jobs N` processes, Dask);
- `report`, `plots`: text, JSON and charts.
"""

from .report import simulation_json, simulation_text
from .simulate import GameRecord, Simulation, simulate

__all__ = ["GameRecord", "Simulation", "simulate", "simulation_json", "simulation_text"]
