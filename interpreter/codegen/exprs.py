"""Expression lowering: an expression of the game -> one Python expression (a string).

`Exprs` lowers plainly: a call of a `def` calls its function `d_<name>`. The optimiser
(optimize.py) subclasses it to inline defs, hoist and tabulate; the hooks it overrides are
`def_call`, `local_code`, `card_attr` and `top_card`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import attrs

from ..errors import Diagnostic
from ..lang import ast as A
from .bounds import Bounds, fits
from .context import BUILTIN_NAMES, Ctx
from .writer import CodeWriter, Frame, Local

MAX_RANGE = 100_000  # the most values a range or repeat may run over
# A loop or quantifier over at most SHORT values (the players, a zone of a deck this small,
# a constant range or list) whose body has no loop, quantifier, def call or list work of its
# own draws nothing from the step budget: it costs at most SHORT times its code, as straight
# code does, and the hot paths of the games are mostly such loops.
SHORT = 64
COUNT_ZONES = 8  # `count z in Z where W` over at most this many zones: one term per zone
WRITE_ZONES = 32  # `each`/`any`/`all` over at most this many zones: one term per zone
PLAYERS_WRITTEN = 8  # ...and over the players, up to this many (`sum` too)
_LIST_FUNCS = ("sum", "min", "max", "sorted", "reverse", "rest")
_ATTR_TABLES = {"rank": "RANK", "suit": "SUIT", "color": "COLOR", "joker": "JOKER"}
# code that reads a value without computing anything: a name, a slot at a constant index
_READ = re.compile(r"(?:[A-Za-z_]\w*|s\[\d+\])\Z")


class Exprs:
    def __init__(self, cx: Ctx) -> None:
        self.cx = cx
        self._bounds: Bounds | None = None
        self._let_ranges: dict[str, tuple[int, int] | None] = {}  # a let's code -> its values
        self._leaf_defs: dict[str, bool] = {}
        self._player_vars: frozenset[str] | None = None  # (player_vars)
        self._values: set[int] | None = None  # (value_places)
        self._sure_zones: frozenset[str] | None = None  # (sure_zones)
        # operands computed ahead by statements (optimize.py, `Optimizing.into`): node id -> code
        self._pre: dict[int, str] = {}
        self._lower: dict[type, Callable[[A.Expr, Frame], str]] = {
            A.Int: lambda e, fr: str(e.value),  # type: ignore[attr-defined]
            A.Bool: lambda e, fr: "True" if e.value else "False",  # type: ignore[attr-defined]
            A.NoneLit: lambda e, fr: "None",
            A.Me: lambda e, fr: self.local_code(fr.env["me"], fr),
            A.Players: lambda e, fr: "PLAYERS",
            A.Name: self.name,  # type: ignore[dict-item]
            A.ListLit: self.list_lit,  # type: ignore[dict-item]
            A.Attr: self.attr,  # type: ignore[dict-item]
            A.Index: self.index,  # type: ignore[dict-item]
            A.Call: self.call,  # type: ignore[dict-item]
            A.Unary: self.unary,  # type: ignore[dict-item]
            A.TopN: self.top_n,  # type: ignore[dict-item]
            A.PositionOf: self.position_of,  # type: ignore[dict-item]
            A.Subsets: self.subsets,  # type: ignore[dict-item]
            A.Binary: self.binary,  # type: ignore[dict-item]
            A.IsEmpty: self.is_empty,  # type: ignore[dict-item]
            A.IfExpr: self.if_expr,  # type: ignore[dict-item]
            A.Let: self.let,  # type: ignore[dict-item]
            A.Quant: self.quant,  # type: ignore[dict-item]
        }

    def expr(self, e: A.Expr, fr: Frame) -> str:
        if self._pre:
            pre = self._pre.get(id(e))
            if pre is not None:
                return pre
        lower = self._lower.get(type(e))
        self.cx.names.nodes += 1
        if lower is None:  # pragma: no cover - the checker knows every expression
            raise Diagnostic("internal: cannot compile expression", e.span)
        return lower(e, fr)

    def as_tuple(self, e: A.Expr, fr: Frame) -> str:
        """An expression as a value to keep: a range becomes a tuple."""
        code = self.expr(e, fr)
        if isinstance(e, A.Binary) and e.op == "..":  # as many steps as values
            return f"{self.cx.helper('_n')}(tuple({code}), {self.sid(e.span, fr)})"
        return code

    def sid(self, span: A.Span, fr: Frame) -> int:
        return self.cx.names.span_id(span, fr.rule)

    def into(self, e: A.Expr, fr: Frame, w: CodeWriter, keep: bool = True) -> str:
        """e where a statement evaluates it (an assignment's or a `let`'s value, an `if`'s
        first test): its code, as `as_tuple` (`keep`) or `expr` lowers it. Plain code writes
        no statements; the optimiser may write some to w first (`Optimizing.into`: a
        quantifier as a loop that stops early, a `let` as an assignment)."""
        return self.as_tuple(e, fr) if keep else self.expr(e, fr)

    # ------------------------------------------------------------ the step budget
    def charge(self, src: str, source: A.Expr, inner: object, span: A.Span, fr: Frame) -> str:
        """A loop's or quantifier's values, drawing their number from the step budget
        unless the loop is short and a leaf (SHORT)."""
        if self.short(source, fr) and self.leaf(inner):
            return src
        return f"{self.cx.helper('_n')}({src}, {self.sid(span, fr)})"

    def short(self, e: A.Expr, fr: Frame | None) -> bool:
        """Has this list at most SHORT values, whatever the state? (Without a frame, a
        range is short only if its ends are constants.)"""
        cx = self.cx
        t = cx.type_of(e)
        if t == "zone":
            return len(cx.g.cards) <= SHORT
        if isinstance(e, A.Players) or (isinstance(e, A.Unary) and e.op == "players_from"):
            return cx.n <= SHORT
        if isinstance(e, A.Binary) and e.op == "..":
            if fr is None:
                lo, hi = cx.const_int(e.left), cx.const_int(e.right)
            else:
                lo, hi = self.int_value(e.left, fr), self.int_value(e.right, fr)
            if lo is None or hi is None:
                span = self.span_of(e, fr)  # `1..size(trick)`: at most 52 values
                return span is not None and span < SHORT
            return hi - lo < SHORT
        if isinstance(e, A.ListLit):
            return len(e.items) <= SHORT and not any(
                isinstance(x, A.Binary) and x.op == ".." for x in e.items)
        if isinstance(e, A.Name):
            ref = cx.ref(e)
            if ref.kind == "zone_array":
                return cx.dim(ref)[1] <= SHORT
            if ref.kind == "constant":
                return isinstance(ref.value, tuple) and len(ref.value) <= SHORT
            return ref.kind == "builtin" and e.name in ("suits", "colors")
        return False

    def span_of(self, e: A.Binary, fr: Frame | None) -> int | None:
        """Optimised code: the most a range `a..b` can span (the highest b less the lowest
        a, as the bounds prove them: `1..size(trick)` spans at most 51), else None."""
        if not self.cx.optimize or fr is None:
            return None
        a, b = self.range_of(e.left, fr), self.range_of(e.right, fr)
        if a is None or b is None:
            return None
        return b[1] - a[0]

    def leaf(self, root: object) -> bool:
        """Does this code (expressions, statements) draw nothing from the budget itself?
        (Constant ranges and lists count as short: `x in 6..10`, `x in [2, 3]`.)"""
        cx = self.cx
        for n in A.walk(root):
            if isinstance(n, (A.For, A.While, A.Repeat, A.Quant, A.CallStmt)):
                return False
            if isinstance(n, (A.Call, A.Name)) and cx.ref(n).kind == "def":
                d = cx.ref(n).decl
                if d.name not in self._leaf_defs:
                    self._leaf_defs[d.name] = False  # defs do not recurse; this is a guard
                    self._leaf_defs[d.name] = self.leaf(d.body)
                if not self._leaf_defs[d.name]:
                    return False
            elif isinstance(n, A.Call) and n.func in _LIST_FUNCS and cx.type_of(
                    n.args[0]) != "zone":
                return False
            if isinstance(n, A.Binary) and (
                    (n.op == ".." and not self.short(n, None)) or (
                        n.op in ("+", "in", "notin") and cx.type_of(n.right).startswith("list:")
                        and not self.short(n.right, None))):
                return False
            if isinstance(n, A.Assign) and cx.type_of(n.target).startswith("list:"):
                return False
        return True

    # ------------------------------------------------------------ names and indexing
    def name(self, e: A.Name, fr: Frame) -> str:
        cx = self.cx
        ref = cx.ref(e)
        if ref.is_local:
            return self.local_code(fr.env[e.name], fr)
        if ref.kind == "zone":
            return str(cx.slot(ref))
        if ref.kind == "zone_array":
            return f"Z_{e.name}"
        if ref.kind in ("var", "var_array"):
            if getattr(ref.decl, "optional", False):
                cx.names.unsafe += 1  # may be none: never computed ahead of its test
            if ref.kind == "var" and self.zone_none(e, ref):
                return self.zone_read(f"s[{cx.slot(ref)}]", e, fr)
            return f"s[{cx.slot(ref)}]"
        if ref.kind == "constant":
            return repr(ref.value)
        if ref.kind == "def":
            return self.def_call(ref.decl, (), fr)
        if ref.kind == "builtin":
            if e.name == "suits":  # the deck's suits: the French four, or `deck suits ...`
                return repr(tuple(range(1, len(cx.g.suit_names) + 1)))
            return BUILTIN_NAMES[e.name]
        raise Diagnostic(f"internal: {ref.kind} {e.name} used as a value", e.span)  # pragma: no cover

    def local_code(self, loc: Local, fr: Frame) -> str:
        """A local name read in the code (the optimiser notes how deep it is bound)."""
        return loc.code

    def index(self, e: A.Index, fr: Frame) -> str:
        cx = self.cx
        if isinstance(e.obj, A.Index) and isinstance(e.obj.obj, A.Name):
            ref = cx.ref(e.obj.obj)
            grid = ref.decl.grid if ref.kind == "zone_array" else None
            if grid is not None:  # pyramid[r][c] with both known: the place's slot
                r, c = self.int_value(e.obj.index, fr), self.int_value(e.index, fr)
                at = None if r is None or c is None else ref.decl.place(r, c)
                if at is not None:
                    return str(cx.slot(ref) - 1 + at)
        if isinstance(e.obj, A.Name):
            ref = cx.ref(e.obj)
            if ref.kind == "zone_array" and ref.decl.grid is not None:  # a row of a grid
                rows = len(ref.decl.grid)
                v = self.int_value(e.index, fr)
                if v is not None and 1 <= v <= rows:
                    return f"R_{ref.name}[{v - 1}]"
                return f"R_{ref.name}[{self.index_code(e.index, ('int', rows), fr)} - 1]"
            if ref.kind == "zone_array":
                slot, dim = cx.slot(ref), cx.dim(ref)
                if cx.type_of(e.index).startswith("list:"):
                    if cx.optimize and isinstance(e.index, A.Players):
                        # every player in order: the zones' slots, known when compiling
                        return repr(tuple(slot - 1 + i for i in range(1, cx.n + 1)))
                    lst = self.expr(e.index, fr)
                    if cx.optimize and isinstance(e.index, A.Unary) and (
                            e.index.op == "players_from"):
                        # each value a player, 1..n (ORDER's row; the player it starts
                        # from is checked where the list is made): no check per zone
                        return f"tuple([{slot - 1} + _i for _i in {lst}])"
                    sid = self.sid(e.index.span, fr)
                    return (f"tuple({slot - 1} + _ix(_i, {dim[1]}, {sid}) "
                            f"for _i in {lst})")
                v = self.int_value(e.index, fr)
                if v is not None and 1 <= v <= dim[1]:
                    return str(slot - 1 + v)
                return f"({slot - 1} + {self.index_code(e.index, dim, fr)})"
            if ref.kind == "var_array":
                if getattr(ref.decl, "optional", False):
                    cx.names.unsafe += 1  # may be none: never computed ahead of its test
                if self.zone_none(e, ref):
                    return self.zone_read(f"s[{self.var_slot(e, fr)}]", e, fr)
                return f"s[{self.var_slot(e, fr)}]"
        ot = cx.type_of(e.obj)
        obj = self.expr(e.obj, fr)
        i = self.expr(e.index, fr)
        sid = self.sid(e.span, fr)
        seq = f"s[{obj}]" if ot == "zone" else obj
        return self.in_range("_at", i, seq, f"{seq}, {i}, {sid}", f"{seq}[{i} - 1]")

    def zone_none(self, e: A.Expr, ref: Any) -> bool:
        """A read of a zone variable (or an element of an array of them) that may be
        none, used as a zone: not where none is a value (`value_places`)."""
        return (getattr(ref.decl, "type", None) == "zone" and id(e) not in self.value_places()
                and ref.name not in self.sure_zones())

    def value_places(self) -> set[int]:
        """The expressions (by id) whose value is passed on as it is, not used as a zone:
        what is compared with `==`/`!=`, tested with `in`, assigned (and the target),
        bound by a `let`, listed in `[...]`, passed to a def or procedure, returned by a
        def; through the arms of an `if` and the body of a `let`. A zone variable read
        there may be none; used as a zone anywhere else, it is checked (`zone_read`)."""
        if self._values is not None:
            return self._values
        out: set[int] = set()

        def mark(x: A.Expr | None) -> None:
            while x is not None:
                out.add(id(x))
                if isinstance(x, A.IfExpr):
                    mark(x.then)
                    x = x.else_
                elif isinstance(x, A.Let):
                    x = x.body
                else:
                    x = None

        cx = self.cx
        for d in cx.g.defs.values():
            mark(d.body)
        for n in cx.g.nodes():
            if isinstance(n, A.Binary) and n.op in ("==", "!="):
                mark(n.left)
                mark(n.right)
            elif isinstance(n, A.Binary) and n.op in ("in", "notin"):
                mark(n.left)
            elif isinstance(n, A.Assign):
                mark(n.target)
                mark(n.value)
            elif isinstance(n, (A.Let, A.LetStmt)):
                mark(n.value)
            elif isinstance(n, A.ListLit):
                for item in n.items:
                    mark(item)
            elif isinstance(n, A.CallStmt) or (isinstance(n, A.Call)
                                                and cx.callee(n) is not None):
                for a in n.args:
                    mark(a)
        self._values = out
        return out

    def sure_zones(self) -> frozenset[str]:
        """The zone variables (not arrays) that always hold a zone: the initial value is
        a zone named (or an element of an array of zones), and so is every value a rule
        or an example's `set` gives them. Reading one needs no check."""
        if self._sure_zones is not None:
            return self._sure_zones
        cx = self.cx
        g = cx.g

        def zone(e: A.Expr | None) -> bool:
            if isinstance(e, A.Index):
                e = e.obj
            try:
                return isinstance(e, A.Name) and cx.ref(e).kind in ("zone", "zone_array")
            except LookupError:  # a local of a rule: not known here
                return False

        sure = {name for name, v in g.vars.items()
                if v.dim is None and v.type == "zone" and zone(v.init)}
        for target, value in self.assignments():
            if isinstance(target, A.Name) and target.name in sure and not zone(value):
                sure.discard(target.name)
        self._sure_zones = frozenset(sure)
        return self._sure_zones

    def zone_read(self, code: str, e: A.Name | A.Index, fr: Frame) -> str:
        """A zone variable used as a zone: a rule error naming it, where it is, if it is
        none, not Python's TypeError from `s[None]`."""
        name = (e.name if isinstance(e, A.Name)
                else f"an element of {e.obj.name}")  # type: ignore[attr-defined]
        return f"{self.cx.helper('_zn')}({code}, {self.sid(e.span, fr)}, {name!r})"

    def var_slot(self, e: A.Index, fr: Frame) -> str:
        """The slot of an element of a variable array: a number if the index is known."""
        assert isinstance(e.obj, A.Name)
        ref = self.cx.ref(e.obj)
        slot, dim = self.cx.slot(ref), self.cx.dim(ref)
        v = self.int_value(e.index, fr)
        if v is not None and 1 <= v <= dim[1]:
            return str(slot - 1 + v)
        return f"{slot - 1} + {self.index_code(e.index, dim, fr)}"

    def index_code(self, idx: A.Expr, dim: tuple[str, int], fr: Frame) -> str:
        """An index into an array of zones or variables, checked unless known in range."""
        code = self.expr(idx, fr)
        kind, size = dim
        if self.safe_index(idx, kind, size, fr):
            return code
        sid = self.sid(idx.span, fr)
        return self.in_range("_ix", code, size, f"{code}, {size}, {sid}")

    def in_range(self, helper: str, code: str, bound: int | str, args: str,
                 value: str | None = None) -> str:
        """A checked read: `helper(args)` (`_ix`, `_player`, `_at`) gives `value` (default
        `code`) when `code` is an int in 1..bound (a number, or the code of a sequence:
        its length), else raises the rule error. Optimised code where `code` (and the
        sequence) reads a value without computing anything (a name, a slot): the test
        written out, the call made only to raise (its test is the same, so the same
        values pass). A call per check was a tenth of Arsène's random playouts."""
        name = self.cx.helper(helper)
        if (not self.cx.optimize or not _READ.match(code)
                or not (isinstance(bound, int) or _READ.match(bound))):
            return f"{name}({args})"
        top = bound if isinstance(bound, int) else f"len({bound})"
        return (f"({code if value is None else value} if {code}.__class__ is int and "
                f"0 < {code} <= {top} else {name}({args}))")

    def safe_index(self, idx: A.Expr, kind: str, size: int, fr: Frame) -> bool:
        if isinstance(idx, A.Int):
            return 1 <= idx.value <= size
        if isinstance(idx, A.Name):
            ref = self.cx.ref(idx)
            if ref.is_local:
                loc = fr.env[idx.name]
                return (loc.lo is not None and loc.hi is not None and 1 <= loc.lo
                        and loc.hi <= size)
            if ref.kind == "constant":
                return isinstance(ref.value, int) and 1 <= ref.value <= size
            if ref.kind == "var" and idx.name in self.player_vars():
                return self.cx.n <= size
        if kind == "player" and isinstance(idx, A.Me):
            return True
        if kind == "player" and isinstance(idx, A.Unary) and idx.op in ("left", "right"):
            return True
        if kind == "suit" and isinstance(idx, A.Attr) and idx.name == "suit":
            return not self.cx.g.has_suitless and not self.card_may_be_none(idx.obj, fr)
        return False

    def int_value(self, e: A.Expr, fr: Frame) -> int | None:
        """The value of an integer expression known when compiling: a constant, or a
        local bound to one value (an unrolled parameter)."""
        loc = self.cx.local(e, fr.env)
        if loc is not None:
            return loc.lo if loc.lo is not None and loc.lo == loc.hi else None
        return self.cx.const_int(e)

    def card_may_be_none(self, e: A.Expr, fr: Frame) -> bool:
        if isinstance(e, A.Quant) and e.kind == "first":
            return True
        if isinstance(e, A.Name):
            return self.cx.ref(e).kind == "var"
        return isinstance(e, A.NoneLit)

    def origin(self, e: A.Expr | None, fr: Frame) -> str | None:
        """The zone (slot code) a card expression certainly comes from, if known."""
        if e is None:
            return None
        loc = self.cx.local(e, fr.env)
        if loc is not None:
            return loc.origin
        if (isinstance(e, A.Quant) and e.kind in ("first", "random")
                and self.cx.type_of(e.source) == "zone"):
            return self.expr(e.source, fr)
        if (self.cx.optimize and isinstance(e, A.Index) and isinstance(e.obj, A.Name)
                and self.cx.ref(e.obj).kind == "zone"):
            # `trick[i]`: the card at a position of a zone (or an error), from that zone
            return self.expr(e.obj, fr)
        return None

    def certain(self, e: A.Expr, fr: Frame) -> bool:
        """Whether a card expression with an origin is certainly in it wherever a `let`
        binds it: a value taken from its zone within the expression itself."""
        loc = self.cx.local(e, fr.env)
        if loc is not None:
            return loc.certain
        return isinstance(e, A.Quant)

    # ------------------------------------------------------------ simple forms
    def list_lit(self, e: A.ListLit, fr: Frame) -> str:
        items = [self.as_tuple(x, fr) for x in e.items]
        return "(" + "".join(i + ", " for i in items) + ")"

    def face_up(self, e: A.Attr, obj: str, fr: Frame) -> str:
        """`c.face_up`: its zone's face, unless the card is turned. Where the card's zone is
        known (`top of Z`, a parameter `c in Z`) no zone is searched."""
        faces = self.cx.layout.faces
        o = e.obj

        def slow() -> str:  # search the zones for the card
            sid = self.sid(o.span, fr)
            return f"{self.cx.helper('_faceup')}(s, {obj}, FACES, PUB, {sid})"

        if self.card_may_be_none(o, fr):
            return slow()
        zone: str | None
        here = ""  # the card is certainly in `zone`
        if isinstance(o, A.Unary) and o.op in ("top", "bottom") and self.cx.type_of(o.operand) == "zone":
            zone = self.expr(o.operand, fr)
        elif isinstance(o, A.Index) and self.cx.type_of(o.obj) == "zone":
            # `Z[k]`: the card at a place of Z. Its code (which checks k) runs first, also
            # where no card is turned and the face is the zone's alone
            zone = self.expr(o.obj, fr)
            if faces is None:
                return f"({obj} is not None and PUB[{zone}])"
        else:
            zone = self.origin(o, fr) if not isinstance(o, A.Unary) else None
            if zone is None:
                return slow()
            # a parameter's zone: certain while the legal moves are made (the state does
            # not change), not in an effect (the card may have moved)
            loc = self.cx.local(o, fr.env)
            if fr.tables is None and not (loc is not None and loc.certain):
                here = f"{obj} in s[{zone}]"
        pub = self.zone_public(zone, fr)
        if faces is None:
            fast = f"PUB[{zone}]" if pub is None else repr(pub)
        elif pub is None:
            fast = f"(PUB[{zone}] != ({obj} in {self.turned(faces, fr)}))"
        else:
            fast = f"({obj} {'not in' if pub else 'in'} {self.turned(faces, fr)})"
        return f"({fast} if {here} else {slow()})" if here else fast

    def zone_public(self, zone: str, fr: Frame) -> bool | None:
        """Optimised code: a zone's face (`PUB[zone]`) where it is known when compiling,
        from the zone's code: a slot number, or a variable over the zones of one array
        (a move's `a in column`, an invariant part's value), which share their
        declaration and so their face (Klondike's `shift` tests each card's face: one
        membership, not a subscript and a comparison more). None where not known."""
        if not self.cx.optimize:
            return None
        decl: str | None = None
        if zone.isdigit():
            decl = next((z.decl for z in self.cx.layout.zone_slots if z.slot == int(zone)),
                        None)
        else:
            domain = next((loc.domain for loc in fr.env.values()
                           if loc.code == zone and loc.domain is not None), None)
            if domain is not None:
                decl = next((n for n in self.cx.g.zones if f"Z_{n}" == domain), None)
        return None if decl is None else self.cx.g.zones[decl].visibility == "public"

    def turned(self, faces: int, fr: Frame) -> str:
        """The cards turned (a membership test's operand): the slot's tuple."""
        return f"s[{faces}]"

    def position_of(self, e: A.PositionOf, fr: Frame) -> str:
        return f"{self.cx.helper('_posof')}(s[{self.expr(e.zone, fr)}], {self.expr(e.card, fr)})"

    def attr(self, e: A.Attr, fr: Frame) -> str:
        obj = self.expr(e.obj, fr)
        if e.name == "face_up" and self.cx.type_of(e.obj) in ("card", "any"):
            return self.face_up(e, obj, fr)
        table = _ATTR_TABLES.get(e.name, f"X_{e.name}")
        return self.card_attr(e, table, obj, fr)

    def card_attr(self, e: A.Attr, table: str, obj: str, fr: Frame) -> str:
        if self.cx.type_of(e.obj) == "card" and self.card_may_be_none(e.obj, fr):
            sid = self.sid(e.obj.span, fr)
            return f"{table}[{self.cx.helper('_nn')}({obj}, {sid})]"
        return f"{table}[{obj}]"

    def top_n(self, e: A.TopN, fr: Frame) -> str:
        z = self.expr(e.zone, fr)
        n = self.expr(e.count, fr)
        sid = self.sid(e.span, fr)
        return f"{self.cx.helper('_topn')}(s[{z}], {n}, {sid})"

    def subsets(self, e: A.Subsets, fr: Frame) -> str:
        return f"{self.cx.helper('_subsets')}({self.subsets_args(e, fr)})"

    def subsets_args(self, e: A.Subsets, fr: Frame) -> str:
        """The arguments of `_subsets` (and of `_msets` after its first two): the cards,
        the count, the values and the sum, the span."""
        z = self.expr(e.zone, fr)
        if self.cx.type_of(e.zone) == "zone":
            z = f"s[{z}]"
        k = self.expr(e.count, fr) if e.count is not None else "None"
        vals = tgt = "None"
        if e.values is not None and e.target is not None:
            vals = self.expr(e.values, fr)
            tgt = self.expr(e.target, fr)
        sid = self.sid(e.span, fr)
        return f"{z}, {k}, {vals}, {tgt}, {sid}"

    def param_source(self, e: A.Expr, fr: Frame) -> str:
        """What a move parameter ranges over. `c in top n of Z` ranges over the top n cards
        of Z, or over all of them when Z holds fewer: a short zone offers fewer moves (none
        when it is empty), never a rule error."""
        if isinstance(e, A.TopN):
            z = f"s[{self.expr(e.zone, fr)}]"
            return f"{z}[max(0, len({z}) - ({self.expr(e.count, fr)})):]"
        return self.expr(e, fr)

    def is_empty(self, e: A.IsEmpty, fr: Frame) -> str:
        ot = self.cx.type_of(e.operand)
        code = (f"s[{self.expr(e.operand, fr)}]" if ot == "zone" else self.expr(e.operand, fr))
        if ot == "list:zone":
            code = f"{self.cx.helper('_cat')}(s, {code})"
        if e.negated:  # optimised: a truth test, as `is empty` is (no call of len)
            return f"(not not {code})" if self.cx.optimize else f"(len({code}) > 0)"
        return f"(not {code})"

    def if_expr(self, e: A.IfExpr, fr: Frame) -> str:
        c = self.expr(e.cond, fr)
        saved = self.chain_start(fr)
        self.chain_fact(e.cond, "and", fr)  # the then arm runs when the condition holds
        a = self.as_tuple(e.then, fr)
        self.chain_end(fr, saved)
        saved = self.chain_start(fr)
        self.chain_fact(e.cond, "or", fr)  # the else arm when it does not
        b = self.as_tuple(e.else_, fr)
        self.chain_end(fr, saved)
        return f"({a} if {c} else {b})"

    def let(self, e: A.Let, fr: Frame) -> str:
        v = self.expr(e.value, fr)
        var = self.cx.names.tmp("l")
        if self.cx.optimize and self.cx.type_of(e.value) == "int":
            self._let_ranges[var] = self.range_of(e.value, fr)  # for `fits` in its body
        inner = fr.scope()
        inner.env[e.name] = Local(var, self.origin(e.value, fr), certain=self.certain(e.value, fr))
        body = self.expr(e.body, inner)
        return self.bind(var, v, body)

    def bind(self, var: str, value: str, body: str) -> str:
        """`body` with `var` bound to `value` first, as one expression."""
        self.cx.names.walrus += 1
        return f"({body} if (({var} := {value}) or True) else None)"

    # ------------------------------------------------------------ calls
    def call(self, e: A.Call, fr: Frame) -> str:
        cx = self.cx
        d = cx.callee(e)
        if d is not None:
            return self.def_call(d, e.args, fr, e)
        f = e.func
        ts = [cx.type_of(a) for a in e.args]
        args = [self.as_tuple(a, fr) for a in e.args]
        sid = self.sid(e.span, fr)
        if f in ("size", "count"):
            if ts[0] == "zone":
                return f"len(s[{args[0]}])"
            if ts[0] == "list:zone" and f == "size":  # count(L): the list's elements
                return self.zones_size(e.args[0], args[0], fr)
            return f"len({args[0]})"
        if f == "cards":
            return f"s[{args[0]}]"
        if f in ("min", "max") and cx.type_of(e) == "card":  # by the deck's order
            if len(args) == 1:
                src = f"s[{args[0]}]" if ts[0] == "zone" else args[0]
                seq = f"({src} or {cx.helper('_E')}({sid}, {self.sid(e.args[0].span, fr)}))"
            else:
                seq = "(" + "".join(self.ordered(x, a, fr) + ", " for x, a in
                                    zip(e.args, args, strict=True)) + ")"
            return f"{f}({seq}, key=X_order.__getitem__)"
        if f in ("min", "max"):
            if len(args) == 1:
                return (f"{cx.helper('_' + f)}({args[0]}, {sid}, "
                        f"{self.sid(e.args[0].span, fr)})")
            return f"{f}({', '.join(args)})"
        if f == "abs":
            return f"abs({args[0]})"
        if f == "sum":
            return f"sum({cx.helper('_n')}({args[0]}, {sid}))"
        if f in ("first", "last"):
            src = f"s[{args[0]}]" if ts[0] == "zone" else args[0]
            wid = self.sid(e.args[0].span, fr)
            return f"({src} or {cx.helper('_E')}({sid}, {wid}))[{0 if f == 'first' else -1}]"
        if f == "random":
            src = f"s[{args[0]}]" if ts[0] == "zone" else args[0]
            wid = self.sid(e.args[0].span, fr)
            return f"{cx.helper('_pick')}(s, {src}, {sid}, {wid})"
        if f in ("rest", "reverse", "sorted"):
            src = f"s[{args[0]}]" if ts[0] == "zone" else f"{cx.helper('_n')}({args[0]}, {sid})"
            return {"rest": f"{src}[1:]", "reverse": f"{src}[::-1]",
                    "sorted": f"tuple(sorted({src}))"}[f]
        if f == "covered":  # a place of the zone that covers it holds a card
            if cx.optimize and args[0].isdigit():  # a known place: its covers' slots
                cover = cx.layout.covers[int(args[0])]
                return ("(not not (" + " or ".join(f"s[{c}]" for c in cover) + "))"
                        if cover else "False")
            return f"any(map(s.__getitem__, COVER[{args[0]}]))"
        if f == "distance":
            n = cx.const_int(e.args[2]) if cx.optimize else None
            if n is not None and n > 0 and all(_cheap(a) for a in e.args[:2]):
                # a positive constant cycle: no error possible, so no call (of _dist, nor
                # of min: the gap computed once, the shorter way round chosen by a test)
                gap = cx.names.tmp("g")
                cx.names.walrus += 1
                return (f"({gap} if ({gap} := abs({args[0]} - {args[1]}) % {n}) <= {n} - {gap}"
                        f" else {n} - {gap})")
            return f"{cx.helper('_dist')}({args[0]}, {args[1]}, {args[2]})"
        raise Diagnostic(f"internal: unknown function {f}", e.span)  # pragma: no cover

    def def_call(self, d: A.DefDecl, arg_exprs: tuple[A.Expr, ...], fr: Frame,
                 call: A.Call | None = None) -> str:
        """Plain code calls the def's function (the optimiser inlines it instead)."""
        args = [self.as_tuple(a, fr) for a in arg_exprs]
        return self.call_function(d, args)

    def call_function(self, d: A.DefDecl, args: list[str]) -> str:
        self.cx.def_funcs.add(d.name)
        self.cx.names.draws += 1  # the function draws a step for each call
        return f"d_{d.name}(s{''.join(', ' + a for a in args)})"

    def count_written_out(self, e: A.Quant, plain: bool, inner: Frame) -> str | None:
        """Optimised code: `count f in cell where W` over a zone array of at most
        COUNT_ZONES zones, W a test of the zone alone (no body, nothing drawn or charged
        to the budget): the sum of one `(1 if W else 0)` per zone, W lowered for its slot
        (FreeCell's `free_cells`: `(1 if (not s[7]) else 0) + ...`), not a generator
        summed. The same values in the same order, with W evaluated for each zone as the
        generator evaluates it."""
        if (not self.cx.optimize or not plain or e.body is not None or e.where is None
                or not isinstance(e.source, A.Name)):
            return None
        ref = self.cx.ref(e.source)
        if ref.kind != "zone_array" or ref.decl.grid is not None:
            return None
        for x in A.walk(e.where):  # a test of the zone: no loop, no def, no function
            if isinstance(x, (A.Quant, A.Call)) or (
                    isinstance(x, A.Name) and self.cx.ref(x).kind == "def"):
                return None
        n = self.cx.dim(ref)[1]
        if not 2 <= n <= COUNT_ZONES:
            return None
        base = self.cx.slot(ref)
        names = self.cx.names
        drew = (names.draws, names.impure, names.walrus, names.unsafe)
        terms = []
        for slot in range(base, base + n):
            one = inner.scope()
            one.env[e.var] = attrs.evolve(one.env[e.var], code=str(slot), lo=slot, hi=slot,
                                          positions=None)
            terms.append(f"(1 if {self.expr(e.where, one)} else 0)")
        if (names.draws, names.impure, names.walrus, names.unsafe) != drew:
            return None  # (a test that draws, changes or binds: the generator)
        return "(" + " + ".join(terms) + ")"

    def zones_written_out(self, e: A.Quant, plain: bool, inner: Frame) -> str | None:
        """Optimised code: `each z in Z where W: B`, `any z in Z: T`, `all z in Z: T` over
        a zone array (a grid's places too) of at most WRITE_ZONES zones, W, B and T
        reading the zone without a loop or a def (Pyramid's `free` places: `each place
        in pyramid where place is not empty and place is not covered: top of place`):
        one term per zone, the zone's slot a constant, so that `covered` reads the slots
        of its covers, known when compiling, not a table and a `map` per place. The same
        values in the same order, each test and value evaluated for each zone in the
        generator's order (`any`/`all` stop where the generator stops), so an error is
        raised where the generator raises it; None where the list is charged to the
        budget, a test draws, changes anything or binds a value, or reads a face."""
        cx = self.cx
        k = e.kind
        if not cx.optimize or not plain or k not in ("each", "any", "all", "sum"):
            return None
        if isinstance(e.source, A.Players):  # the players, 1..n: n known when compiling
            if not 2 <= cx.n <= PLAYERS_WRITTEN:
                return None
            values = list(range(1, cx.n + 1))
        elif isinstance(e.source, A.Name) and cx.ref(e.source).kind == "zone_array":
            ref = cx.ref(e.source)
            n = cx.dim(ref)[1]
            if not 2 <= n <= WRITE_ZONES:
                return None
            values = list(range(cx.slot(ref), cx.slot(ref) + n))
        else:
            return None
        where, body = e.where, e.body
        if k == "all" and body is None:
            where, body = None, where
        if k != "each" and (where is not None or body is None):
            return None
        if k == "sum" and cx.type_of(e) != "int":
            return None
        for x in A.walk((where, body)):  # the zone's own values: no loop, no def
            if isinstance(x, A.Quant) or (isinstance(x, A.Name) and cx.ref(x).kind == "def"):
                return None
            if isinstance(x, A.Attr) and x.name == "face_up":
                return None  # (a loop tests faces in a set of the turned cards made once)
            if isinstance(x, A.Call) and (cx.callee(x) is not None
                                          or x.func not in ("covered", "size")):
                return None
        names = cx.names
        drew = (names.draws, names.impure, names.walrus)
        terms = []
        for slot in values:
            one = inner.scope()
            one.env[e.var] = attrs.evolve(one.env[e.var], code=str(slot), lo=slot, hi=slot,
                                          positions=None)
            if k != "each":
                assert body is not None
                terms.append(f"({self.expr(body, one)})")
                continue
            test = self.expr(where, one) if where is not None else None
            saved = self.chain_start(one)
            for fact in A.conjuncts(where) if where is not None else ():
                self.chain_fact(fact, "and", one)
            value = self.as_tuple(body, one) if body is not None else str(slot)
            self.chain_end(one, saved)
            terms.append(f"*(({value},) if {test} else ())" if test is not None
                         else f"{value}")
        if (names.draws, names.impure, names.walrus) != drew:
            return None  # (a test that draws, changes or binds: the generator)
        if k == "each":
            return "(" + ", ".join(terms) + ",)"
        if k == "sum":
            return "(" + " + ".join(terms) + ")"
        return "(not not (" + f" {'and' if k == 'all' else 'or'} ".join(terms) + "))"

    def zones_size(self, e: A.Expr, code: str, fr: Frame) -> str:
        if isinstance(e, A.Name):
            ref = self.cx.ref(e)
            if ref.kind == "zone_array":
                slot = self.cx.slot(ref)
                return ("(" + " + ".join(f"len(s[{slot + i}])"
                                         for i in range(self.cx.dim(ref)[1])) + ")")
        return f"sum(len(s[_z]) for _z in {code})"

    # ------------------------------------------------------------ operators
    def unary(self, e: A.Unary, fr: Frame) -> str:
        op = e.op
        cx = self.cx
        ot = cx.type_of(e.operand)
        if op == "-":
            return f"(-{self.expr(e.operand, fr)})"
        if op == "not":
            return f"(not {self.expr(e.operand, fr)})"
        if op in ("top", "bottom"):
            x = self.expr(e.operand, fr)
            src = x if ot.startswith("list:") else f"s[{x}]"
            return self.top_card(e, src, fr)
        if op == "all":
            x = self.expr(e.operand, fr)
            return f"{cx.helper('_cat')}(s, {x})" if ot == "list:zone" else f"s[{x}]"
        p = self.expr(e.operand, fr)
        checked = False
        if isinstance(e.operand, A.Name) and e.operand.name not in self.player_vars():
            if cx.ref(e.operand).kind == "var":
                # a player variable may be none: say where, not a Python TypeError
                p = self.in_range("_player", p, cx.n,
                                  f"{p}, {self.sid(e.operand.span, fr)}")
                checked = cx.optimize  # (checked once is enough)
        if op == "left":
            return f"({p} % {cx.n} + 1)"
        if op == "right":
            return f"(({p} - 2) % {cx.n} + 1)"
        if op == "players_from":
            if checked or self.certain_player(e.operand, fr):  # (`left of p`: a player)
                return f"ORDER[{p}]"
            sid = self.sid(e.operand.span, fr)
            return f"ORDER[{self.in_range('_player', p, cx.n, f'{p}, {sid}')}]"
        raise Diagnostic(f"internal: unknown operator {op}", e.span)  # pragma: no cover

    def top_card(self, e: A.Unary, src: str, fr: Frame) -> str:
        """The top (or bottom) card of a sequence, or a rule error if it is empty."""
        sid, wid = self.sid(e.span, fr), self.sid(e.operand.span, fr)
        return f"({src} or {self.cx.helper('_E')}({sid}, {wid}))[{-1 if e.op == 'top' else 0}]"

    def binary(self, e: A.Binary, fr: Frame) -> str:
        op = e.op
        cx = self.cx
        if op == "..":
            a = self.expr(e.left, fr)
            b = self.expr(e.right, fr)
            lo, hi = self.int_value(e.left, fr), self.int_value(e.right, fr)
            if lo is not None and hi is not None and hi - lo < MAX_RANGE:
                return f"range({lo}, {hi + 1})"
            span = self.span_of(e, fr)
            if span is not None and span < MAX_RANGE:  # it cannot be too long: no check
                return f"range({a}, ({b}) + 1)"
            sid = self.sid(e.span, fr)
            return f"{cx.helper('_rng')}({a}, {b}, {sid})"
        if op in ("and", "or") or (op in ("+", "-", "*") and cx.type_of(e) == "int"):
            return self.chain(e, fr)
        if op in ("in", "notin"):
            a = self.expr(e.left, fr)
            b = self.expr(e.right, fr)
            rt = cx.type_of(e.right)
            if rt == "zone":
                b = f"s[{b}]"
            elif rt.startswith("list:") and not (isinstance(e.right, A.Binary)
                                                 and e.right.op == "..") and not self.short(
                                                     e.right, fr):
                b = f"{cx.helper('_n')}({b}, {self.sid(e.span, fr)})"  # a search: its length
            return f"({a} {'in' if op == 'in' else 'not in'} {b})"
        if op == "+" and cx.type_of(e).startswith("list:"):
            return (f"{cx.helper('_grow')}({self.as_tuple(e.left, fr)} + "
                    f"{self.as_tuple(e.right, fr)}, {self.sid(e.span, fr)})")
        a = self.expr(e.left, fr)
        b = self.expr(e.right, fr)
        if op in ("<", "<=", ">", ">=") and "card" in (cx.type_of(e.left), cx.type_of(e.right)):
            # cards compare by the deck's rank order (`deck order ...`: c.order)
            a, b = self.ordered(e.left, a, fr), self.ordered(e.right, b, fr)
            return f"(X_order[{a}] {op} X_order[{b}])"
        if op in ("/", "%"):
            divisor = self.int_value(e.right, fr)
            if divisor is not None and divisor != 0:
                return f"({a} {'//' if op == '/' else '%'} {b})"
            sid = self.sid(e.span, fr)
            return f"{cx.helper('_div' if op == '/' else '_mod')}({a}, {b}, {sid})"
        return f"({a} {op} {b})"

    def ordered(self, e: A.Expr, code: str, fr: Frame) -> str:
        """A card compared by its order: a rule error where it may be none."""
        if self.card_may_be_none(e, fr):
            return f"{self.cx.helper('_nn')}({code}, {self.sid(e.span, fr)})"
        return code

    def chain(self, e: A.Binary, fr: Frame) -> str:
        """A left-deep chain `a + b - c` (or of `and`, `or`, `*`) as one flat Python
        expression, walked without recursion: long sums stay within Python's limits."""
        cx = self.cx
        group = {"+": ("+", "-"), "-": ("+", "-"), "*": ("*",), "and": ("and",),
                 "or": ("or",)}[e.op]
        rights: list[tuple[str, A.Expr]] = []
        node: A.Expr = e
        while isinstance(node, A.Binary) and node.op in group and (
                node.op in ("and", "or") or self.cx.type_of(node) == "int"):
            rights.append((node.op, node.right))
            node = node.left
        parts = [self.expr(node, fr)]
        saved = self.chain_start(fr)
        for op, right in reversed(rights):
            self.chain_fact(node, op, fr)  # what the operands after `node` may rely on
            parts.append(op)
            parts.append(self.expr(right, fr))
            node = right
        self.chain_end(fr, saved)
        code = "(" + " ".join(parts) + ")"
        if e.op == "*" and not self.fits(e, fr):
            # a product may square its operands' size: a chain of defs that multiply would
            # grow a number to gigabytes. A sum grows by a bit a term: it is checked where
            # it is kept (stmts.py) or leaves a rule (a score).
            code = f"{cx.helper('_big')}({code}, {self.sid(e.span, fr)})"
        return code

    def certain_player(self, e: A.Expr, fr: Frame, seen: frozenset[str] = frozenset()) -> bool:
        """Optimised code: is e's value certainly a player, 1..n, never none (or else its
        evaluation fails)? `left of p`, `(players from p)[i]` (checked), `me`, a number
        1..n, a local known to hold one, defs, lets and `if`s of such. (A `first p in ...`
        may be none: no.)"""
        cx = self.cx
        if not cx.optimize:
            return False
        if isinstance(e, A.Me):
            return True
        if isinstance(e, A.Unary) and e.op in ("left", "right"):
            return True
        if isinstance(e, A.Index):
            return isinstance(e.obj, A.Players) or (
                isinstance(e.obj, A.Unary) and e.obj.op == "players_from")
        if isinstance(e, A.IfExpr):
            return self.certain_player(e.then, fr, seen) and self.certain_player(e.else_, fr,
                                                                                 seen)
        if isinstance(e, A.Let):
            return self.certain_player(e.body, fr.scope(), seen)
        v = cx.const_int(e)
        if v is not None:
            return 1 <= v <= cx.n
        if isinstance(e, A.Quant) and e.kind == "random" and e.body is None:
            # a random player (or a random pick from nothing: an error)
            return isinstance(e.source, A.Players) or (
                isinstance(e.source, A.Unary) and e.source.op == "players_from")
        loc = cx.local(e, fr.env)
        if loc is not None:
            return loc.lo is not None and loc.hi is not None and 1 <= loc.lo and loc.hi <= cx.n
        if isinstance(e, (A.Name, A.Call)) and not (isinstance(e, A.Call) and e.args):
            ref = cx.ref(e)
            if ref.kind == "var":
                return ref.name in self.player_vars()
            if ref.kind == "constant" and ref.type == "player":  # p1, p2...
                return isinstance(ref.value, int) and 1 <= ref.value <= cx.n
            if ref.kind == "def" and ref.name not in seen:
                return self.certain_player(ref.decl.body, Frame({}, fr.rule), seen | {ref.name})
        return False

    def player_vars(self) -> frozenset[str]:
        """Optimised code: the player variables (not arrays) that always hold a player,
        1..n: the initial value is one, and so is every value a rule or an example's `set`
        gives it (`current = left of current`, `random p in players`, another such
        variable), so reading one needs no `_player` check. The greatest set for which
        that holds: start from every player variable and drop one whose assignment may give
        something else (a local, a `first`, none...) until none drops."""
        if self._player_vars is not None:
            return self._player_vars
        cx = self.cx
        g = cx.g
        if not cx.optimize:
            self._player_vars = frozenset()
            return self._player_vars
        given: dict[str, list[A.Expr]] = {}
        for name, v in g.vars.items():
            if v.dim is None and v.type == "player" and not v.optional:
                given[name] = [v.init]
        for target, value in self.assignments():
            if not isinstance(target, A.Name) or target.name not in given:
                continue
            try:
                kind = cx.ref(target).kind
            except LookupError:  # an example for other settings: it never runs this code
                continue
            if kind == "var":
                if value is None:
                    del given[target.name]
                else:
                    given[target.name].append(value)
        self._player_vars = frozenset(given)
        changed = True
        while changed:
            changed = False
            for name in sorted(self._player_vars):
                try:
                    ok = all(self.certain_player(e, Frame({}, "")) for e in given[name])
                except LookupError:  # a local of the rule it stands in: not known here
                    ok = False
                if not ok:
                    self._player_vars = self._player_vars - {name}
                    changed = True
        return self._player_vars

    def assignments(self) -> Iterator[tuple[A.Expr | None, A.Expr | None]]:
        """(target, value) of every assignment of the rules (value None for `+=`, `-=`)
        and every `set` step of the examples: what a variable may be given."""
        g = self.cx.g
        for n in g.nodes():
            if isinstance(n, A.Assign):
                yield n.target, n.value if n.op == "=" else None
        for ex in g.examples:
            for st in ex.steps:
                if st.kind == "set":
                    yield st.target, st.expr

    def player_params(self, proc: A.ProcDecl) -> frozenset[str]:
        """Optimised code: the parameters of type player of a procedure that always hold a
        player, 1..n: every call passes a value that certainly is one (`refill(current)`,
        `take_trick(me)`), and the body does not assign them."""
        cx = self.cx
        if not cx.optimize:
            return frozenset()
        calls = [n for n in cx.g.nodes()
                 if isinstance(n, A.CallStmt) and n.func == proc.name]
        out = set()
        for i, prm in enumerate(proc.params):
            if prm.type != "player" or any(
                    isinstance(n, A.Assign) and isinstance(n.target, A.Name)
                    and n.target.name == prm.name for n in A.walk(proc.body)):
                continue
            try:
                if all(cx.ref(c).kind == "proc" and len(c.args) == len(proc.params)
                       and self.certain_player(c.args[i], Frame({}, "")) for c in calls):
                    out.add(prm.name)
            except LookupError:  # a local of the rule the call stands in: not known here
                pass
        return frozenset(out)

    def positions(self, source: A.Expr, fr: Frame) -> Any:
        """Hook for the optimiser: the zone whose positions `1..size(Z)` a quantifier's
        variable ranges over (None: none, or plain code)."""
        return None

    # Hooks for the optimiser (optimize.py): facts an operand of `and`/`or` establishes
    # for the operands after it. Plain code relies on none.
    def chain_start(self, fr: Frame) -> Any:
        return None

    def chain_fact(self, e: A.Expr, op: str, fr: Frame) -> None:
        return None

    def chain_end(self, fr: Frame, saved: Any) -> None:
        return None

    def fits(self, e: A.Expr, fr: Frame) -> bool:
        """Is this number proven to stay within 64 bits? (Plain code proves nothing.)"""
        return self.cx.optimize and fits(self.range_of(e, fr))

    def range_of(self, e: A.Expr, fr: Frame) -> tuple[int, int] | None:
        if self._bounds is None:
            self._bounds = Bounds(self.cx)
        b = self._bounds
        sc = b.scope(fr.env)
        for name, loc in fr.env.items():
            if sc.get(name) is None and loc.code in self._let_ranges:
                sc[name] = self._let_ranges[loc.code]
        return b.of(e, sc)

    # ------------------------------------------------------------ quantifiers
    def quant(self, e: A.Quant, fr: Frame) -> str:
        cx = self.cx
        st = cx.type_of(e.source)
        walrus = cx.names.walrus
        src = self.expr(e.source, fr)
        if st == "zone":
            src = f"s[{src}]"
        pending = None
        if cx.names.walrus != walrus:
            # an assignment expression may not stand in a comprehension's iterable
            pending = (cx.names.tmp("s"), src)
            src = pending[0]
        var = cx.names.tmp("q")
        inner = fr.scope()
        origin = self.expr(e.source, fr) if st == "zone" else None
        lo, hi = cx.loop_range(e.source)
        inner.env[e.var] = Local(var, origin, lo, hi, positions=self.positions(e.source, fr),
                                 certain=True)
        code = self._quant(e, var, src, inner, fr)
        if pending is not None:
            return self.bind(pending[0], pending[1], code)
        return code

    def _quant(self, e: A.Quant, var: str, src: str, inner: Frame, fr: Frame) -> str:
        names = self.cx.names
        if e.kind in ("each", "any", "all", "sum") and self.cx.optimize:
            written = self.zones_written_out(
                e, self.short(e.source, fr) and self.leaf((e.where, e.body)), inner)
            if written is not None:
                return written
        drew = (names.draws, names.impure)
        kept = where_left(e, self.cx.optimize)
        where: str | None = None
        if e.where is not None and kept == [e.where]:
            where = self.expr(e.where, inner)
        elif kept:  # (a conjunct the sets' sum guarantees left out: the others in order)
            where = " and ".join(f"({self.expr(t, inner)})" for t in kept)
        body = None
        if e.body is not None:
            # the body runs where the where holds (`each place in pyramid where place is
            # not empty: top of place` takes the top unchecked)
            saved = self.chain_start(inner)
            for test in kept:
                for fact in A.conjuncts(test):
                    self.chain_fact(fact, "and", inner)
            body = self.as_tuple(e.body, inner)
            self.chain_end(inner, saved)
        pure = (names.draws, names.impure) == drew  # no random draw, no change
        cond = f" if {where}" if where else ""
        k = e.kind
        sid = self.sid(e.span, fr)
        plain_src = src
        src = self.charge(src, e.source, (e.where, e.body), e.span, fr)
        if (k in ("any", "all") and self.cx.optimize and body is not None and where is None
                and pure and not re.search(rf"\b{var}\b", body)):
            # the test reads nothing of the value (`all c in Z: c.face_up` where the face
            # is Z's alone) and draws nothing: the same for every value, so tested once
            return (f"(not {plain_src} or bool({body}))" if k == "all"
                    else f"(bool({plain_src}) and bool({body}))")
        if k == "any" and not body and not where and self.cx.optimize and isinstance(
                e.source, A.Subsets):  # (the sets a tuple: some set is there)
            return f"bool({src})"
        if k == "any":
            member = self._any_attr_equal(e, plain_src, src, inner)
            if member is not None:
                return member
            return f"any({body or 'True'} for {var} in {src}{cond})"
        if k == "all":
            if body is None:
                return f"all({where} for {var} in {src})"
            return f"all({body} for {var} in {src}{cond})"
        if k == "count":
            unrolled = self.count_written_out(e, src == plain_src and pure, inner)
            if unrolled is not None:
                return unrolled
            if body is not None and where is not None:
                return f"sum(1 for {var} in {src} if {where} and {body})"
            c = body or where
            return f"sum(1 for {var} in {src} if {c})" if c else f"len({plain_src})"
        if k == "sum":
            return f"sum({body or var} for {var} in {src}{cond})"
        if k in ("min", "max"):
            wid = self.sid(e.source.span, fr)
            return (f"{self.cx.helper('_' + k)}([{body or var} for {var} in {src}{cond}], "
                    f"{sid}, {wid}, {e.where is not None})")
        if k == "first":
            return f"next(({var} for {var} in {src}{cond}), None)"
        if k == "each":
            return f"tuple([{body or var} for {var} in {src}{cond}])"
        wid = self.sid(e.source.span, fr) if k == "random" else -1
        if k == "random" and not cond and self.cx.optimize:  # (`_pick` makes it a tuple)
            return f"{self.cx.helper('_pick')}(s, {src}, {sid}, {wid})"
        if k == "random":
            return (f"{self.cx.helper('_pick')}(s, tuple([{var} for {var} in {src}{cond}]), "
                    f"{sid}, {wid}, {e.where is not None})")
        raise Diagnostic(f"internal: unknown quantifier {k}", e.span)  # pragma: no cover


    def _any_attr_equal(self, e: A.Quant, plain_src: str, src: str, inner: Frame) -> str | None:
        """`any x in Z: x.a == v` (Z a zone named plainly, v not reading x) as
        `not SETS.get(v, EMPTY).isdisjoint(Z)` (SETS: the cards of each value of A,
        `value_sets`; where there are no module tables, `v in map(A.__getitem__, Z)`):
        each card tested in C, not in a generator step (a hand's "can follow suit" in
        every trick game). v is evaluated only when Z has a
        card, as the generator evaluated it: an error it raises is raised alike."""
        b = e.body
        if (not self.cx.optimize or e.where is not None or not isinstance(b, A.Binary)
                or b.op != "=="
                or self.cx.type_of(e.source) != "zone" or not _plain_zone(e.source)):
            return None
        for a, other in ((b.left, b.right), (b.right, b.left)):
            if (isinstance(a, A.Attr) and isinstance(a.obj, A.Name) and a.obj.name == e.var
                    and self.cx.type_of(a.obj) == "card"
                    and not self.card_may_be_none(a.obj, inner)
                    and not A.reads_name(other, e.var)):
                table = _ATTR_TABLES.get(a.name, f"X_{a.name}")
                names = self.cx.names
                counts = names.unsafe, names.impure, names.draws
                value = self.as_tuple(other, inner)
                sets = self.value_sets(table)
                if sets is not None:  # the cards of each value: a test of Z's cards in C
                    empty = self.value_sets("")
                    if counts == (names.unsafe, names.impure, names.draws):
                        # v cannot fail, draw or change anything (the trick's first card
                        # where a test said the trick is not empty): evaluated even where
                        # Z is empty, whose cards are then disjoint from any set
                        return f"(not {sets}.get({value}, {empty}).isdisjoint({src}))"
                    return (f"((not {sets}.get({value}, {empty}).isdisjoint({src})) "
                            f"if {plain_src} else False)")
                return (f"(({value}) in map({table}.__getitem__, {src}) "
                        f"if {plain_src} else False)")
        return None

    def value_sets(self, table: str) -> str | None:
        """Optimised code: the name of a dict, filled when the module loads, from each value
        of a card attribute's table (`SUIT`) to the frozenset of the cards that have it, so
        that `v in map(SUIT.__getitem__, Z)` is `not SETS.get(v, EMPTY).isdisjoint(Z)` (the
        values are numbers, truth values or none: equal is equally hashed). `table` ""
        names the empty set. None: plain code, or no module tables."""
        lines: list[str] | None = getattr(self, "module_lines", None)
        tabled: dict[Any, str] | None = getattr(self, "_card_tables", None)
        if lines is None or tabled is None:
            return None
        key = ("value sets", table)
        if key not in tabled:
            name = tabled[key] = self.cx.names.tmp("V")
            n = len(self.cx.g.cards)
            lines.append(f"{name} = frozenset()" if not table else
                         f"{name} = {{_v: frozenset([_i for _i in range({n}) if {table}[_i] == _v])"
                         f" for _v in frozenset({table})}}")
        return tabled[key]


def _plain_zone(e: A.Expr) -> bool:
    """A zone named by a name, or a name indexed by a name, `me` or a number: reading it
    twice reads the same zone and changes nothing."""
    if isinstance(e, A.Index):
        return isinstance(e.obj, A.Name) and isinstance(e.index, (A.Name, A.Me, A.Int))
    return isinstance(e, A.Name)


def _cheap(e: A.Expr) -> bool:
    """A number, a name or a card's attribute of a name: cheap to evaluate twice."""
    if isinstance(e, A.Attr):
        e = e.obj
    return isinstance(e, (A.Int, A.Name, A.Me))


def summed_conjunct(source: A.Expr, var: str, where: A.Expr | None) -> A.Expr | None:
    """The conjunct of `where` that `source`, `subsets of Z` with its sum filled in by the
    builder (`lang.builder.pruned`: `(sum x in S: E) == T`), already guarantees: every set
    `_subsets` gives sums to T. Testing it again changes nothing: E was evaluated for every
    card of Z and T once when the sets were listed (an error would have stopped them
    there), and a set of Z's cards sums to T. None when there is no such conjunct."""
    if (not isinstance(source, A.Subsets) or where is None or source.values is None
            or source.target is None or not isinstance(source.values, A.Quant)):
        return None
    values = source.values
    for c, q, t in A.sum_tests(where, var):
        if (q.var == values.var and t == source.target
                and (q.body == values.body if q.body is not None
                     else values.body == A.Name(q.var))):
            return c
    return None


def where_left(e: A.Quant, optimize: bool) -> list[A.Expr]:
    """The conjuncts of a quantifier's `where` left to test, in order: optimised, without
    the one its `subsets of Z` source guarantees (`summed_conjunct`)."""
    if e.where is None:
        return []
    known = None
    if optimize and not (e.kind == "all" and e.body is None):  # (there the test itself)
        known = summed_conjunct(e.source, e.var, e.where)
    if known is None:
        return [e.where]
    return [c for c in A.conjuncts(e.where) if c is not known]
