"""The deck: a `deck` declaration evaluated to the list of its cards."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from ..cards import STANDARD_RANKS, SUITS
from . import ast as A
from .consts import INT64_MAX, INT64_MIN
from .program import Card
from .symbols import Reporter

MAX_DECK = 10_000
MAX_CARD_ATTRS = 100  # custom card attributes: every card carries each one
MAX_DECK_VALUES = 100_000  # cards x custom attributes: the tables the compiled game holds
MAX_DECK_STEPS = 100_000  # rounds of the deck's `for` loops, cards made or not


@attrs.frozen
class Deck:
    cards: list[Card]
    rank_names: tuple[str, ...]
    card_attrs: tuple[str, ...]  # the custom attributes, sorted
    bool_attrs: frozenset[str]  # those of them that are flags


def rank_names(d: A.DeckDecl) -> tuple[str, ...]:
    return STANDARD_RANKS if d.standard else d.rank_names


def build_deck(d: A.DeckDecl, constants: dict[str, tuple[str, Any]], report: Reporter,
               suits: tuple[str, ...] = SUITS) -> Deck:
    """The cards of a deck. `constants` are the names a card may use (suits, options,
    rank names); loop variables come on top."""
    cards: list[Card] = []
    if d.standard:
        for s in range(1, 5):
            for r in range(1, 14):
                cards.append(Card(len(cards), r, s, False, {}))
        if 52 + d.jokers > MAX_DECK:
            report.err(f"a deck has at most {MAX_DECK:,} cards, not 52 + {d.jokers:,} jokers",
                       d.span, f"use at most {MAX_DECK - 52:,} jokers")
            return Deck(cards, STANDARD_RANKS, (), frozenset())
        for _ in range(d.jokers):
            cards.append(Card(len(cards), 0, 0, True, {}))
        return Deck(cards, STANDARD_RANKS, (), frozenset())
    ev = _Evaluator(constants, report, len(suits))
    extra: set[str] = set()
    bool_attrs: set[str] = set()
    int_attrs: set[str] = set()

    steps = [0]

    def walk(items: tuple[A.DeckCard | A.DeckFor, ...], env: dict[str, Any]) -> bool:
        """False once a limit is reached (reported)."""
        for it in items:
            if len(cards) >= MAX_DECK:
                report.err(f"a deck has at most {MAX_DECK} cards", it.span)
                return False
            if isinstance(it, A.DeckFor):
                for v in ev.values(it.source, env):
                    steps[0] += 1
                    if steps[0] > MAX_DECK_STEPS:
                        report.err(f"the deck's loops run more than {MAX_DECK_STEPS:,} rounds",
                                   it.span, "loop over fewer values")
                        return False
                    if not walk(it.body, {**env, it.var: v}):
                        return False
                continue
            times = 1
            if it.times is not None:
                t = ev.eval(it.times, env)
                if not isinstance(t, int) or isinstance(t, bool) or t < 0:
                    report.err("'times' needs a whole number", it.times.span)
                    continue
                if len(cards) + t > MAX_DECK:
                    report.err(f"a deck has at most {MAX_DECK} cards", it.times.span)
                    return False
                times = t
            rank, suit, joker = 0, 0, False
            ex: dict[str, int] = {}
            for key, ve in it.attrs_:
                val = ev.eval(ve, env)
                if key == "rank":
                    if not isinstance(val, int):
                        report.err("rank must be a number", ve.span)
                        continue
                    rank = int(val)
                elif key == "suit":
                    if not isinstance(val, tuple) or val[0] != "suit":
                        report.err("suit must be one of " + ", ".join(suits), ve.span)
                    else:
                        suit = val[1]
                elif key == "joker":
                    joker = bool(val)
                else:
                    if isinstance(val, tuple):
                        val = val[1]
                    if isinstance(val, bool):
                        bool_attrs.add(key)
                    else:
                        int_attrs.add(key)
                    if key in bool_attrs and key in int_attrs:
                        report.err(f"card attribute '{key}' is a flag on some cards and a "
                                   "number on others", ve.span,
                                   f"give every card a number: {key}: 1")
                    if key not in extra and len(extra) >= MAX_CARD_ATTRS:
                        report.err(f"a deck has at most {MAX_CARD_ATTRS} card attributes",
                                   ve.span, "give the cards fewer kinds of attribute")
                        return False
                    ex[key] = int(val)
                    extra.add(key)
            for _ in range(times):
                cards.append(Card(len(cards), rank, suit, joker, dict(ex)))
        return True

    walk(d.items, {})
    if len(cards) * len(extra) > MAX_DECK_VALUES:
        report.err(f"the deck holds {len(cards):,} cards x {len(extra)} attributes = "
                   f"{len(cards) * len(extra):,} values, over the limit of {MAX_DECK_VALUES:,}",
                   d.span, "use fewer cards or fewer kinds of attribute")
    if not cards and not report.errors:
        report.err("the deck has no cards", d.span)
    return Deck(cards, d.rank_names, tuple(sorted(extra)), frozenset(bool_attrs))


class _Evaluator:
    """Values in a deck: numbers, suits, constants and loop variables, nothing else."""

    def __init__(self, constants: dict[str, tuple[str, Any]], report: Reporter,
                 nsuits: int = 4) -> None:
        self.constants = constants
        self.report = report
        self.nsuits = nsuits

    def values(self, e: A.Expr, env: dict[str, Any]) -> list[Any]:
        if isinstance(e, A.Binary) and e.op == "..":
            a, b = self.eval(e.left, env), self.eval(e.right, env)
            if isinstance(a, int) and isinstance(b, int):
                if b - a >= MAX_DECK:
                    self.report.err(f"a deck loop over {a}..{b} is too long (a deck has at "
                                    f"most {MAX_DECK} cards)", e.span)
                    return []
                return list(range(a, b + 1))
        if isinstance(e, A.Name) and e.name == "suits":
            return [("suit", i + 1) for i in range(self.nsuits)]
        if isinstance(e, A.ListLit):
            return [self.eval(x, env) for x in e.items]
        self.report.err("a deck loop runs over a range (1..10), a list, or 'suits'", e.span)
        return []

    def eval(self, e: A.Expr, env: dict[str, Any]) -> Any:
        if isinstance(e, A.Name) and e.name in env:
            return env[e.name]
        if isinstance(e, A.Name) and e.name in self.constants:
            t, v = self.constants[e.name]
            return ("suit", v) if t == "suit" else v
        if isinstance(e, A.Int):
            return e.value
        if isinstance(e, A.Bool):
            return e.value
        if isinstance(e, A.Binary) and e.op in "+-*/%":
            a, b = self.eval(e.left, env), self.eval(e.right, env)
            if isinstance(a, int) and isinstance(b, int):
                if e.op in "/%" and b == 0:
                    self.report.err("division by zero", e.span)
                    return 0
                if e.op == "*" and abs(a).bit_length() + abs(b).bit_length() > 70:
                    v = 1 << 70  # too large, without computing it
                else:
                    v = {"+": a + b, "-": a - b, "*": a * b, "/": a // b if b else 0,
                         "%": a % b if b else 0}[e.op]
                if not INT64_MIN <= v <= INT64_MAX:
                    self.report.err("this number does not fit in 64 bits", e.span)
                    return 0
                return v
        self.report.err("a deck is built from numbers, suits and loop variables only", e.span)
        return 0


ORDER_ATTR = "order"  # the card attribute a declared rank order gives (c.order)


def apply_order(deck: Deck, d: A.OrderDecl, report: Reporter) -> Deck:
    """`order 2 3 ... K A` (low to high) or `order ace high`: each card gets `c.order`, its
    rank's place in the order (1 the lowest; 0 for a card whose rank is not listed, such
    as a joker), by which `<`, `max` and `min` compare cards."""
    names = deck.rank_names
    if ORDER_ATTR in deck.card_attrs:
        report.err("the cards already have an attribute 'order'", d.span,
                   "rename the deck's attribute, or compare it directly")
        return deck
    if [r.lower() for r in d.ranks] == ["ace", "high"]:
        ranks = list(range(2, len(names) + 1)) + [1]
    else:
        ranks = []
        for r, sp in zip(d.ranks, d.rank_spans or (d.span,) * len(d.ranks), strict=False):
            if r.isdigit():
                v = int(r)
            elif r in names:
                v = names.index(r) + 1
            else:
                report.err(f"unknown rank '{r}' in the order", sp,
                           "ranks: " + " ".join(names) if names else
                           "name the ranks by number, or declare 'ranks ...' in the deck")
                continue
            if v in ranks:
                report.err(f"rank '{r}' is named twice in the order", sp)
                continue
            ranks.append(v)
    place = {v: i + 1 for i, v in enumerate(ranks)}
    cards = [Card(c.id, c.rank, c.suit, c.joker,
                  {**c.extra, ORDER_ATTR: 0 if c.joker else place.get(c.rank, 0)})
             for c in deck.cards]
    return Deck(cards, deck.rank_names, tuple(sorted(deck.card_attrs + (ORDER_ATTR,))),
                deck.bool_attrs)
