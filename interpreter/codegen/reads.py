"""What the rules and the generated code read: facts about this back end's own output,
read off the checked rules and the module text it wrote, for the fuzzer's walk
(engine/walk.py), which tests a rule again only where what it reads changed.

Two kinds of reader, each deciding its fact in one place:

- from the rules (`state_reads`, `seat_listing_reads`): the slots an invariant, a score
  or a decision's listing may read, from its expressions and the defs they call, mapped
  to this layout's slots;
- from the generated code (`invariant_parts`, `sizes_only`, `listing_reads`,
  `reads_legal`): what a generated function does with the state `s`, read with `ast`
  (or `dis`). They live beside the writers of that code, so that a change in the shape
  of the code and the readers of that shape are seen together.

Each takes the compiled game (`Compiled`: its checked rules, its `Generated`, its
namespace) and answers None, or False, where it does not know for certain: the caller
then tests the rule whole.
"""

from __future__ import annotations

import ast
import dis
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from ..lang import ast as A
from .layout import ENDED, MOVES, PC, WHO
from .module import Generated
from .runtime import STEPS


class Compiled(Protocol):
    """What the readers need of a compiled game (engine's `Game` is one)."""

    checked: Any
    gen: Generated
    ns: dict[str, Any]


# the built-in functions that read nothing but their arguments, and the built-in names
# that read one slot
_PURE_CALLS = frozenset(("size", "count", "cards", "min", "max", "abs", "sum", "first",
                         "last", "rest", "reverse", "sorted", "distance"))
_NAME_SLOTS = {"moves_played": (MOVES,), "ended": (ENDED,), "suits": (), "colors": ()}
_NO_READS = (A.Int, A.Bool, A.NoneLit, A.Me, A.Players, A.Unary, A.Binary, A.IfExpr,
             A.Index, A.IsEmpty, A.Let, A.ListLit, A.TopN, A.Subsets, A.PositionOf)


class Unknown(Exception):
    """An expression whose reads `state_reads` does not know."""


def state_reads(g: Compiled, invariants: Sequence[tuple[str, Any]], score: Any,
                conserved: bool = False
                ) -> tuple[list[frozenset[int] | None], list[frozenset[int] | None]]:
    """The slots each invariant (of `invariants`, as `g.invariants` gives them) and the
    score of each player (`score(s, p)`, p = 1, 2, ...) may read, from their rules (the
    defs they call included): a zone named (an array: all its zones, or the one at an
    index known here: `hand[me]` in the score of player p, a def's parameter that is
    `me` there, a number), a variable (the same; one that holds a zone: every zone),
    `moves_played`, `ended`; a card's `face_up` and `covered` search every zone (and
    the cards turned). None where that is not known for certain: the function is not
    the game's own for that rule, or the rule reads the legal moves or draws at random,
    or has a form this does not know (the caller then always evaluates it).

    With `conserved`, what the rule's value depends on in a state whose cards are all
    there once (the walk's test checks that first): a sum of sizes of distinct zones,
    `size(a) + size(b) + ...` (a zone array whole), holds the deck's size less the
    cards of the zones it leaves out, so it depends on those zones alone (where they
    are fewer slots than those it names; on none where it names every zone: Hearts'
    `cards`, `size(deck) + size(hand) + size(trick) + size(taken) == 52`). The rule
    still reads the zones it names: these are not its reads, but the slots whose values
    decide its value there."""
    reads = _reader(g, conserved)
    c = g.checked

    def of(expr: Any, fn: Any, own: Any, env: dict[str, int]) -> frozenset[int] | None:
        if fn is not own or reads_legal(fn):
            return None
        if expr is None:
            return frozenset()
        out: set[int] = set()
        try:
            reads(expr, env, out)
        except Unknown:
            return None
        return frozenset(out)

    decls = {inv.name: inv for inv in c.invariants}
    ns = g.ns
    inv_reads = [of(decls[name].cond, fn, ns.get(f"inv_{name}"), {}) if name in decls
                 else None for name, fn in invariants]
    score_reads = [of(c.score, score, ns.get("score"), {"me": p})
                   for p in range(1, c.players + 1)]
    return inv_reads, score_reads


def seat_listing_reads(g: Compiled, node: int, me: int) -> frozenset[int] | None:
    """The slots the listing of the legal moves of decision `node` (not simultaneous)
    may read where player `me` decides there, from the rules of its moves (each
    parameter's source and `where`, the `when`s, the defs they call: `state_reads`'
    analysis), with the decider's slot; None where that is not known for certain."""
    d = g.gen.decisions[node]
    c = g.checked
    reads = _reader(g, False)
    out: set[int] = {WHO}
    try:
        for alt in d.alts:
            md = c.moves[g.gen.move_names[alt]]
            for prm in md.params:
                reads(prm.source, {"me": me}, out)
                reads(prm.where, {"me": me}, out)
            reads(md.when, {"me": me}, out)
    except Unknown:
        return None
    return frozenset(out)


def _reader(g: Compiled, conserved: bool) -> Callable[[Any, dict[str, int], set[int]], None]:
    """`reads(expr, env, out)`: adds to `out` the slots `expr` may read (`state_reads`),
    `env` the numbers known of its names (`me`...); raises `Unknown`."""
    c = g.checked
    gen = g.gen
    zones_all: tuple[int, ...] = tuple(z.slot for z in gen.zone_slots)
    # a zone's or a variable's slots, and what reading one of them reads besides
    arrays: dict[tuple[str, str], tuple[int, int, tuple[int, ...]]] = {}
    for name, z in c.zones.items():
        arrays["zone", name] = (gen.zone_base[name], 1 if z.dim is None else z.dim[1], ())
    for name, v in c.vars.items():
        arrays["var", name] = (gen.var_base[name], 1 if v.dim is None else v.dim[1],
                               zones_all if "zone" in v.type else ())
    searched = zones_all + ((gen.faces_slot,) if gen.faces_slot is not None else ())
    Key = tuple[int, tuple[tuple[str, int], ...]]  # a def's body (by id), its bindings
    memo: dict[Key, frozenset[int]] = {}
    busy: set[Key] = set()

    def player(e: Any, env: dict[str, int]) -> int | None:
        """The number an index expression is here, if known (`me`, a def's parameter
        bound to a known number, a literal)."""
        if isinstance(e, A.Me):
            return env.get("me")
        if isinstance(e, A.Int):
            return e.value
        if isinstance(e, A.Name) and c.ref_of(e).is_local:
            return env.get(e.name)
        return None

    def slots_of(ref: Any, at: int | None = None) -> tuple[int, ...]:
        base, n, also = arrays["zone" if ref.kind.startswith("zone") else "var", ref.name]
        if at is not None and 1 <= at <= n:
            return (base + at - 1, *also)
        return (*range(base, base + n), *also)

    def size_sum(n: Any) -> set[int] | None:
        """The zone slots a sum of sizes of distinct zones names (None: not one)."""
        if isinstance(n, A.Binary) and n.op == "+":
            a, b = size_sum(n.left), size_sum(n.right)
            if a is None or b is None or a & b:
                return None
            return a | b
        if isinstance(n, A.Call) and n.func == "size" and len(n.args) == 1 \
                and isinstance(n.args[0], A.Name):
            ref = c.ref_of(n.args[0])
            if ref.kind in ("zone", "zone_array") and not ref.is_local:
                return set(slots_of(ref))
        return None

    every_zone = set(zones_all)  # (every card is in one of them: `conserved` sums)
    by_count = conserved

    def reads(n: Any, env: dict[str, int], out: set[int]) -> None:
        if n is None:
            return
        if isinstance(n, tuple):
            for x in n:
                reads(x, env, out)
            return
        if by_count and isinstance(n, A.Binary) and n.op == "+":
            named = size_sum(n)
            if named is not None and len(named) >= 2:
                rest = every_zone - named  # (the deck's size less these zones' cards)
                out.update(rest if len(rest) < len(named) else named)
                return
        if isinstance(n, A.Index) and isinstance(n.obj, A.Name):
            ref = c.ref_of(n.obj)
            # (a grid's first index is its row, not a place: `g[2][1]` reads all of `g`)
            if ref.kind == "var_array" or (ref.kind == "zone_array"
                                           and c.zones[ref.name].grid is None):
                at = player(n.index, env)
                if at is not None:
                    out.update(slots_of(ref, at))
                    reads(n.index, env, out)
                    return
        if isinstance(n, (A.Let, A.Quant)):
            bound = n.name if isinstance(n, A.Let) else n.var
            if bound in env:  # (a local of that name hides the binding known)
                env = {k: v for k, v in env.items() if k != bound}
        elif isinstance(n, (A.Name, A.Call)):
            ref = c.ref_of(n)
            if ref.is_local or ref.kind == "constant":
                pass
            elif ref.kind in ("zone", "zone_array", "var", "var_array"):
                out.update(slots_of(ref))
            elif ref.kind == "def":
                d = ref.decl
                args = n.args if isinstance(n, A.Call) else ()
                inner = {p.name: v for p, a in zip(d.params, args, strict=False)
                         if (v := player(a, env)) is not None}
                key = (id(d.body), tuple(sorted(inner.items())))
                got = memo.get(key)
                if got is None:
                    if key in busy:  # (a def that calls itself)
                        raise Unknown("recursion")
                    busy.add(key)
                    found: set[int] = set()
                    reads(d.body, inner, found)
                    busy.discard(key)
                    got = memo[key] = frozenset(found)
                out.update(got)
            elif ref.kind == "builtin" and isinstance(n, A.Name) and n.name in _NAME_SLOTS:
                out.update(_NAME_SLOTS[n.name])
            elif ref.kind == "builtin" and isinstance(n, A.Call) and n.func in _PURE_CALLS:
                pass
            elif ref.kind == "builtin" and isinstance(n, A.Call) and n.func == "covered":
                out.update(searched)
            else:
                raise Unknown(f"{ref.kind} {ref.name}")
        elif isinstance(n, A.Attr):
            if n.name == "face_up":
                out.update(searched)
        elif not isinstance(n, _NO_READS):
            raise Unknown(type(n).__name__)
        if isinstance(n, A.Quant) and n.kind == "random":
            raise Unknown("random")
        for x in A.children(n):
            reads(x, env, out)

    return reads


def invariant_parts(g: Compiled, invariants: Sequence[tuple[str, Any]]
                    ) -> dict[int, list[tuple[Any, tuple[Any, ...] | None,
                                              list[frozenset[int]]]]]:
    """The invariants (by their index in `invariants`) that the code generator wrote as
    parts besides whole (`INV_PARTS`, codegen/module.py: the conjuncts of an `and`, the
    body of `all v in T: ...` a function of the state and v, for each v of T), each
    part as (its function, T's values or None, the slots it reads: one set a value of
    T, or one set). The invariant holds iff every part holds (for every value), and each
    part is a function of the slots it reads: the walk's test evaluates a part again only
    where one of them changed since a state where all held.

    A part's reads are read off its generated code: every use of the state `s` there is
    `s[i]`, i a number or an expression of numbers and the value `_k`, evaluated for
    each value (`s[_k]`, Klondike's column; `s[(8 + _k)]`, a suit's foundation). Only
    invariants that are the game's own (the namespace's function), whose parts all read
    the state so, and whose values T are fewer than the step budget (the whole draws only
    T's values from it: codegen/module.py); and where some part reads fewer slots than
    the whole (Hearts' `even_hands`, each player's hand against every other's: each part
    reads every hand, so the whole is tested as it is)."""
    ns = g.ns
    table = ns.get("INV_PARTS") or {}
    out: dict[int, list[tuple[Any, tuple[Any, ...] | None, list[frozenset[int]]]]] = {}
    if not table:
        return out
    funcs = _function_defs(g.gen.source)
    for i, (name, fn) in enumerate(invariants):
        parts = table.get(name)
        if parts is None or fn is not ns.get(f"inv_{name}") or sum(
                len(at) for at, _ in parts if at is not None) >= STEPS:
            continue
        got = []
        for at, pf in parts:
            node = funcs.get(pf.__name__)
            index = _state_indexes(node) if node is not None else None
            if index is None:
                break
            try:
                pr = [frozenset(i for e in index for i in _numbers(e, v, ns))
                      for v in (at or (None,))]
            except Unknown:
                break
            got.append((pf, at, pr))
        else:
            every = frozenset().union(*(r for _, _, pr in got for r in pr))
            if any(r != every for _, _, pr in got for r in pr):  # (else nothing to save)
                out[i] = got
    return out


def _function_defs(source: str) -> dict[str, ast.FunctionDef]:
    """The top-level functions of generated code, by name (parsed once per source)."""
    got = _PARSED.get(source)
    if got is None:
        got = {n.name: n for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
        if len(_PARSED) >= 8:
            _PARSED.clear()
        _PARSED[source] = got
    return got


_PARSED: dict[str, dict[str, ast.FunctionDef]] = {}


def _state_indexes(fn: ast.FunctionDef) -> list[ast.expr] | None:
    """The index expressions of every `s[...]` read in a generated function of (s, ...),
    or None when `s` is used otherwise (passed on, stored, bound again). A read of the
    slots a tuple X names, `map(s.__getitem__, X)` (`covered`: the places covering
    one), is X as an `ast.Starred` (`_numbers`)."""
    subs = {id(n.value): n for n in ast.walk(fn)
            if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name)
            and n.value.id == "s" and isinstance(n.ctx, ast.Load)}
    # `map(s.__getitem__, X)`: the Name s in it, and X
    mapped = {id(c.args[0].value): c.args[1] for c in ast.walk(fn)
              if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
              and c.func.id == "map" and len(c.args) == 2 and not c.keywords
              and isinstance(c.args[0], ast.Attribute) and c.args[0].attr == "__getitem__"
              and isinstance(c.args[0].value, ast.Name) and c.args[0].value.id == "s"}
    if _binds_s_again(fn):
        return None
    out: list[ast.expr] = []
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id == "s":
            if not isinstance(n.ctx, ast.Load):
                return None
            sub = subs.get(id(n))
            if sub is None:
                each = mapped.get(id(n))
                if each is None:
                    return None
                out.append(ast.Starred(value=each, ctx=ast.Load()))
                continue
            out.append(sub.slice)
    return out


def _binds_s_again(fn: ast.FunctionDef) -> bool:
    """Does a generated function of (s, ...) bind the name `s` anew (a parameter of a
    lambda or an inner function)? Then a use of `s` there may not be the state: the
    readers of generated code below (`_state_indexes`, `sizes_only`, `listing_reads`)
    give no answer."""
    first = fn.args.args[0] if fn.args.args else None
    return any(isinstance(n, ast.arg) and n.arg == "s" and n is not first
               for n in ast.walk(fn))


def sizes_only(g: Compiled, fn: Any) -> bool:
    """Does the game's generated invariant `fn` (s, _legal) read the state only by the
    sizes of its slots (every use of `s` is `len(s[...])`, the legal moves unread)? Then
    its value is a function of those sizes (the other names it reads are the module's
    constant tables and helpers; its step budget starts afresh in it), and `_checker`
    keeps the sizes where it held (Hearts' `even_hands`: each hand's size against every
    other's)."""
    name: str = getattr(fn, "__name__", "")
    if not name.startswith("inv_") or fn is not g.ns.get(name):
        return False
    node = _function_defs(g.gen.source).get(name)
    if node is None or len(node.args.args) != 2 or node.args.args[0].arg != "s":
        return False
    legal = node.args.args[1].arg
    sized = {id(c.args[0].value) for c in ast.walk(node)
             if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
             and c.func.id == "len" and len(c.args) == 1 and not c.keywords
             and isinstance(c.args[0], ast.Subscript) and isinstance(c.args[0].value, ast.Name)
             and c.args[0].value.id == "s"}
    uses = [n for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in ("s", legal)]
    return bool(uses) and all(n.id == "s" and id(n) in sized for n in uses) \
        and not _binds_s_again(node)


def _numbers(e: ast.expr, k: Any, ns: dict[str, Any]) -> tuple[int, ...]:
    """The slots an index of `_state_indexes` reads for `_k` = k: the one `_number`
    gives, or those of X in `map(s.__getitem__, X)` (X a tuple of the namespace indexed
    by such a number, `COVER[_k]`: a tuple of ints)."""
    if not isinstance(e, ast.Starred):
        return (_number(e, k),)
    x = e.value
    if isinstance(x, ast.Subscript) and isinstance(x.value, ast.Name):
        table = ns.get(x.value.id)
        if type(table) is tuple:
            i = _number(x.slice, k)
            got = table[i] if 0 <= i < len(table) else None
            if type(got) is tuple and all(type(v) is int for v in got):
                return got
    raise Unknown("the slots of a map")


def _number(e: ast.expr, k: Any) -> int:
    """The value of an index of `_state_indexes` for `_k` = k: ints, `_k`, + and -."""
    if isinstance(e, ast.Constant) and type(e.value) is int:
        return e.value
    if isinstance(e, ast.Name) and e.id == "_k" and type(k) is int:
        return k
    if isinstance(e, ast.BinOp) and isinstance(e.op, (ast.Add, ast.Sub)):
        a, b = _number(e.left, k), _number(e.right, k)
        return a + b if isinstance(e.op, ast.Add) else a - b
    raise Unknown("an index of the state")


def listing_reads(g: Compiled, d: int) -> tuple[frozenset[int], frozenset[int]] | None:
    """The slots the game's `settle` reads at decision `d` (its legal moves, listed by
    `LEGAL[d]`, and its end conditions), read off its generated code: (the slots whose
    values it reads, those it reads only by their size: `not s[k]`, `len(s[k])`, `s[k]`
    as a condition); the node `PC` among the first. `settle(s)` there is a function of
    those values and sizes (the slots hold immutable values of the types the checker
    gives them; the memos it reads are caches of such functions), so a slot list that
    holds the same values there, and zones of the same sizes, lists the same moves and
    ends alike. None where the code uses the state otherwise: passes it to a function
    that is not one of the game's own (top-level, its first parameter `s`), indexes it
    with what is not a number, writes a slot other than `ENDED` (the end's reason)."""
    funcs = _function_defs(g.gen.source)
    legal = g.ns.get("LEGAL") or {}
    node_read = ast.dump(ast.parse(f"s[{PC}]", mode="eval").body)  # (`LEGAL[s[PC]]`)
    full: set[int] = {PC}
    size: set[int] = set()
    done: set[str] = set()

    def sized(n: ast.AST, up: dict[int, ast.AST]) -> bool:
        """Is the value of `n` read only as a truth value or a length?"""
        p = up.get(id(n))
        if isinstance(p, ast.UnaryOp) and isinstance(p.op, ast.Not):
            return True
        if isinstance(p, (ast.If, ast.While, ast.IfExp, ast.Assert)) and p.test is n:
            return True
        if isinstance(p, ast.Call) and isinstance(p.func, ast.Name) \
                and p.func.id in ("len", "bool") and p.args == [n] and not p.keywords:
            return True
        if isinstance(p, ast.BoolOp):  # (its value is an operand's: sized where it is)
            return sized(p, up)
        return False

    def visit(name: str) -> bool:
        if name in done:
            return True
        done.add(name)
        fn = funcs.get(name)
        if fn is None or not fn.args.args or fn.args.args[0].arg != "s" \
                or _binds_s_again(fn):
            return False
        up = {id(c): n for n in ast.walk(fn) for c in ast.iter_child_nodes(n)}
        calls: list[str] = []
        for n in ast.walk(fn):
            if not (isinstance(n, ast.Name) and n.id == "s"):
                continue
            if not isinstance(n.ctx, ast.Load):
                return False
            p = up.get(id(n))
            if isinstance(p, ast.Subscript) and p.value is n:
                k = p.slice
                if isinstance(k, ast.Constant) and type(k.value) is int:
                    if isinstance(p.ctx, ast.Store) and k.value == ENDED:
                        continue
                    if not isinstance(p.ctx, ast.Load):
                        return False
                    (size if sized(p, up) else full).add(k.value)
                    continue
                if isinstance(k, ast.Slice) and k.step is None and all(
                        isinstance(b, ast.Constant) and type(b.value) is int
                        for b in (k.lower, k.upper)) and isinstance(p.ctx, ast.Load):
                    full.update(range(k.lower.value, k.upper.value))  # type: ignore[union-attr]
                    continue
                return False
            if isinstance(p, ast.Call) and p.args and p.args[0] is n \
                    and n not in p.args[1:] and not p.keywords:
                f = p.func
                if isinstance(f, ast.Name) and f.id in funcs:
                    calls.append(f.id)
                    continue
                # `LEGAL[s[PC]](s)`: the listing of the node, here d's
                if isinstance(f, ast.Subscript) and isinstance(f.value, ast.Name) \
                        and f.value.id == "LEGAL" and isinstance(f.slice, ast.Subscript) \
                        and ast.dump(f.slice) == node_read \
                        and d in legal and getattr(legal[d], "__name__", "") in funcs:
                    calls.append(legal[d].__name__)
                    continue
            return False
        return all(visit(c) for c in calls)

    if not visit("settle"):
        return None
    return frozenset(full), frozenset(size - full)


def reads_legal(fn: Any) -> bool:
    """Does a generated test (of a state and its legal moves) read the legal moves?"""
    code = fn.__code__
    return "_legal" in code.co_cellvars or any(
        i.argval == "_legal" for i in dis.get_instructions(fn) if i.opname.startswith("LOAD"))
