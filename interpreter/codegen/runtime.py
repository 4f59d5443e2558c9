"""Helpers the generated code calls: chance, checked indexing, card moves, rule errors.

They are bound per compiled game (`namespace`) so that a rule error can name the source
line and the rule it happened in.
"""

from __future__ import annotations

import _random
import random
from collections.abc import Callable
from itertools import combinations
from math import comb
from typing import Any, NamedTuple, NoReturn

from ..errors import LogFailure, RuleError, Span, span_text
from ..lang import Checked


class GameOver(Exception):
    """Raised by `end` inside an effect: the game ends at once."""


class Helper(NamedTuple):
    may_raise: bool  # may a call raise a rule error?
    pure: bool = True  # False: it changes the state (the random seed, zones)


# Every name the generated code may use besides its own, with what codegen must know about
# it: a call that may raise is never moved ahead of the conditions that guard it, and one
# that is not pure is never moved at all. `namespace` binds exactly these names.
EXPORTED: dict[str, Helper] = {
    "_E": Helper(True), "_nn": Helper(True), "_ix": Helper(True), "_at": Helper(True),
    "_zn": Helper(True),
    "_topn": Helper(True), "_cat": Helper(False), "_min": Helper(True), "_max": Helper(True),
    "_div": Helper(True), "_mod": Helper(True), "_pick": Helper(True, pure=False),
    "_shuffle": Helper(False, pure=False), "_deal": Helper(True, pure=False),
    "_take": Helper(True, pure=False), "_take_many": Helper(True, pure=False),
    "_take_any": Helper(True, pure=False), "_loop": Helper(True), "_player": Helper(True),
    "_fmt": Helper(False), "_dist": Helper(True), "_pass_effect": Helper(False),
    "_flow_loop": Helper(True), "_rng": Helper(True), "_rep": Helper(True),
    "_big": Helper(True), "_big_items": Helper(True), "_players": Helper(True),
    "_GameOver": Helper(False),
    # a `log` line: its parts, one that failed as a LogFailure (never raised)
    "_log": Helper(False), "_logfail": Helper(False), "_RuleError": Helper(False),
    # per-card faces and sequences
    "_unturn": Helper(False, pure=False), "_turnto": Helper(False, pure=False),
    "_turn": Helper(True, pure=False), "_faceup": Helper(True), "_posof": Helper(False),
    "_above": Helper(True),
    # sets of cards
    "_subsets": Helper(True), "_msets": Helper(True),
    # The step budget. A charge may move (hoisting only ever lowers how often it runs):
    # what it may raise is "out of budget", which no condition guards against.
    "_B": Helper(False), "_LB": Helper(False), "_n": Helper(False), "_over": Helper(True), "_grow": Helper(True),
    # a value remembered with the zones it reads (optimize `remembered`): changes no slot
    "_remember": Helper(False),
    # the index of moves `join` where a key failed: every key gives all the zones
    "_every": Helper(False),
    # the set of the cards turned, remembered with the faces' tuple (optimize `turned`)
    "_turned": Helper(False),
}
# The helpers that draw from the step budget (or read what is left of it): code that uses
# none of them, and calls no def or procedure function, leaves the budget as it found it.
DRAWS = frozenset(("_B", "_n", "_over", "_grow", "_rep", "_min", "_max", "_subsets"))


def _dist(a: int, b: int, n: int) -> int:
    if n <= 0:
        raise RuleError(f"distance(..., {n}): the cycle length must be positive")
    d = abs(a - b) % n
    return min(d, n - d)


MAX_VALUES = 100_000  # values in a range, rounds of a repeat
BIG = 2**63
# The step budget of one evaluation of a rule: a move's effect, the flow from one decision
# to the next, the legal moves and end conditions of a state, a score, an invariant. As
# Starlark counts execution steps and WebAssembly runtimes burn fuel, but amortised: a loop
# or quantifier draws the number of values it runs over when it starts, a `while` one step
# per round, a def call one step, a list kept or built the number of its elements; straight
# code costs nothing (its length is bounded by the file). Each entry point of the generated
# code sets `_B[0] = STEPS` (module.py, step.py, playout.py).
STEPS = 1_000_000
MAX_LIST = 100_000  # elements of a list a rule keeps or builds
MAX_SETS = 10_000  # sets of cards one `subsets of Z` (or `c in N of Z`) may give
SET_CACHE = 512  # argument tuples whose sets are kept (per compiled game)
# sets of at most this many cards whose values must sum to a target are read from a list of
# the sums of all their subsets (2**n, built once for the values and shared by every
# target), not searched for: Scopa's captures (2**10 sets are fewer than MAX_SETS)
SUM_TABLE = 10
SUM_CACHE = 1024  # value tuples whose subset sums are kept (per compiled game)


SAFE_BUILTINS = {
    "len": len, "range": range, "tuple": tuple, "any": any, "all": all, "sum": sum,
    "min": min, "max": max, "next": next, "abs": abs, "sorted": sorted, "bool": bool,
    "frozenset": frozenset, "map": map,
    "int": int,  # the range checks written out test `x.__class__ is int` (exprs `in_range`)
    # the written-out `_take` catches it: a card that moved since it was chosen is not in
    # the zone it came from (codegen stmts)
    "ValueError": ValueError,
    # an index of moves `join` written out catches a key that fails for a zone (a rule
    # error, `None - 1`, a key not hashable): the loop then goes over every zone
    "Exception": Exception,
}


class _Every:
    """The index of moves `join` where a key failed for some item: every key's items are
    all the items (the loop as written)."""

    __slots__ = ("items",)

    def __init__(self, items: tuple[Any, ...]) -> None:
        self.items = items

    def get(self, key: Any, default: Any = None) -> tuple[Any, ...]:
        return self.items

    def __getitem__(self, key: Any) -> tuple[Any, ...]:  # (`lookup`'s `ix[...]`, for `L or`)
        return self.items


def namespace(g: Checked, spans: list[tuple[Span, str]], zone_slots: list[int],
              zone_text: dict[int, str], card_text: list[str],
              node_spans: dict[int, Span] | None = None) -> dict[str, Any]:
    node_spans = node_spans or {}
    n_players = g.players
    all_zones = tuple(zone_slots)
    budget = [STEPS]
    # the sets of `_subsets`, by their arguments (a pure function of them): a search that
    # looks at many moves meets the same hands again
    set_cache: dict[tuple[Any, ...], tuple[tuple[int, ...], ...]] = {}
    # the sums of every subset of some values (`_summed`), by the values: a pure function
    # of them
    sums_by: dict[tuple[int, ...], list[int]] = {}
    # the faces' tuple last made a set (`_turned`) and that set, one pair read and
    # replaced whole
    turned_of: list[tuple[Any, frozenset[int]]] = [((), frozenset())]
    # `_LB` is the budget too, for a log line to give back what it spent: a name apart,
    # as that does not draw from it (DRAWS)
    bound: dict[str, Any] = {"_dist": _dist, "_GameOver": GameOver, "_B": budget,
                             "_LB": budget}
    # the module's globals; `REC` is the engine's event recorder while a call observes;
    # `RELABEL` what rewrites each shuffle's result while a world is played
    # (`Game.relabeling`; None otherwise); `LOGCHECK` a list that collects the rule errors
    # of log lines while the fuzzer looks for them (`Game.checking_logs`; None otherwise)
    glb: dict[str, Any] = {"__builtins__": SAFE_BUILTINS, "REC": None, "RELABEL": None,
                           "LOGCHECK": None}

    def export(f: Callable[..., Any]) -> Callable[..., Any]:
        bound[f.__name__] = f
        return f

    def err(sid: int, message: str) -> NoReturn:
        span, rule = spans[sid]
        raise RuleError(message, span, rule)

    def what(wid: int) -> str:
        """The source text of the expression of span id `wid` (a zone or a list), to name
        it in a message ('' if unknown)."""
        if wid < 0:
            return ""
        span = spans[wid][0]
        return " ".join(span_text(g.sources.get(span.file), span).split())

    @export
    def _E(sid: int, wid: int = -1) -> NoReturn:
        w = what(wid)
        err(sid, f"nothing there: {w} is empty" if w
            else "nothing there: the zone or list is empty")

    @export
    def _nn(v: Any, sid: int) -> Any:
        if v is None:
            err(sid, "no card here (the value is none)")
        return v

    @export
    def _zn(v: Any, sid: int, name: str) -> Any:
        # a zone variable read as a zone: `none` (not set yet) is the rule's slip
        if v is None:
            err(sid, f"no zone here: {name} is none (set it before it is used as a zone, "
                     f"or test that it is not none first)")
        return v

    @export
    def _ix(i: Any, n: int, sid: int) -> int:
        if type(i) is not int or not 1 <= i <= n:
            err(sid, f"index {i} is out of range 1..{n}")
        return i

    @export
    def _at(seq: tuple[Any, ...], i: Any, sid: int) -> Any:
        if type(i) is not int or not 1 <= i <= len(seq):
            err(sid, f"position {i} is out of range 1..{len(seq)}")
        return seq[i - 1]

    @export
    def _topn(seq: tuple[int, ...], n: int, sid: int) -> tuple[int, ...]:
        if n < 0 or n > len(seq):
            err(sid, f"cannot take {_cards(n)} from a zone of {_cards(len(seq))}")
        return seq[len(seq) - n:]

    @export
    def _cat(s: list[Any], zones: tuple[int, ...]) -> tuple[int, ...]:
        out: tuple[int, ...] = ()
        for z in zones:
            out += s[z]
        return out

    @export
    def _over(sid: int) -> NoReturn:
        budget[0] = 0  # an error handler that evaluates more finds it spent as well
        err(sid, f"this rule ran more than {STEPS:,} steps (loop rounds, values, def calls, "
                 "list elements): a runaway rule")

    @export
    def _n(seq: Any, sid: int) -> Any:
        """`seq`, after drawing its length from the budget: a loop or quantifier over it."""
        b = budget[0] - len(seq)
        budget[0] = b
        if b < 0:
            _over(sid)
        return seq

    @export
    def _grow(seq: Any, sid: int) -> Any:
        """A list a rule keeps or builds: within MAX_LIST, and its length drawn."""
        if len(seq) > MAX_LIST:
            err(sid, f"a list grew beyond {MAX_LIST:,} elements: a runaway rule")
        return _n(seq, sid)

    @export
    def _subsets(seq: tuple[int, ...], k: int | None, vals: tuple[int, ...] | None,
                 target: int | None, sid: int) -> tuple[tuple[int, ...], ...]:
        """The sets of `seq`'s cards (of k cards, when k is given; whose values sum to
        target, when given), each in deck order, in one canonical order. A search that
        prunes: by the count, and by the sum when no value is negative. Each node of the
        search draws one step from the budget; more than MAX_SETS sets is a rule error."""
        key = (seq, k, vals, target)
        hit = set_cache.get(key)
        if hit is not None:  # the same cards, count and sum: the same sets
            b = budget[0] - len(hit)  # (`_n(hit, sid)` written out: Scopa's every card)
            budget[0] = b
            if b < 0:
                _over(sid)
            return hit
        n = len(seq)
        if k is not None and not 0 <= k <= n:
            return ()
        if len(set_cache) >= SET_CACHE:
            set_cache.clear()
        if n <= SUM_TABLE and vals is not None and target is not None:
            out = _summed(seq, k, vals, target, sid)  # (what `_sets` calls)
        else:
            out = _sets(seq, k, vals, target, sid)
        set_cache[key] = out
        return out

    @export
    def _msets(out: list[Any] | SetMoves, prefix: tuple[Any, ...], seq: tuple[int, ...],
               k: int | None, vals: tuple[int, ...] | None, target: int | None,
               sid: int) -> list[Any] | SetMoves:
        """`out += [prefix + (t,) for t in _subsets(seq, k, vals, target, sid)]` (a move
        whose last parameter is a set of cards, with nothing to test), the moves listed
        lazily: `out` becomes a SetMoves. Without a sum the sets are not built at all,
        only counted (the same count, limit and budget as `_subsets`): a random playout
        draws one by its index."""
        if vals is None or target is None:
            n = len(seq)
            if k is not None and not 0 <= k <= n:
                return out
            count = comb(n, k) if k is not None else 2 ** n
            if count > MAX_SETS:
                err(sid, f"{count:,} sets of cards to choose from, over {MAX_SETS:,}: "
                         "a runaway rule (choose fewer cards, or from fewer)")
            b = budget[0] - count
            budget[0] = b
            if b < 0:
                _over(sid)
            part: tuple[Any, ...] = (count, prefix, tuple(sorted(seq)), k)
        else:
            sets = _subsets(seq, k, vals, target, sid)
            count = len(sets)
            part = (count, prefix, sets, -1)
        if not count:
            return out
        if type(out) is list:
            out = SetMoves(out)
        assert isinstance(out, SetMoves)
        out.parts.append(part)
        out.n += count
        return out

    def _sets(seq: tuple[int, ...], k: int | None, vals: tuple[int, ...] | None,
              target: int | None, sid: int) -> tuple[tuple[int, ...], ...]:
        n = len(seq)
        if vals is None or target is None:  # no sum to prune by: itertools, counted first
            count = comb(n, k) if k is not None else 2 ** n
            if count > MAX_SETS:
                err(sid, f"{count:,} sets of cards to choose from, over {MAX_SETS:,}: "
                         "a runaway rule (choose fewer cards, or from fewer)")
            _n(range(count), sid)
            ids0 = sorted(seq)
            if k is not None:
                return tuple(combinations(ids0, k))
            return tuple(c for i in range(n + 1) for c in combinations(ids0, i))
        pairs = sorted(zip(seq, vals, strict=True))  # (few cards with a sum: `_summed`)
        ids = [c for c, _ in pairs]
        vs = [v for _, v in pairs]
        summed = vals is not None and target is not None
        prune = summed and all(v >= 0 for v in vs)
        left = [0] * (n + 1)  # the sum of the values from i on
        for i in range(n - 1, -1, -1):
            left[i] = left[i + 1] + vs[i]
        out: list[tuple[int, ...]] = []
        chosen: list[int] = []

        def walk(i: int, total: int) -> None:
            b = budget[0] - 1
            budget[0] = b
            if b < 0:
                _over(sid)
            if k is not None and len(chosen) == k or i == n:
                if (k is None or len(chosen) == k) and (not summed or total == target):
                    if len(out) >= MAX_SETS:
                        err(sid, f"more than {MAX_SETS:,} sets of cards to choose from: "
                                 "a runaway rule (narrow the sets with 'where')")
                    out.append(tuple(chosen))
                return
            if k is not None and len(chosen) + (n - i) < k:
                return
            if prune:
                assert target is not None
                if total > target or total + left[i] < target:
                    return
            chosen.append(ids[i])
            walk(i + 1, total + vs[i])
            chosen.pop()
            walk(i + 1, total)

        walk(0, 0)
        return tuple(out)

    def _summed(seq: tuple[int, ...], k: int | None, vals: tuple[int, ...], target: int,
                sid: int) -> tuple[tuple[int, ...], ...]:
        """`_sets` of a few cards with a sum: the same sets in the same order, read from the
        sums of all 2**n subsets. The sums are a list by mask, bit i standing for seq[i]:
        a function of the values alone (`vals`, in seq's order), kept by them (`sums_by`),
        so another table of the same values, or the same cards seen again, lists none,
        and a table of one card more (a card laid: seq and vals one longer) adds the new
        card's half to the sums of the table before it. The masks of the target become
        sets in deck order, in the search's order: by the mask whose bit n-1-i stands for
        the i-th card in deck order, descending (each card taken before it is left out).
        Each call draws 2**n steps from the budget, one a subset (looked at or not)."""
        n = len(seq)
        b = budget[0] - (1 << n)
        budget[0] = b
        if b < 0:
            _over(sid)
        sums = sums_by.get(vals)
        if sums is None:
            before = sums_by.get(vals[:-1]) if n > 2 else None
            if before is None:
                sums = [0]
                for v in vals:
                    sums += [x + v for x in sums]
            else:
                v = vals[-1]
                sums = before + [x + v for x in before]
            if len(sums_by) >= SUM_CACHE:
                sums_by.clear()
            sums_by[vals] = sums
        if target not in sums:
            return ()
        masks = [m for m, x in enumerate(sums) if x == target
                 and (k is None or m.bit_count() == k)]
        bits = range(n)
        if len(masks) > 1:
            # the search's order: each mask keyed by the places of its cards in `_sets`'
            # order (by card, then value; one bit a place, the first place highest),
            # descending. Not the cards' own bits: for a list that names a card twice they
            # would add up and tie with another set's. Places of one card and value give
            # equal sets.
            rank = [0] * n
            for r, i in enumerate(sorted(bits, key=lambda i: (seq[i], vals[i]))):
                rank[i] = 1 << (n - 1 - r)
            masks.sort(key=lambda m: sum([rank[i] for i in bits if m >> i & 1]), reverse=True)
        return tuple([tuple(sorted([seq[i] for i in bits if m >> i & 1])) for m in masks])

    def of_nothing(head: str, wid: int, test: bool) -> str:
        """`head` ("the minimum of nothing"), naming the list of span id `wid`."""
        w = what(wid)
        if not w:
            return head
        # (the list is filtered before it gets here: which of the two, it cannot say)
        return (f"{head}: {w} is empty, or no element of it passes the test" if test
                else f"{head}: {w} is empty")

    @export
    def _min(seq: Any, sid: int, wid: int = -1, test: bool = False) -> int:
        if not seq:
            err(sid, of_nothing("the minimum of nothing", wid, test))
        return min(_n(seq, sid))

    @export
    def _max(seq: Any, sid: int, wid: int = -1, test: bool = False) -> int:
        if not seq:
            err(sid, of_nothing("the maximum of nothing", wid, test))
        return max(_n(seq, sid))

    @export
    def _div(a: int, b: int, sid: int) -> int:
        if b == 0:
            err(sid, "division by zero")
        return a // b

    @export
    def _mod(a: int, b: int, sid: int) -> int:
        if b == 0:
            err(sid, "division by zero (in %)")
        return a % b

    @export
    def _pick(s: list[Any], seq: Any, sid: int, wid: int = -1, test: bool = False) -> Any:
        seq = tuple(seq)
        if not seq:
            err(sid, of_nothing("a random pick from nothing", wid, test))
        seed = s[1]
        if _seeded is _RESEEDS and type(seed) is int:  # one of the pool, seeded again
            r = _POOL.pop() if _POOL else _new_seeded(0)
            _SEED(r, seed)
        else:
            r = _seeded(seed)
        k = len(seq)
        if _INDEX_BELOW:  # `r.randrange(k)` written out (draws_below): the same draws
            getrandbits = r.getrandbits
            bits = k.bit_length()
            j = getrandbits(bits)
            while j >= k:
                j = getrandbits(bits)
            v = seq[j]
        else:
            v = seq[r.randrange(k)]
        s[1] = r.getrandbits(63)
        _POOL.append(r)
        rec = glb["REC"]
        if rec is not None:
            rec.pick(v)
        return v

    @export
    def _shuffle(s: list[Any], cards: tuple[int, ...]) -> tuple[int, ...]:
        seed = s[1]
        if _seeded is _RESEEDS and type(seed) is int:  # (as `_pick`)
            r = _POOL.pop() if _POOL else _new_seeded(0)
            _SEED(r, seed)
        else:
            r = _seeded(seed)
        lst = list(cards)
        _shuffle_list(r, lst)
        s[1] = r.getrandbits(63)
        _POOL.append(r)
        relabel = glb["RELABEL"]
        if relabel is not None:  # a world of observe.worlds: other cards in these places
            lst = relabel(lst)
        return tuple(lst)

    @export
    def _deal(s: list[Any], src: int, dests: tuple[int, ...], n: int | None, sid: int,
              rec: Any = None) -> None:
        if rec is not None:
            rec.deal(s, src, dests, n)
        if not dests:
            err(sid, "dealing to no zones")
        if src in dests:
            err(sid, f"dealing from {zone_text.get(src, src)} to itself")
        if n is None:
            i = 0
            while s[src]:
                d = dests[i % len(dests)]
                s[d] = s[d] + (s[src][-1],)
                s[src] = s[src][:-1]
                i += 1
            return
        if n * len(dests) > len(s[src]):
            err(sid, f"cannot deal {_cards(n)} to {len(dests)} zone{'s' if len(dests) != 1 else ''}"
                     f" from {_cards(len(s[src]))}")
        k = len(dests)
        if len(set(dests)) == k:
            # one card at a time from the top, round the zones: zone j gets the cards at
            # j, j + k, ... counted from the top
            t = s[src]
            cut = len(t) - n * k
            dealt = t[cut:][::-1]
            s[src] = t[:cut]
            for j, d in enumerate(dests):
                s[d] = s[d] + dealt[j::k]
            return
        for _ in range(n):
            for d in dests:
                s[d] = s[d] + (s[src][-1],)
                s[src] = s[src][:-1]

    @export
    def _take(s: list[Any], z: int, c: Any, sid: int) -> None:
        t = s[z]
        if t and t[-1] == c:
            s[z] = t[:-1]
            return
        try:
            i = t.index(c)
        except ValueError:  # it moved since it was chosen: it leaves wherever it is now
            _take_any(s, c, sid)
            return
        s[z] = t[:i] + t[i + 1:]

    @export
    def _take_many(s: list[Any], z: int, cs: tuple[int, ...], sid: int) -> None:
        gone = set(cs)
        t = s[z]
        kept = tuple(c for c in t if c not in gone)
        if len(kept) != len(t) - len(gone):
            for c in cs:
                _take_any(s, c, sid)
            return
        s[z] = kept

    @export
    def _take_any(s: list[Any], c: Any, sid: int) -> None:
        if c is None:
            err(sid, "no card to move (the value is none)")
        for z in all_zones:
            if c in s[z]:
                _take(s, z, c, sid)
                return
        err(sid, f"card {c} is nowhere")  # pragma: no cover - cards are always somewhere

    # ---- per-card faces: s[f] holds the sorted ids of the cards turned from their zone's
    # face; `pub[z]` says whether zone slot z is face up
    @export
    def _unturn(s: list[Any], f: int, cs: Any) -> None:
        """The cards `cs` (an id or ids) take their zone's face. The turned cards are
        distinct ids, so one card leaves by its index (a search and two slices in C,
        not a tuple rebuilt by a generator: Klondike turns a card back at every move),
        and cards none of which is turned leave the tuple as it is."""
        t = s[f]
        if isinstance(cs, int):
            if cs in t:
                i = t.index(cs)
                s[f] = t[:i] + t[i + 1:]
        else:
            gone = set(cs)
            if not gone.isdisjoint(t):
                s[f] = tuple(x for x in t if x not in gone)

    @export
    def _turnto(s: list[Any], f: int, cs: Any, turned: bool) -> None:
        """The cards `cs` (an id or ids) turned from their zone's face, or not."""
        ids = {cs} if isinstance(cs, int) else set(cs)
        t = set(s[f])
        s[f] = tuple(sorted(t | ids if turned else t - ids))

    def _zone_of(s: list[Any], c: Any, sid: int) -> int:
        if c is None:
            err(sid, "no card (the value is none)")
        for z in all_zones:
            if c in s[z]:
                return z
        err(sid, f"card {c} is nowhere")  # pragma: no cover - cards are always somewhere

    @export
    def _faceup(s: list[Any], c: Any, f: int | None, pub: tuple[bool, ...], sid: int) -> bool:
        """Is card c face up where it lies (its zone's face, unless it was turned)?"""
        z = _zone_of(s, c, sid)
        return pub[z] != (f is not None and c in s[f])

    @export
    def _turn(s: list[Any], f: int, pub: tuple[bool, ...], cs: Any, up: bool, sid: int) -> None:
        """`turn C face up/down`: each card where it lies."""
        t = set(s[f])
        for c in ((cs,) if isinstance(cs, int) or cs is None else cs):
            if up != pub[_zone_of(s, c, sid)]:
                t.add(c)
            else:
                t.discard(c)
        s[f] = tuple(sorted(t))

    @export
    def _posof(t: tuple[int, ...], c: Any) -> int:
        """`position of C in Z`: 1 at the bottom; 0 when C is not in Z."""
        try:
            return t.index(c) + 1
        except ValueError:
            return 0

    @export
    def _above(s: list[Any], c: Any, sid: int) -> tuple[int, tuple[int, ...]]:
        """`C and above`: the zone C lies in, and C with every card on it, bottom first."""
        z = _zone_of(s, c, sid)
        t = s[z]
        return z, t[t.index(c):]

    @export
    def _rng(a: int, b: int, sid: int) -> range:
        if b - a >= MAX_VALUES:
            err(sid, f"the range {a}..{b} has more than {MAX_VALUES} values: a runaway rule")
        return range(a, b + 1)

    @export
    def _rep(n: int, sid: int) -> range:
        if n > MAX_VALUES:
            err(sid, f"repeat {n} times is more than {MAX_VALUES} rounds: a runaway rule")
        return _n(range(n), sid)

    @export
    def _big(v: Any, sid: int) -> Any:
        if type(v) is int and not -BIG <= v <= BIG:
            err(sid, "a number grew beyond 64 bits: a runaway rule")
        return v

    @export
    def _big_items(t: Any, sid: int) -> None:
        for v in t:
            _big(v, sid)

    @export
    def _players(who: Any, sid: int) -> tuple[int, ...]:
        t = tuple(who)
        for p in t:
            _player(p, sid)
        if len(set(t)) != len(t):
            err(sid, f"a player is named twice in {list(t)}")
        return t

    @export
    def _loop(sid: int) -> NoReturn:
        err(sid, "this loop ran more than 100000 times: a runaway rule")

    @export
    def _player(p: Any, sid: int) -> int:
        if type(p) is not int or not 1 <= p <= n_players:
            err(sid, f"{p!r} is not a player")
        return p

    @export
    def _fmt(v: Any, t: str) -> str:
        if v is None:
            return "none"
        if t == "card":
            return card_text[v]
        if t == "player":
            return f"p{v}"  # as the REPL writes a seat: one spelling, not two
        if t == "suit":
            return g.suit_names[v - 1] if 1 <= v <= len(g.suit_names) else str(v)
        if t == "color":
            return ("red", "black")[v - 1] if v in (1, 2) else str(v)
        if t == "zone":
            return zone_text.get(v, str(v))
        if t == "bool":
            return "yes" if v else "no"
        if t.startswith("list:"):
            return ", ".join(_fmt(x, t[5:]) for x in v)
        return str(v)

    @export
    def _flow_loop(pc: int) -> NoReturn:
        raise RuleError("the flow ran 100000 steps without a decision: a runaway loop",
                        node_spans.get(pc, Span("<flow>", 0, 0, 0, 0)), "flow")

    @export
    def _turned(faces: tuple[int, ...]) -> frozenset[int]:
        """The cards turned as a set: the last one made again while the faces' tuple is
        the same (a step that turns no card, the shadow's state, the next invariant)."""
        last = turned_of[0]
        if last[0] is faces or last[0] == faces:
            return last[1]
        out = frozenset(faces)
        turned_of[0] = (faces, out)
        return out

    bound["_every"] = _Every

    @export
    def _remember(cell: list[Any], key: Any, value: Any) -> Any:
        """`value`, computed from the zones whose values are `key`, kept in `cell` (one
        pair, replaced whole) for the next call with equal zones."""
        cell[0] = (key, value)
        return value

    bound["_RuleError"] = RuleError

    @export
    def _logfail(e: RuleError) -> LogFailure:
        return LogFailure(e)

    @export
    def _log(s: list[Any], *parts: Any) -> None:
        """A log line's parts to the recorder (while a call observes), its failed parts
        to the fuzzer's list (while it looks for them)."""
        check = glb["LOGCHECK"]
        if check is not None:
            check.extend(p.error for p in parts if type(p) is LogFailure)
        rec = glb["REC"]
        if rec is not None:
            rec.log(s, *parts)

    @export
    def _pass_effect(s: list[Any], m: tuple[Any, ...]) -> None:
        return None

    assert bound.keys() == EXPORTED.keys(), "runtime.EXPORTED and namespace() disagree"
    glb.update(bound)
    return glb


class SetMoves:
    """Legal moves of which some are listed lazily: the moves whose last parameter is a
    set of cards (`cards in 3 of hand[me]`: 286 moves of a hand of 13) are kept as a
    count, built one by one when indexed or iterated. Move i is the one the list of all
    moves has at i (the sets in `_subsets`' order: `itertools.combinations` of the cards
    in deck order, by size when no size is given), so a random playout that draws an
    index plays what it would play from the full list, draw for draw. The engine lists
    them all (`tolist`) for the API; the fast path only draws.

    `parts` holds, in order, lists of moves and set blocks `(count, prefix, ids, k)`:
    move i of a block is `prefix + (the i-th set of k of ids,)`; with k == -1, ids is
    the tuple of the sets themselves (a sum's sets, found by search)."""

    __slots__ = ("parts", "n")

    def __init__(self, head: list[Any]) -> None:
        self.parts: list[Any] = [head] if head else []
        self.n = len(head)

    def __len__(self) -> int:
        return self.n

    def __bool__(self) -> bool:
        return self.n > 0

    def append(self, m: Any) -> None:
        parts = self.parts
        if parts and type(parts[-1]) is list:
            parts[-1].append(m)
        else:
            parts.append([m])
        self.n += 1

    def __iadd__(self, ms: Any) -> SetMoves:
        for m in ms:
            self.append(m)
        return self

    def __getitem__(self, i: int) -> Any:
        if i < 0:
            i += self.n
        if not 0 <= i < self.n:
            raise IndexError("move index out of range")
        for part in self.parts:
            if type(part) is list:
                if i < len(part):
                    return part[i]
                i -= len(part)
                continue
            count, prefix, ids, k = part
            if i < count:
                return prefix + ((ids[i] if k == -1 else nth_set(ids, k, i)),)
            i -= count
        raise IndexError("move index out of range")  # pragma: no cover - n counts the parts

    def __iter__(self) -> Any:
        for part in self.parts:
            if type(part) is list:
                yield from part
                continue
            count, prefix, ids, k = part
            if k == -1:
                for t in ids:
                    yield prefix + (t,)
            elif k is None:
                for size in range(len(ids) + 1):
                    for t in combinations(ids, size):
                        yield prefix + (t,)
            else:
                for t in combinations(ids, k):
                    yield prefix + (t,)

    def tolist(self) -> list[Any]:
        return list(self)

    def __contains__(self, m: Any) -> bool:
        """`m in moves`, the same answer as a search of the listed moves, without listing
        the sets: a block holds `prefix + (t,)` when `t` is a tuple of its cards in the
        order of `ids` (a subsequence of them, of k cards when k is given)."""
        for part in self.parts:
            if type(part) is list:
                if m in part:
                    return True
                continue
            count, prefix, ids, k = part
            if not isinstance(m, tuple) or len(m) != len(prefix) + 1 or m[:-1] != prefix:
                continue
            t = m[-1]
            if k == -1:
                if t in ids:
                    return True
                continue
            if not isinstance(t, tuple) or (k is not None and len(t) != k):
                continue
            j = 0
            try:
                for c in t:  # (the earliest place of each card after the last one's)
                    j = ids.index(c, j) + 1
            except ValueError:
                continue
            return True
        return False

    def parts_of(self, player: int) -> list[Any]:
        """The moves of `player` (each move's first item) as parts, for a comparison: two
        SetMoves whose `parts_of(p)` are equal list the same moves of p (unequal parts
        may still list the same moves). Runs of listed moves are lists, set blocks stay
        tuples (count, prefix, ids, k)."""
        out: list[Any] = []
        for part in self.parts:
            if type(part) is list:
                mine = [m for m in part if m[0] == player]
                if mine:
                    if out and type(out[-1]) is list:
                        out[-1] += mine
                    else:
                        out.append(mine)
            elif part[1][0] == player:
                out.append(part)
        return out

    def without(self, player: int) -> SetMoves:
        """These moves but the ones of `player` (each move's first item), in order."""
        out = SetMoves([])
        for part in self.parts:
            if type(part) is list:
                kept = [m for m in part if m[0] != player]
                if kept:
                    out.parts.append(kept)
                    out.n += len(kept)
            elif part[1][0] != player:
                out.parts.append(part)
                out.n += part[0]
        return out


_POSITIONS: dict[tuple[int, int], list[tuple[int, ...]]] = {}
POSITIONS_MAX = 4096  # the most sets of positions kept for one (n, k)


def nth_set(ids: tuple[int, ...], k: int | None, i: int) -> tuple[int, ...]:
    """The i-th (from 0) of `combinations(ids, k)`, or with k None of the sets of every
    size, smallest first: found by counting, without the ones before it (or, for a few
    sets, read from the list of `combinations(range(n), k)`, kept once per (n, k): the
    same set)."""
    n = len(ids)
    if k is not None:
        table = _POSITIONS.get((n, k))
        if table is None and comb(n, k) <= POSITIONS_MAX:
            table = _POSITIONS[(n, k)] = list(combinations(range(n), k))
        if table is not None:
            return tuple([ids[j] for j in table[i]])
    if k is None:
        k = 0
        while i >= comb(n, k):
            i -= comb(n, k)
            k += 1
    out = []
    a = 0
    while k:
        c = comb(n - a - 1, k - 1)  # the sets whose first card is ids[a]
        if i < c:
            out.append(ids[a])
            k -= 1
        else:
            i -= c
        a += 1
    return tuple(out)


# Fisher-Yates as `random.Random.shuffle` runs it on a list of n cards: for i from n - 1
# down to 1, j = randbelow(i + 1), drawn as getrandbits(k) with k the bit length of i + 1
# until j <= i. The (i, k) pairs of each length, worked out once (lengths up to 4096).
_FY_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _fy_steps(n: int) -> tuple[tuple[int, int], ...]:
    steps = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    if n <= 4096:
        _FY_STEPS[n] = steps
    return steps


def _inline_shuffle(r: random.Random, x: list[Any]) -> None:
    """`r.shuffle(x)` as Python 3.11-3.13 write it (Fisher-Yates drawing each index with
    `_randbelow_with_getrandbits`), the draw inlined and the bit lengths looked up: the
    same calls to `getrandbits` in the same order, so the same permutation, without a
    method call per card. Used only where `_shuffle_check` finds it equal."""
    getrandbits = r.getrandbits
    for i, k in _FY_STEPS.get(len(x)) or _fy_steps(len(x)):
        j = getrandbits(k)
        while j > i:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _new_seeded(seed: Any) -> random.Random:
    """`random.Random(seed)` for an int seed without the Python-level `__init__` and
    `seed` (which, for an int, only call the C seeding): the same generator state."""
    if type(seed) is not int:
        return random.Random(seed)
    r = _NEW(random.Random)
    _SEED(r, seed)
    r.gauss_next = None  # type: ignore[attr-defined]  # as `random.Random.seed` leaves it
    return r


_NEW = random.Random.__new__
_SEED = _random.Random.seed


def _shuffle_check() -> tuple[Callable[[random.Random, list[Any]], None],
                              Callable[[Any], random.Random]]:
    """The inlined shuffle and the direct seeding where they deal as `random.Random`
    does on this Python (checked on a few seeds and lengths, once per process), else the
    library's own."""
    shuffle: Callable[[random.Random, list[Any]], None] = _inline_shuffle
    seeded: Callable[[Any], random.Random] = _new_seeded
    for seed in (0, 2**62 + 12345, -7):  # about 0.3 ms at import
        if _new_seeded(seed).getstate() != random.Random(seed).getstate():
            seeded = random.Random
        for n in (0, 1, 2, 33, 52):
            a, b = list(range(n)), list(range(n))
            ra, rb = random.Random(seed), random.Random(seed)
            ra.shuffle(a)
            _inline_shuffle(rb, b)
            if a != b or ra.getrandbits(63) != rb.getrandbits(63):
                shuffle = random.Random.shuffle
    return shuffle, seeded


_shuffle_list, _seeded = _shuffle_check()
# Each chance event seeds a generator: one of the pool, seeded again (a thread takes one
# from the list and puts it back, so threads never share one), where seeding again gives
# the state a new generator has (checked once per process: `_RESEEDS` is then `_seeded`,
# else None and `_seeded` makes one each time, as it does where it is replaced)
_POOL: list[random.Random] = []


def _reseed_check() -> bool:
    if _seeded is not _new_seeded:
        return False
    r = _new_seeded(0)
    for seed in (0, 2**62 + 12345, 2**63 - 1, 12345):
        r.getrandbits(32 * 700)  # (a used generator: past a twist of its state)
        _SEED(r, seed)
        if r.getstate() != random.Random(seed).getstate():
            return False
    return True


_RESEEDS = _seeded if _reseed_check() else None


def draws_below(draw: Callable[[random.Random, int], int]) -> bool:
    """Whether `draw(r, k)` (k >= 1) is, on this Python, the loop the engine writes out
    (getrandbits of k's bit length until below k): the same numbers drawn and the
    generator left in the same state, checked on a few seeds and bounds. Checked once per
    process for `randrange` (`_pick`) and `_randbelow` (the playouts' driver)."""
    for seed in (0, 1, 2**62 + 7):
        a, b = random.Random(seed), random.Random(seed)
        for k in (1, 2, 3, 5, 8, 17, 64, 100, 2**40 + 3):
            bits = k.bit_length()
            j = b.getrandbits(bits)
            while j >= k:
                j = b.getrandbits(bits)
            if draw(a, k) != j:
                return False
        if a.getrandbits(63) != b.getrandbits(63):
            return False
    return True


_INDEX_BELOW = draws_below(random.Random.randrange)
# the shuffle of the rules' `shuffle`, for the engine's own shuffles too (the same order)
shuffle_list = _shuffle_list


def _cards(n: int) -> str:
    """`1 card`, `0 cards`, `3 cards`: a count of cards in a message."""
    return f"{n} card" if n == 1 else f"{n} cards"
