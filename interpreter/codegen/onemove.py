"""The one-move legality test: `islegal_<d>(s, m)` answers whether the move m is one of
the legal moves of the settled state s at decision d without listing them, and
`ending(s)` whether settling s ends the game instead. The fuzzer's shadow worlds test
one move there after each mend (engine/walk.py, `Shadow.follow`); `Game.legal_by_test`
asks them. A module of its own, compiled when first asked for (`Machine.legality`), as
the explainer of refused moves is: the game's code, and its start-up, are unchanged.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import attrs
else:  # the same declarations, built cheaply (lang/nodes.py), as the other layers' records
    from ..lang import nodes as attrs

from ..lang import Checked
from ..lang import ast as A
from .context import Ctx
from .exprs import Exprs
from .flow import Decision
from .module import def_functions, tables
from .moves import Moves
from .optimize import Optimizing
from .runtime import STEPS
from .step import end_test
from .stmts import Stmts


@attrs.frozen
class Legality:
    source: str
    spans: list[tuple[A.Span, str]]


def legality(g: Checked, decisions: dict[int, Decision], optimize: bool = True) -> Legality:
    """The tests' module for the decisions of a game's flow (`Generated.decisions`),
    written as the game's code is (`optimize`: with the optimiser's expressions): it
    defines `ISLEGAL` (decision node -> test) and `ENDING`."""
    cx = Ctx(g, optimize)
    x = Optimizing(cx) if optimize else Exprs(cx)
    moves = Moves(Stmts(x))
    out = tables(cx)
    out += legality_functions(x, decisions, moves)
    out += def_functions(x)
    out += getattr(x, "module_lines", [])
    return Legality("\n".join(out) + "\n", cx.names.spans)


def legality_functions(x: Exprs, decisions: dict[int, Decision], moves: Moves) -> list[str]:
    """`islegal_<d>(s, m)`: whether the move m is in the legal moves of the settled state
    s at decision d, without listing them (one combination's tests: `Moves.legality`), and
    `ending(s)`: whether `settle(s)` would end the game (or find it over) rather than list
    moves, without listing them, asked once a move is known legal in s (so `no_moves` is
    false there). Together they answer `m in settle(s)` where the listing raises no error
    (the fuzzer's shadow worlds: engine/walk.py). `ENDING` is None where an end condition
    counts the legal moves (`legal_count`): then only the listing answers."""
    cx = x.cx
    g = cx.g
    tests: dict[str, list[str]] = {}
    for name, md in g.moves.items():
        tests[name] = moves.legality(md, f"move {name}")
    names = list(g.moves)
    out: list[str] = []
    for d in decisions.values():
        out.append(f"def islegal_{d.node}(s, m):")
        out.append(f"    _B[0] = {STEPS}  # (as the listing's)")
        out.append("    me = m[0]")
        if d.simultaneous:
            out.append("    if me not in s[5] or (s[3] and me in {p[0] for p in s[3]}):")
        else:
            out.append("    if me != s[5]:")
        out.append("        return False")
        out.append("    mid = m[1]")
        for alt in dict.fromkeys(d.alts):
            out.append(f"    if mid == {alt}:")
            out += ["        " + ln for ln in tests[names[alt]]]
        if d.optional:
            out.append(f"    if mid == {cx.layout.pass_id}:")
            out.append("        return len(m) == 2")
        out.append("    return False")
        out.append("")
    out.append("ISLEGAL = {" + ", ".join(f"{d}: islegal_{d}" for d in decisions) + "}")
    # (`_legal`: called once the move is known legal there, so `no_moves` is false)
    end = ["def ending(s, _legal=True):", "    if s[4] is not None: return True",
           f"    _B[0] = {STEPS}  # (as settle's)"]
    if decisions and any(d.simultaneous for d in decisions.values()):
        end.append("    if s[3]: return False")  # (settle lists at once: no end tested)
    if g.limit:
        end.append(f"    if s[2] >= {g.limit.count}: return True")
    for e in g.ends:
        pre, cond = end_test(x, e.cond)
        end += ["    " + ln for ln in pre]
        end.append(f"    if {cond}: return True")
    end.append("    return False")
    end.append("")
    if any("len(_legal)" in ln for ln in end):  # (`legal_count`: only the listing says)
        end = ["ending = None", ""]
    out += end
    out.append("ENDING = ending")
    return out
