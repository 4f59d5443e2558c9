"""Expressions of the game's language read on a state, outside the rules: an example's
expectations (docs/testing.md). The code comes from `codegen.prober`; it is compiled
once per `Probes` and never runs on the hot path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..codegen import namespace, prober
from ..errors import CardgameError
from ..lang import ast as A
from .playout import Machine, _Translate
from .state import State


class Probes:
    """Checked expressions, each read on a state by its index: `value(state, i)`.
    A zone's value is its name (`hand-p2`); a failing rule raises its RuleError."""

    def __init__(self, m: Machine, exprs: Sequence[A.Expr], rule: str = "example") -> None:
        self.m = m
        self.exprs = list(exprs)
        self.rule = rule
        self.types = [m.checked.type_of(e) for e in self.exprs]
        pr = prober(m.checked, self.exprs, rule)
        ns = namespace(m.checked, pr.spans, [z.slot for z in m.gen.zone_slots], m.zone_text,
                       m.gen.card_text)
        exec(compile(pr.source, f"<cardgame {m.checked.name} probes>", "exec"), ns)
        self._funcs = [ns[f] for f in pr.funcs]

    def value(self, state: State, i: int) -> Any:
        """The value of expression i in `state` (a zone as its name)."""
        with _Translate(self.rule, self.exprs[i].span):
            v = self._funcs[i](list(state.slots))
        if self.types[i] == "zone":
            return self.m.zone_text[v]
        if self.types[i] == "list:zone":
            return [self.m.zone_text[z] for z in v]
        return v

    def text(self, state: State, i: int) -> str:
        """The value of expression i written as the game writes it (`7♣`, `p2`, `[1, 2]`),
        or the error that reading it raises."""
        try:
            v = self.value(state, i)
        except CardgameError as e:
            return f"an error: {e}"
        return self.show(v, self.types[i])

    def show(self, v: Any, t: str) -> str:
        if t in ("zone", "list:zone"):
            return str(v)
        if v is None:
            return "none"
        if isinstance(v, bool):
            return "true" if v else "false"
        if t == "player":
            return f"p{v}"
        if t.startswith("list:"):
            return "[" + ", ".join(self.show(x, t[5:]) for x in v) + "]"
        return str(self.m.ns["_fmt"](v, t))
