"""The declarations pass: the game's declarations by kind, the player count, the option
values, the named constants, the zones and the variables (with their index domains)."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py): start-up time
    from . import nodes as attrs

from ..cards import COLORS, SUITS
from ..errors import Diagnostic, Span, did_you_mean
from ..options import parse_int
from . import ast as A
from .check_expr import ExprChecker, literal_player
from .consts import Constants, const_int
from .program import VarInfo, ZoneInfo
from .symbols import Ctx, Reporter, Scope, Symbols
from .types import compatible, shown
from .words import KEYWORDS

ZONE_PROPS = {
    "face down": "hidden", "face up": "public", "owner": "owner", "owner only": "owner",
    "hidden": "hidden", "public": "public",
    "fanned": "fanned", "squared": "squared", "row": "row",
}


@attrs.define
class Decls:
    """A game's declarations, by kind (the last of a kind that may occur once)."""

    name: str = ""
    about: str = ""
    players: A.PlayersDecl = attrs.field(factory=lambda: A.PlayersDecl(1, 1, 1))
    deck: A.DeckDecl | None = None
    options: dict[str, A.OptionDecl] = attrs.field(factory=dict)
    zones: list[A.ZoneDecl] = attrs.field(factory=list)
    vars: list[A.VarDecl] = attrs.field(factory=list)
    defs: dict[str, A.DefDecl] = attrs.field(factory=dict)
    procs: dict[str, A.ProcDecl] = attrs.field(factory=dict)
    moves: dict[str, A.MoveDecl] = attrs.field(factory=dict)
    setup: tuple[A.Stmt, ...] = ()
    flow: tuple[A.Stmt, ...] | None = None
    ends: list[A.EndDecl] = attrs.field(factory=list)
    score: A.Expr | None = None
    result: A.ResultDecl | None = None
    invariants: list[A.InvariantDecl] = attrs.field(factory=list)
    limit: A.LimitDecl | None = None
    table: A.TableDecl | None = None
    autos: dict[str, A.AutoDecl] = attrs.field(factory=dict)
    order: A.OrderDecl | None = None
    suits: A.SuitsDecl | None = None
    examples: list[A.ExampleDecl] = attrs.field(factory=list)
    expects: list[A.ExpectDecl] = attrs.field(factory=list)  # sometimes and never
    equivalents: list[A.EquivalentDecl] = attrs.field(factory=list)
    roles: dict[str, A.RoleDecl] = attrs.field(factory=dict)  # `role dealer`: not seats


def collect(decls: tuple[A.Decl, ...]) -> Decls:
    out = Decls()
    for d in decls:
        if isinstance(d, A.GameDecl):
            out.name = d.name
        elif isinstance(d, A.About):
            out.about = d.text
        elif isinstance(d, A.PlayersDecl):
            out.players = d
        elif isinstance(d, A.DeckDecl):
            out.deck = d
        elif isinstance(d, A.OptionDecl):
            out.options[d.name] = d
        elif isinstance(d, A.ZoneDecl):
            out.zones.append(d)
        elif isinstance(d, A.TableDecl):
            out.table = d
        elif isinstance(d, A.VarDecl):
            out.vars.append(d)
        elif isinstance(d, A.DefDecl):
            out.defs[d.name] = d
        elif isinstance(d, A.ProcDecl):
            out.procs[d.name] = d
        elif isinstance(d, A.MoveDecl):
            out.moves[d.name] = d
        elif isinstance(d, A.SetupDecl):
            out.setup = d.body
        elif isinstance(d, A.FlowDecl):
            out.flow = d.body
        elif isinstance(d, A.EndDecl):
            out.ends.append(d)
        elif isinstance(d, A.ScoreDecl):
            out.score = d.expr
        elif isinstance(d, A.ResultDecl):
            out.result = d
        elif isinstance(d, A.InvariantDecl):
            out.invariants.append(d)
        elif isinstance(d, A.LimitDecl):
            out.limit = d
        elif isinstance(d, A.AutoDecl):
            out.autos[d.name] = d
        elif isinstance(d, A.OrderDecl):
            out.order = d
        elif isinstance(d, A.SuitsDecl):
            out.suits = d
        elif isinstance(d, A.ExampleDecl):
            out.examples.append(d)
        elif isinstance(d, A.ExpectDecl):
            out.expects.append(d)
        elif isinstance(d, A.EquivalentDecl):
            out.equivalents.append(d)
        elif isinstance(d, A.RoleDecl):
            out.roles[d.name] = d
    return out


def player_count(pdecl: A.PlayersDecl, players: int | None, report: Reporter) -> int:
    n = pdecl.default if players is None else players
    if not pdecl.low <= n <= pdecl.high:
        if pdecl.low == pdecl.high:
            rng = f"{pdecl.low} player{'s' if pdecl.low > 1 else ''} only"
            hint = "leave out --players" if pdecl.low == 1 else f"use --players {pdecl.low}"
        else:
            rng = f"{pdecl.low} to {pdecl.high} players"
            hint = f"use --players with a value from {pdecl.low} to {pdecl.high}"
        raise report.fatal(f"this game is for {rng}, not {n}", pdecl.span, hint)
    return n


def option_values(opts: dict[str, A.OptionDecl], settings: dict[str, str],
                  report: Reporter) -> dict[str, Any]:
    """Each option's value: its default, or the setting given (`--set name=value`)."""
    options: dict[str, Any] = {oname: od.default for oname, od in opts.items()}
    for key, raw in settings.items():
        if key == "players":
            raise Diagnostic("--set players: the number of players is not an option",
                             hint=f"use --players {raw}")
        if key not in opts:
            raise Diagnostic(f"unknown option '{key}'", hint=did_you_mean(key, opts) or (
                "options: " + ", ".join(opts) if opts else "this game has no options"))
        try:
            options[key] = parse_option_value(opts[key], raw)
        except Diagnostic as d:
            od = opts[key]
            if od.kind == "int":
                hint = f"use --set {key}=N with N from {od.low} to {od.high}"
            elif od.kind == "bool":
                hint = f"use --set {key}=true or --set {key}=false"
            else:
                hint = "use one of: " + ", ".join(f"--set {key}={c}" for c in od.choices)
            raise report.fatal(f"--set {key}={raw}: {d.message}", od.span,
                               d.hint or hint) from None
    return options


def parse_option_value(od: A.OptionDecl, raw: str) -> Any:
    if od.kind == "bool":
        low = raw.lower()
        if low in ("true", "yes", "on", "1"):
            return True
        if low in ("false", "no", "off", "0"):
            return False
        raise Diagnostic(f"option '{od.name}' is true or false, not '{raw}'")
    if od.kind == "int":
        v = parse_int(raw)
        if v is None:
            raise Diagnostic(f"option '{od.name}' takes a number, "
                             f"not '{raw}'")
        if not od.low <= v <= od.high:
            raise Diagnostic(f"option '{od.name}' is {od.low}..{od.high}, not {v}")
        return v
    for ch in od.choices:
        if str(ch) == raw:
            return ch
    raise Diagnostic(f"option '{od.name}' is one of {', '.join(str(c) for c in od.choices)}, "
                     f"not '{raw}'", hint=did_you_mean(raw, [str(c) for c in od.choices]))


def base_constants(n: int, opts: dict[str, A.OptionDecl],
                   options: dict[str, Any],
                   suits: tuple[str, ...] = SUITS) -> dict[str, tuple[str, Any]]:
    """Suits, colours, the player count, the options and the symbols they choose from."""
    constants: dict[str, tuple[str, Any]] = {}
    for i, s in enumerate(suits):
        constants[s] = ("suit", i + 1)
    for i, c in enumerate(COLORS):
        constants[c] = ("color", i + 1)
    constants["player_count"] = ("int", n)
    for oname, od in opts.items():
        v = options[oname]
        t = "bool" if od.kind == "bool" else ("sym" if isinstance(v, str) else "int")
        constants[oname] = (t, v)
        if od.kind == "choice":
            for ch in od.choices:
                if isinstance(ch, str):
                    constants.setdefault(ch, ("sym", ch))
    return constants


def add_rank_names(constants: dict[str, tuple[str, Any]], names: tuple[str, ...]) -> None:
    """Named ranks (A, J, Q, K, or a custom deck's) stand for their numbers."""
    for i, rn in enumerate(names):
        if not rn.isdigit():
            constants.setdefault(rn, ("int", i + 1))


def check_declared_names(decls: tuple[A.Decl, ...], report: Reporter) -> None:
    for decl in decls:
        nm = getattr(decl, "name", "")
        if isinstance(decl, (A.ZoneDecl, A.VarDecl, A.DefDecl, A.ProcDecl, A.MoveDecl,
                             A.OptionDecl, A.RoleDecl)) and nm in KEYWORDS:
            what = type(decl).__name__[:-4].lower()
            report.err(f"'{nm}' is a word of the language and cannot name "
                       f"{'an' if what[0] in 'aeiou' else 'a'} {what}",
                       decl.span, f"call it '{nm}_' or 'my_{nm}'")
        elif isinstance(decl, (A.ZoneDecl, A.VarDecl, A.DefDecl)) and nm in (
                "suits", "colors", "player_count"):
            report.err(f"'{nm}' is a built-in name", decl.span, f"call it 'my_{nm}'")


def dim(e: A.Expr, n: int, consts: Constants, report: Reporter,
        suits: int = 4, roles: Collection[str] = ()) -> tuple[str, int]:
    """The index domain of an array: ("player", n), ("suit", 4) or ("int", size)."""
    if isinstance(e, A.Name) and e.name in roles:
        report.err(f"'{e.name}' is a role, not a size: an array has one zone per seat, "
                   "suit or number", e.span,
                   f"give {e.name} a zone of its own: zone {e.name}_hand")
        return ("int", 1)
    if isinstance(e, A.Name) and e.name == "player":
        return ("player", n)
    if isinstance(e, A.Name) and e.name == "suit":
        return ("suit", suits)
    v = const_int(e, consts)
    if v is None:
        report.err("the size of an array must be a number, an option, 'player' or 'suit'",
                   e.span)
        return ("int", 1)
    if not 1 <= v <= 1000:
        report.err(f"array size {v} is out of range 1..1000", e.span)
        return ("int", 1)
    return ("int", v)


MAX_ZONES = 10_000  # zones in all, counting each of an array (a slot of every state)
MAX_ARRAY = 1000  # zones of one array (a grid's places counted)
MAX_VAR_ELEMENTS = 100_000  # variables in all, counting each element of an array


def declare_zones(decls: list[A.ZoneDecl], zones: dict[str, ZoneInfo], n: int,
                  consts: Constants, report: Reporter, suits: int = 4,
                  roles: Collection[str] = ()) -> None:
    total = 1  # the deck
    for z in decls:
        if z.name in zones or z.name in consts.values:
            report.err(f"'{z.name}' is already defined", z.span)
            continue
        grid = None
        if z.index2 is not None:
            grid = grid_shape(z, consts, report) or (1,)  # (after an error: one place)
            zdim = ("int", sum(grid))
        elif z.index is not None and index_name(z.index)[0] is not None:
            zdim = ("int", _named_size(z.index, consts, report) or 1)  # `pile[i in 1..4]`
        elif z.index is not None:
            zdim = dim(z.index, n, consts, report, suits, roles)
        else:
            zdim = None
        total += zdim[1] if zdim else 1
        if total > MAX_ZONES:
            report.err(f"a game has at most {MAX_ZONES:,} zones (each zone of an array "
                       "counted)", z.span)
            return
        vis, layout = "public", "squared"
        for i, p in enumerate(z.props):
            kind = ZONE_PROPS.get(p)
            if kind is None:
                report.err(f"unknown zone property '{p}'", _bad_word(z, i),
                           did_you_mean(p, ZONE_PROPS) or "known: " + ", ".join(ZONE_PROPS))
            elif kind in ("hidden", "public", "owner"):
                vis = kind
            else:
                layout = kind
        if vis == "owner" and (zdim is None or zdim[0] != "player"):
            report.err(f"zone '{z.name}' is seen by its owner only, so it must be one per player",
                       z.span, f"declare it as 'zone {z.name}[player]'")
        zones[z.name] = ZoneInfo(z.name, z.label or z.name, zdim, vis, layout, z.span, grid)
    for z in decls:
        if z.covered_by and z.name in zones and zones[z.name].span == z.span:
            zones[z.name].covers = cover_relation(z, zones[z.name], zones, consts, report)


def index_name(e: A.Expr) -> tuple[str | None, A.Expr]:
    """`row in 1..7` of a zone array's index: ("row", the size 7); `7`: (None, 7).
    A named index counts from 1 (checked by `_named_size`)."""
    if (isinstance(e, A.Binary) and e.op == "in" and isinstance(e.left, A.Name)
            and isinstance(e.right, A.Binary) and e.right.op == ".."):
        return e.left.name, e.right.right
    return None, e


def _named_size(e: A.Expr, consts: Constants, report: Reporter) -> int | None:
    """The size of one index of a grid or a named index: `7`, or `row in 1..7`, whose
    bound may read the names of the indices before it (`col in 1..row`), given as
    constants."""
    if isinstance(e, A.Binary) and e.op == "in" and isinstance(e.right, A.Binary) \
            and e.right.op == "..":
        if not isinstance(e.left, A.Name):
            report.err("a named index is a name and its range: 'row in 1..7'", e.span)
            return None
        if const_int(e.right.left, consts) != 1:
            report.err("the indices of a zone array count from 1", e.right.left.span,
                       f"write '{e.left.name} in 1..N'")
            return None
        e = e.right.right
    v = const_int(e, consts)
    if v is None:
        report.err("the size of a grid's index must be a number, an option, or computed "
                   "from the names of the indices before it", e.span,
                   "'zone pyramid[row in 1..7][col in 1..row]', 'zone board[3][3]'")
        return None
    if not 1 <= v <= 1000:
        report.err(f"array size {v} is out of range 1..1000", e.span)
        return None
    return v


def grid_shape(z: A.ZoneDecl, consts: Constants, report: Reporter) -> tuple[int, ...] | None:
    """The number of places of each row of a grid (`zone board[3][3]`: (3, 3, 3);
    `zone pyramid[row in 1..7][col in 1..row]`: (1, 2, ..., 7))."""
    assert z.index is not None and z.index2 is not None
    rows = _named_size(z.index, consts, report)
    if rows is None:
        return None
    rname, _ = index_name(z.index)
    shape = []
    for r in range(1, rows + 1):
        bound = consts if rname is None else Constants(
            {**consts.values, rname: ("int", r)}, consts.defs)
        cols = _named_size(z.index2, bound, report)
        if cols is None:
            return None
        shape.append(cols)
    if sum(shape) > MAX_ARRAY:
        report.err(f"a grid has at most {MAX_ARRAY:,} places, as any zone array; this one "
                   f"has {sum(shape):,}", z.span)
        return None
    return tuple(shape)


def cover_relation(z: A.ZoneDecl, info: ZoneInfo, zones: dict[str, ZoneInfo],
                   consts: Constants, report: Reporter) -> tuple[tuple[tuple[str, int], ...], ...]:
    """For each place of zone z, the places its `covered by` names there, computed with
    the indices' names bound to the place's indices. A place outside its array or grid
    (`pyramid[8][1]` below the last row) covers nothing."""
    names = [index_name(e)[0] for e in (z.index, z.index2) if e is not None]
    if info.dim is None:
        places: list[tuple[int, ...]] = [()]
    elif info.grid is not None:
        places = [info.row_col(i) for i in range(1, info.dim[1] + 1)]
    else:
        places = [(i,) for i in range(1, info.dim[1] + 1)]
    out = []
    for idx in places:
        bound = Constants({**consts.values, **{nm: ("int", v) for nm, v in zip(names, idx, strict=True)
                                               if nm is not None}}, consts.defs)
        cov: list[tuple[str, int]] = []
        for e in z.covered_by:
            at = _cover_place(e, bound, zones, report)
            if at is False:
                return ()
            if isinstance(at, tuple) and at not in cov:
                cov.append(at)
        out.append(tuple(cov))
    return tuple(out)


def _cover_place(e: A.Expr, consts: Constants, zones: dict[str, ZoneInfo],
                 report: Reporter) -> tuple[str, int] | None | bool:
    """The place `e` names (zone, 1-based place or 0); None outside its zone; False after
    an error."""
    ixs: list[A.Expr] = []
    base = e
    while isinstance(base, A.Index):
        ixs.insert(0, base.index)
        base = base.obj
    hint = ("'covered by' names places of zones, computed from the indices' names: "
            "'covered by pyramid[row + 1][col], pyramid[row + 1][col + 1]'")
    if not isinstance(base, A.Name) or base.name not in zones:
        known = [n for n in zones if n != "deck"]
        what = f"'{base.name}' is not a zone" if isinstance(base, A.Name) else "not a zone"
        report.err(f"covered by: {what}", e.span,
                   (did_you_mean(base.name, known) if isinstance(base, A.Name) else "") or hint)
        return False
    zi = zones[base.name]
    want = 0 if zi.dim is None else (2 if zi.grid is not None else 1)
    if len(ixs) != want:
        report.err(f"covered by: zone '{zi.name}' takes {want} "
                   f"ind{'ex' if want == 1 else 'ices'}, given {len(ixs)}", e.span, hint)
        return False
    vals = [const_int(i, consts) for i in ixs]
    for i, v in zip(ixs, vals, strict=True):
        if v is None:
            report.err("covered by: this index is not known when the game is compiled",
                       i.span, hint)
            return False
    if zi.dim is None:
        return (zi.name, 0)
    if zi.grid is not None:
        at = zi.place(vals[0] or 0, vals[1] or 0)
        return None if at is None else (zi.name, at)
    if zi.dim[0] != "int":
        report.err(f"covered by: zone '{zi.name}' is indexed by {zi.dim[0]}", e.span, hint)
        return False
    v0 = vals[0] or 0
    return (zi.name, v0) if 1 <= v0 <= zi.dim[1] else None


def _bad_word(z: A.ZoneDecl, i: int) -> Span:
    """The first word of property i that no known property has there (`dwon` of
    `face dwon`); the zone's name when the words' places are unknown."""
    if i >= len(z.prop_words):
        return z.span
    spans = z.prop_words[i]
    words = z.props[i].split()
    for k, w in enumerate(words[:len(spans)]):
        if not any(known.split()[k:k + 1] == [w] and known.split()[:k] == words[:k]
                   for known in ZONE_PROPS):
            return spans[k]
    return Span(spans[0].file, spans[0].line, spans[0].column, spans[-1].end_line,
                spans[-1].end_column)


def declare_vars(decls: list[A.VarDecl], syms: Symbols, exprs: ExprChecker) -> None:
    """Each variable in turn; its start value is typed with the ones declared before."""
    report = exprs.report
    total = 0
    for v in decls:
        if v.name in syms.zones or v.name in syms.vars or v.name in syms.constants:
            report.err(f"'{v.name}' is already defined", v.span)
            continue
        vdim = (dim(v.index, syms.players, syms.consts, report, len(syms.suit_names))
                if v.index is not None else None)
        total += vdim[1] if vdim else 1
        if total > MAX_VAR_ELEMENTS:
            report.err(f"a game has at most {MAX_VAR_ELEMENTS:,} variables (each element of "
                       "an array counted)", v.span)
            return
        t = exprs.expr(v.init, Scope(), Ctx("pure"))
        optional = False
        if v.type is not None:
            want = exprs.type_name(v.type, v.span)
            if want == "int" and t == "none":
                optional = True  # an optional int: read only where tested (check_expr)
                t = "int"
            elif want != "any":
                if not compatible(want, t) and not literal_player(want, v.init):
                    report.err(f"'{v.name}' is declared {shown(v.type)} but starts as {t}",
                               v.init.span)
                t = want
        elif t in ("none", "any"):
            report.err(f"give '{v.name}' a type: its start value does not say one", v.span,
                       f"write 'var {v.name}: player = none' (or card, suit, int...)")
        elif t == "list:any":
            t = "list:int"
        syms.vars[v.name] = VarInfo(v.name, t, vdim, v.init, v.span, optional)
