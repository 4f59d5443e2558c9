"""The back end: a checked program -> Python module text and its metadata (no exec here).

Only codegen and engine know slot indices and generated names. Other layers import from
`cardgame.interpreter.codegen`, not from its modules.
"""

from typing import Any

from .layout import BARE_END, ENDED, FLOW_END, FLOW_RAN_OUT, MOVES, PC, PENDING, RNG, WHO
from .module import Generated, generate
from .probe import Probe, prober
from .runtime import MAX_LIST, MAX_VALUES, STEPS, GameOver, draws_below, namespace, shuffle_list
from .writer import Arm

__all__ = ["Arm", "BARE_END", "ENDED", "FLOW_END", "FLOW_RAN_OUT", "MAX_LIST", "MAX_VALUES", "MOVES", "PC", "PENDING", "RNG", "STEPS",
           "WHO", "Explainer", "GameOver", "Generated", "Legality", "Probe", "draws_below",
           "explainer", "flow_dot", "generate", "legality", "namespace", "prober",
           "reads", "shuffle_list"]


def __getattr__(name: str) -> Any:
    # Imported when first used: the DOT picture (`check --graph`), the explainer of
    # refused moves and the one-move legality tests are not needed to compile and run a
    # game.
    if name == "flow_dot":
        from .dot import flow_dot

        return flow_dot
    if name in ("Legality", "legality"):  # (the fuzzer's shadow worlds: when first asked)
        from . import onemove

        return getattr(onemove, name)
    if name == "reads":  # (what the rules and the code read: the fuzzer's walk)
        import importlib

        return importlib.import_module(f"{__name__}.reads")
    if name in ("Explainer", "explainer"):
        from . import explain

        return getattr(explain, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
