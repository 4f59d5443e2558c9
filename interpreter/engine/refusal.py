"""Why a move is refused, in words, with the game file's line.

`Refusals` compiles, on the first refusal only, the game's explainer module
(codegen.explainer: one function per test of each move's `when`), and answers
`why(state, move)` in the order the rules decide:

1. the game is over; it is not that player's decision; the move is not one this decision
   offers ("keep is not possible now: now p1 chooses play");
2. a parameter outside what it ranges over ("J♠ is not in your hand", "there is no
   pile 5: k is 1 to 4");
3. the first test of the `when` that fails: the clause's reason (`when COND "REASON"`)
   or the conjunct's source text, the witness of a `not any` that made it fail ("you hold
   8♣"), and the line ("— arsene.cardgame:128").

Nothing here runs on the hot path: `Game.apply` calls it only to word an IllegalMove.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..codegen import PC, Explainer, explainer, namespace
from ..errors import CardgameError, Span, span_text
from ..lang import ast as A
from ..terminal import sanitize
from .playout import Machine
from .state import Move, State
from .texts import arg_text


def source_text(m: Machine, span: Span) -> str:
    """The text of a span in the game's files, on one line."""
    return span_text(m.checked.sources.get(span.file), span)


def where(span: Span) -> str:
    """`arsene.cardgame:128`: the file's name and the line."""
    return f"{Path(span.file).name}:{span.line}"


def conditions(m: Machine, name: str) -> list[tuple[str, str, str]]:
    """A move's `when` clauses: (source text, reason or '', `file:line`), in order."""
    decl = m.checked.moves.get(name)
    if decl is None or decl.when is None:
        return []
    clauses = decl.clauses or (A.WhenClause(decl.when, span=decl.when.span),)
    return [(source_text(m, c.cond.span), c.reason, where(c.cond.span)) for c in clauses]


class Refusals:
    def __init__(self, m: Machine) -> None:
        self.m = m
        self._ex: Explainer | None = None
        self._ns: dict[str, Any] = {}

    def _explainer(self) -> tuple[Explainer, dict[str, Any]]:
        if self._ex is None:
            m = self.m
            ex = explainer(m.checked)
            ns = namespace(m.checked, ex.spans, [z.slot for z in m.gen.zone_slots],
                           m.zone_text, m.gen.card_text)
            exec(compile(ex.source, f"<cardgame {m.checked.name} explained>", "exec"), ns)
            self._ex, self._ns = ex, ns
        return self._ex, self._ns

    def _call(self, func: str, s: list[Any], move: Move) -> tuple[bool, Any]:
        """(True, value), or (False, the error) when the rules fail there."""
        try:
            return True, self._ns[func](s, move)
        except CardgameError as e:
            return False, e
        except Exception as e:  # noqa: BLE001 - a slip the checks could not see
            return False, e

    def offered(self, state: State) -> list[str]:
        """The names of the moves the current decision offers."""
        m = self.m
        d = m.gen.decisions.get(state.slots[PC])
        if d is None:
            return []
        names = [m.move_names[a] for a in d.alts]
        return names + (["pass"] if d.optional else [])

    def why(self, state: State, move: Move, text: str) -> str:
        # a reason and a condition are the game file's text: shown sanitised
        return sanitize(self._why(state, move, text), newlines=False)

    def _why(self, state: State, move: Move, text: str) -> str:
        m = self.m
        name = m.move_names[move[1]]
        offered = self.offered(state)
        if offered and name not in offered:
            return f"{text}: not possible now (now: {', '.join(offered)})"
        decl = m.checked.moves.get(name)
        if decl is None:
            return f"{text}: not possible now"
        ex, _ = self._explainer()
        s = list(state.slots)
        for i, p in enumerate(decl.params):
            ok, src = self._call(ex.sources[name][i], s, move)
            if not ok:
                break
            bad = self._outside(s, move, i, p.name, src)
            if bad:
                return f"{text}: {bad}"
        for t in ex.tests[name]:
            ok, value = self._call(t.func, s, move)
            if ok and value:
                continue
            reason = None
            if t.reason is not None:
                rok, reason = self._call(t.reason, s, move)
                if not rok:
                    reason = None
            if reason is None:
                reason = f"the condition '{source_text(m, t.span)}' does not hold"
                if not ok:
                    reason += f" ({value})"
            seen = [w for w in (self._witness(wi, s, move) for wi in t.witnesses) if w]
            if seen:
                reason += f" ({'; '.join(seen)})"
            return f"{text}: {reason} — {where(t.span)}"
        return f"{text}: not possible now"

    def _outside(self, s: list[Any], move: Move, i: int, pname: str, src: Any) -> str:
        """Why argument i is not among what its parameter ranges over ('' if it is)."""
        m = self.m
        value = move[i + 2]
        typ = m.move_param_types[move[1]][i]
        if isinstance(src, int) and src in m.zone_text:  # a zone: the card must be there
            if typ == "card" and value in s[src]:
                return ""
            return f"{m.card_text[value] if typ == 'card' else value} is not in " \
                   f"{self.zone_words(src, move[0])}"
        try:
            items = list(src)
        except TypeError:
            return ""
        if value in items:
            return ""
        if typ == "list:card":  # a set of cards: its count, each card, then its `where`
            prm = m.checked.moves[m.move_names[move[1]]].params[i]
            src_e = prm.source
            if isinstance(src_e, A.Subsets) and src_e.count is not None:
                sizes = sorted({len(v) for v in items})
                if len(sizes) == 1 and len(value) != sizes[0]:
                    return f"choose {sizes[0]} card{'s' if sizes[0] != 1 else ''}, " \
                           f"not {len(value)}"
            pool = {c for v in items for c in v}
            for c in value:
                if c not in pool and not (prm.where is not None and items):
                    return f"{m.card_text[c]} is not among the cards to choose from"
            if prm.where is not None:
                return ""  # the `where`, the move's first condition, says why
        shown = [arg_text(m, v, typ) for v in items]
        arg = arg_text(m, value, typ)
        if typ == "int" and items and items == list(range(items[0], items[-1] + 1)):
            return f"{arg} is out of range ({items[0]} to {items[-1]})"
        if not shown:
            return f"{arg} is not a choice: there is none now"
        return f"{arg} is not a choice ({', '.join(shown[:12])}{', ...' if len(shown) > 12 else ''})"

    def zone_words(self, slot: int, player: int) -> str:
        """`your hand`, `p2's hand`, or the zone's name (`column3`)."""
        m = self.m
        for z in m.gen.zone_slots:
            if z.slot == slot:
                zi = m.checked.zones[z.decl]
                label = zi.label if zi.label and len(zi.label) < 20 else z.decl
                if z.owner == player:
                    return f"your {label}"
                if z.owner:
                    return f"p{z.owner}'s {label}"
                return z.text
        return str(slot)

    def _private_to(self, slot: int) -> int:
        """The owner of a zone only its owner sees (0 for any other zone)."""
        m = self.m
        for z in m.gen.zone_slots:
            if z.slot == slot and m.checked.zones[z.decl].visibility == "owner":
                return int(z.owner)
        return 0

    def _witness(self, w: Any, s: list[Any], move: Move) -> str:
        ok, value = self._call(w.func, s, move)
        if not ok or value is None or value[0] is None:
            return ""
        item, where_ = value
        m = self.m
        if w.zone:
            card = m.card_text[item]
            if self._private_to(where_) == move[0]:
                return f"you hold {card}"
            return f"{card} is in {self.zone_words(where_, move[0])}"
        return f"{arg_text(m, item, where_)} is one"
