"""The back end: a checked program -> Python module text and its metadata (no exec here).

Only codegen and engine know slot indices and generated names. Other layers import from
`cardgame.interpreter.codegen`, not from its modules.
"""

from .dot import flow_dot
from .explain import Explainer, explainer
from .layout import ENDED, MOVES, PC, PENDING, RNG, WHO
from .module import Generated, generate
from .probe import Probe, prober
from .runtime import MAX_LIST, MAX_VALUES, STEPS, GameOver, namespace
from .writer import Arm

__all__ = ["Arm", "ENDED", "MAX_LIST", "MAX_VALUES", "MOVES", "PC", "PENDING", "RNG", "STEPS",
           "WHO", "Explainer", "GameOver", "Generated", "Probe", "explainer", "flow_dot", "generate",
           "namespace", "prober"]
