"""Stage 2: Lark parse tree -> AST (frozen attrs nodes with source spans)."""

from __future__ import annotations

import ast as pyast
import re
from typing import Any, cast

import attrs
import lark

from ..errors import Diagnostic
from . import ast as A
from .parser import parse


def build_module(source: str, filename: str) -> A.Module:
    tree = parse(source, filename)
    return A.Module(filename, tuple(_Builder(filename, source).decls(tree)), source)


# a backslash escape of one character, as Python's string literals read them
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[0-7]{1,3}|[abfrv\\])")


def unquote(tok: lark.Token | str, filename: str = "") -> str:
    text = str(tok)
    if text.startswith('"""'):
        value = text[3:-3]
    else:
        try:
            lit = pyast.literal_eval(text)
        except (ValueError, SyntaxError):
            lit = text[1:-1]
        value = lit if isinstance(lit, str) else text[1:-1]
    bad = next((ch for ch in value if (ord(ch) < 32 and ch not in "\n\t") or ord(ch) == 127),
               None)
    if bad is not None:
        # an escape sequence could rewrite the user's terminal when the text is shown
        line = getattr(tok, "line", 0) or 0
        col = getattr(tok, "column", 0) or 0
        at, width = text.find(bad), 1
        if at < 0:  # written as an escape (\x1b, \033, \a): the caret goes under it
            for m in _ESCAPE.finditer(text):
                if pyast.literal_eval(f'"{m.group()}"') == bad:
                    at, width = m.start(), len(m.group())
                    break
        if at >= 0:  # the caret goes under the character (or its escape)
            before = text[:at]
            line += before.count("\n")
            col = at - before.rfind("\n") if "\n" in before else col + at
            span = A.Span(filename, line, col, line, col + width)
        else:
            span = A.Span(filename, line, col, line, col + 1)
        raise Diagnostic(f"a string may not hold the control character {bad!r}", span,
                         hint="remove it: a game's texts are shown as plain text (a "
                              "terminal escape or bell would act on the player's screen)")
    return value


# `{expr}` is a placeholder; `{{` and `}}` stand for a brace itself
_INTERP = re.compile(r"\{\{|\}\}|\{([^{}]*)\}")

MAX_DIGITS = 18  # every number in a game file fits in 64 bits
INT64 = 1 << 63


def number(tok: lark.Token, filename: str) -> int:
    """A number as written in the file: at most MAX_DIGITS digits, else a located error."""
    text = str(tok)
    if len(text) > MAX_DIGITS:
        line, col = tok.line or 0, tok.column or 0
        raise Diagnostic(f"this number is too large (at most {MAX_DIGITS} digits)",
                         A.Span(filename, line, col, line, col + min(len(text), MAX_DIGITS + 1)))
    return int(text)


def _type_text(t: lark.Tree) -> str:
    """`int`, `player`, `list` or `list of player` -> a type name (`list:player`)."""
    words = [str(w) for w in t.children if w is not None]
    if len(words) == 2:
        return f"{words[0]}:{words[1]}"
    return words[0]


class _Builder:
    def __init__(self, filename: str, source: str = "") -> None:
        self.file = filename
        self.source = source  # for the text of an `expect` condition

    def unq(self, tok: lark.Token | str) -> str:
        return unquote(tok, self.file)

    def num(self, tok: lark.Token) -> int:
        return number(tok, self.file)

    # ------------------------------------------------------------- spans
    def span(self, node: lark.Tree | lark.Token) -> A.Span:
        if isinstance(node, lark.Token):
            line = node.line or 0
            col = node.column or 0
            return A.Span(self.file, line, col, node.end_line or line,
                          node.end_column or col + len(str(node)))
        meta = node.meta
        if getattr(meta, "empty", True):
            return A.Span(self.file, 0, 0, 0, 0)
        return A.Span(self.file, meta.line, meta.column, meta.end_line, meta.end_column)

    # ------------------------------------------------------------- decls
    def decls(self, tree: lark.Tree) -> list[A.Decl]:
        return [self.decl(item) for item in tree.children]

    def decl(self, t: lark.Tree) -> A.Decl:
        fn = getattr(self, "d_" + str(t.data), None)
        if fn is None:  # pragma: no cover - grammar and builder out of step
            raise Diagnostic(f"internal: no builder for {t.data}", self.span(t))
        result: A.Decl = fn(t, t.children)
        return result

    def d_game_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.GameDecl(self.unq(c[0]), span=self.span(t))

    def d_about_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.About(self.unq(c[0]), span=self.span(t))

    def d_extends_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.Extends(self.unq(c[0]), span=self.span(c[0]))

    def d_use_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.Use(self.unq(c[0]), span=self.span(c[0]))

    def d_players_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        nums = [self.num(x) for x in c if x is not None]
        low = nums[0]
        high = nums[1] if len(nums) > 1 else low
        default = nums[2] if len(nums) > 2 else low  # like options: the low end
        if high < low:
            raise Diagnostic(f"player range {low}..{high} is empty", self.span(t))
        if not low <= default <= high:
            raise Diagnostic(f"default {default} is outside {low}..{high}", self.span(t))
        if low < 1 or high > 16:
            raise Diagnostic("a game has 1 to 16 players", self.span(t))
        return A.PlayersDecl(low, high, default, span=self.span(t))

    def _opt_value(self, v: Any) -> int | str | bool:
        if isinstance(v, lark.Tree):
            return v.data == "true"
        if v.type == "INT":
            return self.num(v)
        return str(v)

    def d_option_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        name = str(c[0])
        dom = c[1]
        rest = c[2:]
        doc = ""
        if rest and isinstance(rest[-1], lark.Token) and rest[-1].type == "STRING":
            doc = self.unq(rest[-1])
            rest = rest[:-1]
        default = self._opt_value(rest[0]) if rest else None
        span = self.span(t)
        if dom.data == "opt_range":
            low, high = self.num(dom.children[0]), self.num(dom.children[1])
            if high < low:
                raise Diagnostic(f"option range {low}..{high} is empty", self.span(dom))
            if default is None:
                default = low
            if not isinstance(default, int) or isinstance(default, bool) or not low <= default <= high:
                raise Diagnostic(f"default {default} of option '{name}' is outside {low}..{high}",
                                 self.span(rest[0]) if rest else span,
                                 f"choose a default from {low} to {high}, or widen the range")
            return A.OptionDecl(name, "int", low, high, (), default, doc, span=span)
        if dom.data == "opt_bool":
            if default is None:
                default = False
            if not isinstance(default, bool):
                raise Diagnostic(f"default of bool option '{name}' must be true or false",
                                 self.span(rest[0]), "write 'default true' or 'default false'")
            return A.OptionDecl(name, "bool", 0, 1, (False, True), default, doc, span=span)
        choices = tuple(self._opt_value(v) for v in dom.children)
        if default is None:
            default = choices[0]
        if default not in choices:
            raise Diagnostic(f"default {default} of option '{name}' is not one of its values",
                             self.span(rest[0]),
                             "choose one of: " + ", ".join(str(x) for x in choices))
        return A.OptionDecl(name, "choice", 0, 0, choices, default, doc, span=span)

    def d_deck_standard(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        jokers = 0
        if c:
            jokers = self.num(c[0])
            if str(c[1]) not in ("joker", "jokers"):
                raise Diagnostic(f"expected 'jokers', found '{c[1]}'", self.span(c[1]),
                                 "write 'deck standard with 2 jokers'")
        return A.DeckDecl(standard=True, jokers=jokers, span=self.span(t))

    def d_deck_custom(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        names: tuple[str, ...] = ()
        items: list[A.DeckCard | A.DeckFor] = []
        for item in c:
            if item.data == "deck_ranks":
                names = tuple(str(r.children[0]) for r in item.children)
            else:
                items.append(self.deck_item(item))
        return A.DeckDecl(standard=False, rank_names=names, items=tuple(items), span=self.span(t))

    def deck_item(self, t: lark.Tree) -> A.DeckCard | A.DeckFor:
        if t.data == "deck_for":
            body = []
            for x in t.children[2:]:
                if x.data == "deck_ranks":
                    raise Diagnostic("'ranks' belongs at the top of the deck", self.span(x))
                body.append(self.deck_item(x))
            return A.DeckFor(str(t.children[0]), self.expr(t.children[1]), tuple(body),
                             span=self.span(t))
        attrs_: list[tuple[str, A.Expr]] = []
        times = None
        for x in t.children:
            if x is None:
                continue
            if isinstance(x, lark.Tree) and x.data == "card_attr_value":
                attrs_.append((str(x.children[0]), self.expr(x.children[1])))
            elif isinstance(x, lark.Tree) and x.data == "card_attr_flag":
                attrs_.append((str(x.children[0]), A.Bool(True, span=self.span(x))))
            else:
                times = self.expr(x)
        return A.DeckCard(tuple(attrs_), times, span=self.span(t))

    def d_zone_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        name = str(c[0])
        indices: list[A.Expr] = []
        label = ""
        props: list[str] = []
        words: list[tuple[A.Span, ...]] = []
        cover: tuple[A.Expr, ...] = ()
        for x in c[1:]:
            if isinstance(x, lark.Token) and x.type == "STRING":
                label = self.unq(x)
            elif isinstance(x, lark.Tree) and x.data == "zone_prop":
                props.append(" ".join(str(w) for w in x.children))
                words.append(tuple(self.span(w) for w in x.children))
            elif isinstance(x, lark.Tree) and x.data == "zone_cover":
                cover = tuple(self.expr(y) for y in x.children)
            elif x is not None:
                indices.append(self.expr(x))
        return A.ZoneDecl(name, indices[0] if indices else None, label, tuple(props),
                          prop_words=tuple(words),
                          index2=indices[1] if len(indices) > 1 else None,
                          covered_by=cover, span=self.span(c[0]))

    def d_var_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        name = str(c[0])
        exprs = []
        typ = None
        doc = ""
        for x in c[1:]:
            if isinstance(x, lark.Token) and x.type == "STRING":
                doc = self.unq(x)
            elif isinstance(x, lark.Tree) and x.data == "type":
                typ = _type_text(x)
            elif x is not None:
                exprs.append(self.expr(x))
        index = exprs[0] if len(exprs) == 2 else None
        return A.VarDecl(name, index, typ, exprs[-1], doc, span=self.span(c[0]))

    def params(self, c: list[Any]) -> tuple[A.Param, ...]:
        out = []
        for p in c:
            if p is None:
                continue
            out.append(A.Param(str(p.children[0]), _type_text(p.children[1]), span=self.span(p)))
        return tuple(out)

    def d_def_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.DefDecl(str(c[0]), self.params(c[1:-1]), self.expr(c[-1]), span=self.span(c[0]))

    def d_const_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.DefDecl(str(c[0]), (), self.expr(c[1]), is_const=True, span=self.span(c[0]))

    def d_proc_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.ProcDecl(str(c[0]), self.params(c[1:-1]), self.block(c[-1]), span=self.span(c[0]))

    def d_move_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        name = str(c[0])
        params = []
        doc = ""
        doc_span = A.NOSPAN
        clauses: list[A.WhenClause] = []
        body: tuple[A.Stmt, ...] = ()
        for x in c[1:]:
            if isinstance(x, lark.Token) and x.type == "STRING":
                doc = self.unq(x)
                doc_span = self.span(x)
            elif isinstance(x, lark.Tree) and x.data == "move_param":
                params.append(A.MoveParam(str(x.children[0]), self.expr(x.children[1]),
                                          span=self.span(x)))
            elif isinstance(x, lark.Tree) and x.data in ("move_param_where", "move_param_k"):
                params.append(self.move_param(x))
            elif isinstance(x, lark.Tree) and x.data == "block":
                body = self.block(x)
            elif isinstance(x, lark.Tree) and x.data == "when_clause":
                cond = x.children[0]
                tok = x.children[1] if len(x.children) > 1 else None
                reason = ""
                parts: tuple[str | A.Expr, ...] = ()
                if isinstance(tok, lark.Token):
                    reason = self.unq(tok)
                    parts = self.interpolate(reason, tok)
                clauses.append(A.WhenClause(self.expr(cond), reason, parts, span=self.span(x)))
        # a parameter's `where` is a condition of the move, tested before its `when`s
        clauses = [A.WhenClause(p.where, "", (), span=p.where.span)
                   for p in params if p.where is not None] + clauses
        # several `when` clauses mean their `and`, tested in order
        when: A.Expr | None = None
        for cl in clauses:
            when = cl.cond if when is None else A.Binary(
                "and", when, cl.cond, span=_join(when.span, cl.cond.span))
        return A.MoveDecl(name, tuple(params), doc, when, body, clauses=tuple(clauses),
                          doc_span=doc_span, span=self.span(c[0]))

    def move_param(self, x: lark.Tree) -> A.MoveParam:
        """`NAME in SOURCE where COND`, or `NAME in N of Z [where COND]`: a set of N cards."""
        ch = [k for k in x.children if k is not None]
        name = str(ch[0])
        if x.data == "move_param_k":
            source: A.Expr = A.Subsets(self.expr(ch[2]), self.expr(ch[1]),
                                       span=_join(self.span(ch[1]), self.span(ch[2])))
            rest = ch[3:]
        else:
            source = self.expr(ch[1])
            rest = ch[2:]
        where = self.expr(rest[0]) if rest else None
        return A.MoveParam(name, pruned(source, name, where), where, span=self.span(x))

    def d_setup_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.SetupDecl(self.block(c[0]), span=self.span(t))

    def d_flow_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.FlowDecl(self.block(c[0]), span=self.span(t))

    def d_end_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        name = ""
        reason = ""
        cond = None
        for x in c:
            if isinstance(x, lark.Token) and x.type == "NAME":
                name = str(x)
            elif isinstance(x, lark.Token) and x.type == "STRING":
                reason = self.unq(x)
            elif x is not None:
                cond = self.expr(x)
        assert cond is not None
        return A.EndDecl(name, cond, reason, span=self.span(t))

    def d_table_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.TableDecl(tuple(self._table_item(x) for x in c), span=self.span(t))

    def _table_name(self, x: Any) -> A.TableName:
        if isinstance(x, lark.Tree):  # table_name: NAME STRING?
            label = self.unq(cast(lark.Token, x.children[1])) if len(x.children) > 1 and x.children[1] else ""
            return A.TableName(str(x.children[0]), label, span=self.span(x.children[0]))
        return A.TableName(str(x), span=self.span(x))

    def _table_item(self, t: lark.Tree) -> A.TableItem:
        kind = str(t.data)[len("table_"):]
        c = list(t.children)
        title = ""
        if kind == "group":
            title = self.unq(cast(lark.Token, c.pop(0)))
        names = [self._table_name(x) for x in c if isinstance(x, lark.Tree)]
        keys = [self._table_name(x) for x in c if isinstance(x, lark.Token)]
        return A.TableItem(kind, title, tuple(names), tuple(keys), span=self.span(t))

    def d_score_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.ScoreDecl(self.expr(c[0]), span=self.span(t))

    def d_result_rank(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.ResultDecl(str(c[0]), None, span=self.span(t))

    def d_result_won(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.ResultDecl("won", self.expr(c[0]), span=self.span(t))

    def d_result_against(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        """`result against ROLE: win when C, push when C`: the others lose."""
        cases: list[A.ResultCase] = []
        for x in c[1:]:
            word = x.children[0]
            outcome = str(word)
            if outcome not in ("win", "push"):
                hint = ("a player who neither wins nor pushes loses: leave the loss out"
                        if outcome in ("loss", "lose") else
                        "write 'win when ...' and, if ties are pushes, 'push when ...'")
                raise Diagnostic(f"'{outcome}': a result against a role is 'win when ...' or "
                                 "'push when ...'", self.span(word), hint)
            if any(k.outcome == outcome for k in cases):
                raise Diagnostic(f"'{outcome} when' is given twice", self.span(word),
                                 f"join the conditions with 'or' in one '{outcome} when'")
            cases.append(A.ResultCase(outcome, self.expr(x.children[1]), span=self.span(x)))
        win = next((k.cond for k in cases if k.outcome == "win"), None)
        if win is None:
            raise Diagnostic("'result against' says when a player loses or pushes, but not "
                             "when a player wins", self.span(t),
                             f"start with 'result against {c[0]}: win when ...'")
        push = next((k.cond for k in cases if k.outcome == "push"), None)
        return A.ResultDecl("against", win, role=str(c[0]), push=push, cases=tuple(cases),
                            span=self.span(t))

    def d_role_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        label = self.unq(c[1]) if len(c) > 1 and c[1] is not None else ""
        return A.RoleDecl(str(c[0]), label, span=self.span(c[0]))

    def d_invariant_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        doc = self.unq(c[1]) if len(c) == 3 else ""
        return A.InvariantDecl(str(c[0]), doc, self.expr(c[-1]), span=self.span(c[0]))

    def _expect(self, kind: str, t: lark.Tree, c: list[Any]) -> A.Decl:
        cond = self.expr(c[0])
        label = self.unq(c[1]) if len(c) > 1 and c[1] is not None else ""
        sp = cond.span
        text = ""
        if sp.line:  # the condition as written, on one line
            lines = self.source.splitlines()[sp.line - 1:sp.end_line]
            if lines:
                lines[-1] = lines[-1][:sp.end_column - 1]
                lines[0] = lines[0][sp.column - 1:]
                text = " ".join(x.strip() for x in lines)
        return A.ExpectDecl(kind, cond, label, text, span=self.span(t))

    def d_expect_sometimes(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return self._expect("sometimes", t, c)

    def d_expect_never(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return self._expect("never", t, c)

    def d_equivalent_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.EquivalentDecl(self.unq(c[0]), self.unq(c[1]), span=self.span(t))

    def d_limit_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        unit = str(c[1])
        moves = self.num(c[0])
        if moves < 1:
            raise Diagnostic("a limit is at least 1 move", self.span(c[0]))
        if unit not in ("moves", "move"):
            raise Diagnostic(f"unknown limit unit '{unit}'", self.span(c[1]),
                             "write 'limit 1000 moves' (count deals with a var in the flow)")
        reason = self.unq(c[2]) if len(c) > 2 and c[2] is not None else ""
        return A.LimitDecl(moves, "moves", reason, span=self.span(t))

    def d_limit_named(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        unit = str(c[1])
        if unit not in ("moves", "move"):
            raise Diagnostic(f"unknown limit unit '{unit}'", self.span(c[1]),
                             "write 'limit 1000 moves' or 'limit NAME moves'")
        reason = self.unq(c[2]) if len(c) > 2 and c[2] is not None else ""
        return A.LimitDecl(0, "moves", reason, count_name=str(c[0]), span=self.span(t))

    def d_order_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        ranks = tuple(str(r.children[0]) for r in c)
        spans = tuple(self.span(r.children[0]) for r in c)
        return A.OrderDecl(ranks=ranks, rank_spans=spans, span=self.span(t))

    def d_suits_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.SuitsDecl(names=tuple(str(x) for x in c),
                           name_spans=tuple(self.span(x) for x in c), span=self.span(t))

    def d_auto_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        doc = self.unq(c[2]) if len(c) > 2 and c[2] is not None else ""
        return A.AutoDecl(str(c[0]), self.expr(c[1]), doc, span=self.span(c[0]))

    def d_remove_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        name = self.unq(c[1]) if c[1].type == "STRING" else str(c[1])  # an example's name
        return A.RemoveDecl(str(c[0]), name, span=self.span(t))

    def d_example_decl(self, t: lark.Tree, c: list[Any]) -> A.Decl:
        return A.ExampleDecl(self.unq(c[0]), tuple(self.ex_step(x) for x in c[1:]),
                             span=self.span(c[0]))

    def ex_cards(self, t: lark.Tree) -> tuple[str, ...]:
        out: list[str] = []
        for tok in t.children:
            assert isinstance(tok, lark.Token)
            out += self.unq(tok).split() if tok.type == "STRING" else [str(tok)]
        return tuple(out)

    def ex_step(self, t: lark.Tree) -> A.ExStep:
        kind = str(t.data)[len("ex_"):]
        c: list[Any] = [x for x in t.children if x is not None]
        sp = self.span(t)
        if kind == "players":
            return A.ExStep(kind, value=self.num(c[0]), span=sp)
        if kind == "option":
            return A.ExStep(kind, text=str(c[0]), value=self._opt_value(c[1]), span=sp)
        if kind == "is_empty":
            return A.ExStep("is", target=self.expr(c[0]), span=sp)
        if kind in ("has", "is", "expect_has", "expect_has_no"):
            return A.ExStep(kind, target=self.expr(c[0]), cards=self.ex_cards(c[1]), span=sp)
        if kind == "set":
            return A.ExStep(kind, target=self.expr(c[0]), expr=self.expr(c[1]), span=sp)
        if kind in ("to_move", "expect_to_move"):
            return A.ExStep(kind, target=self.expr(c[0]), span=sp)
        if kind in ("play", "can_play", "cannot_play"):
            reason = self.unq(c[2]) if len(c) > 2 else ""
            return A.ExStep(kind, target=self.expr(c[0]), text=self.unq(c[1]), reason=reason,
                            span=sp)
        if kind == "expect":
            return A.ExStep(kind, expr=self.expr(c[0]), span=sp)
        if kind in ("can_see", "cannot_see"):
            return A.ExStep(kind, target=self.expr(c[0]), expr=self.expr(c[1]), span=sp)
        if kind == "result":
            return A.ExStep(kind, target=self.expr(c[0]), text=str(c[1]), span=sp)
        if kind == "scores":
            return A.ExStep(kind, target=self.expr(c[0]), expr=self.expr(c[1]), span=sp)
        if kind == "over":
            return A.ExStep(kind, reason=self.unq(c[0]) if c else "", span=sp)
        return A.ExStep(kind, span=sp)  # not_over

    # ------------------------------------------------------------- statements
    def block(self, t: lark.Tree) -> tuple[A.Stmt, ...]:
        return tuple(self.stmt(s) for s in t.children)

    def stmt(self, t: lark.Tree) -> A.Stmt:
        sp = self.span(t)
        d = str(t.data)
        c: list[Any] = t.children
        if d in ("assign", "assign_add", "assign_sub"):
            op = {"assign": "=", "assign_add": "+=", "assign_sub": "-="}[d]
            return A.Assign(self.expr(c[0]), op, self.expr(c[1]), span=sp)
        if d == "call_stmt":
            return A.CallStmt(str(c[0]), tuple(self.expr(a) for a in c[1:] if a is not None),
                              span=sp)
        if d in ("choose", "choose_optional", "choose_simultaneous"):
            alts = tuple(str(n) for n in c[1].children)
            return A.Choose(self.expr(c[0]), alts, optional=d == "choose_optional",
                            simultaneous=d == "choose_simultaneous", span=sp,
                            move_spans=tuple(self.span(n) for n in c[1].children))
        if d == "let_stmt":
            return A.LetStmt(str(c[0]), self.expr(c[1]), span=sp)
        if d == "if_stmt":
            branches = [(self.expr(c[0]), self.block(c[1]))]
            else_: tuple[A.Stmt, ...] = ()
            for x in c[2:]:
                if x is None:
                    continue
                if x.data == "elif_clause":
                    branches.append((self.expr(x.children[0]), self.block(x.children[1])))
                else:
                    else_ = self.block(x.children[0])
            return A.If(tuple(branches), else_, span=sp)
        if d == "for_stmt":
            return A.For(str(c[0]), self.expr(c[1]), self.block(c[2]), span=sp)
        if d == "while_stmt":
            return A.While(self.expr(c[0]), self.block(c[1]), span=sp)
        if d == "repeat_stmt":
            return A.Repeat(None, self.block(c[0]), span=sp)
        if d == "repeat_n_stmt":
            return A.Repeat(self.expr(c[0]), self.block(c[1]), span=sp)
        if d == "phase_stmt":
            return A.Phase(self.unq(c[0]), self.block(c[1]), span=sp)
        if d == "move_stmt":
            # `to bottom of Z` / `to top of Z` name a position in Z, not a card
            dest = self.expr(c[1])
            bottom = False
            if isinstance(dest, A.Unary) and dest.op in ("top", "bottom"):
                bottom = dest.op == "bottom"
                dest = dest.operand
            return A.MoveCards(self.expr(c[0]), dest, bottom, span=sp)
        if d in ("move_face_stmt", "move_over_stmt", "move_above_stmt"):
            return self.move_more(d, c, sp)
        if d == "turn_stmt":
            return A.Turn(self.expr(c[1]), str(c[2]).split()[-1] == "up", span=sp)
        if d == "shuffle_stmt":
            return A.Shuffle(self.expr(c[0]), span=sp)
        if d == "deal_stmt":
            count = None if c[0].data == "deal_all" else self.expr(c[0].children[0])
            return A.Deal(count, self.expr(c[1]), self.expr(c[2]), span=sp)
        if d == "end_stmt":
            if c and c[0] is not None:
                text = self.unq(c[0])
                return A.End(text, self.interpolate(text, c[0]), span=sp)
            return A.End("", span=sp)
        if d == "break_stmt":
            return A.Break(span=sp)
        if d == "log_stmt":
            text = self.unq(c[0])
            return A.Log(text, self.interpolate(text, c[0]), span=sp)
        raise Diagnostic(f"internal: unknown statement {d}", sp)  # pragma: no cover

    def move_more(self, d: str, c: list[Any], sp: A.Span) -> A.Stmt:
        """`move X to Z face up`, `move X to Z turned over`, `move C and above to Z [face ..]`."""
        words = [str(x).split()[-1] for x in c if isinstance(x, lark.Token)
                 and x.type in ("FACE", "TURNED_OVER")]
        trees = [x for x in c if not (isinstance(x, lark.Token)
                                      and x.type in ("FACE", "TURNED_OVER", "AND_ABOVE"))]
        dest = self.expr(trees[1])
        bottom = False
        if isinstance(dest, A.Unary) and dest.op in ("top", "bottom"):
            bottom = dest.op == "bottom"
            dest = dest.operand
        face = next((w for w in words if w in ("up", "down")), "")
        return A.MoveCards(self.expr(trees[0]), dest, bottom, face=face,
                           over="over" in words, above=d == "move_above_stmt", span=sp)

    def interpolate(self, text: str, tok: lark.Token) -> tuple[str | A.Expr, ...]:
        parts: list[str | A.Expr] = []
        pos = 0
        quote = 3 if str(tok).startswith('"""') else 1
        for m in _INTERP.finditer(text):
            if m.start() > pos:
                parts.append(text[pos:m.start()])
            if m.group(1) is None:  # an escaped brace
                parts.append(m.group()[0])
                pos = m.end()
                continue
            before = text[:m.start(1)]
            line = (tok.line or 0) + before.count("\n")
            if "\n" in before:
                col = m.start(1) - before.rfind("\n")
            else:
                col = (tok.column or 0) + quote + m.start(1)
            tree = parse(m.group(1), self.file, start="expr", line_offset=line - 1,
                         col_offset=col - 1)
            parts.append(_Builder(self.file).expr_at(tree, line, col))
            pos = m.end()
        if pos < len(text):
            parts.append(text[pos:])
        return tuple(parts)

    def expr_at(self, tree: lark.Tree, line: int, col: int) -> A.Expr:
        # Spans inside an interpolated string are relative to the string; shift them.
        self._shift = (line - 1, col - 1)
        return self.expr(tree)

    _shift = (0, 0)

    def shifted(self, sp: A.Span) -> A.Span:
        """A span inside an interpolated string, moved to where the string stands."""
        if self._shift == (0, 0):
            return sp
        dl, dc = self._shift
        return A.Span(sp.file, sp.line + dl, sp.column + (dc if sp.line == 1 else 0),
                      sp.end_line + dl, sp.end_column + (dc if sp.end_line == 1 else 0))

    # ------------------------------------------------------------- expressions
    def expr(self, t: lark.Tree | lark.Token) -> A.Expr:
        sp = self.shifted(self.span(t))
        if isinstance(t, lark.Token):
            if t.type == "INT":
                return A.Int(self.num(t), span=sp)
            return A.Name(str(t), span=sp)
        d = str(t.data)
        c: list[Any] = t.children
        if d == "int_lit":
            if len(str(c[0])) > MAX_DIGITS:
                raise Diagnostic(f"this number is too large (at most {MAX_DIGITS} digits)", sp)
            return A.Int(int(c[0]), span=sp)
        if d == "name":
            return A.Name(str(c[0]), span=sp)
        if d == "true":
            return A.Bool(True, span=sp)
        if d == "false":
            return A.Bool(False, span=sp)
        if d == "none":
            return A.NoneLit(span=sp)
        if d == "me":
            return A.Me(span=sp)
        if d == "players":
            return A.Players(span=sp)
        if d == "list_lit":
            return A.ListLit(tuple(self.expr(x) for x in c if x is not None), span=sp)
        if d == "attr":
            return A.Attr(self.expr(c[0]), str(c[1]), span=sp,
                          name_span=self.shifted(self.span(c[1])))
        if d == "index":
            return A.Index(self.expr(c[0]), self.expr(c[1]), span=sp)
        if d == "call":
            return A.Call(str(c[0]), tuple(self.expr(a) for a in c[1:] if a is not None), span=sp)
        if d == "neg":
            return A.Unary("-", self.expr(c[0]), span=sp)
        if d == "not_":
            return A.Unary("not", self.expr(c[0]), span=sp)
        if d in ("top_of", "bottom_of", "all_of", "left_of", "right_of", "players_from"):
            op = {"top_of": "top", "bottom_of": "bottom", "all_of": "all", "left_of": "left",
                  "right_of": "right", "players_from": "players_from"}[d]
            return A.Unary(op, self.expr(c[0]), span=sp)
        if d == "top_n_of":
            return A.TopN(self.expr(c[0]), self.expr(c[1]), span=sp)
        if d == "position_of":
            return A.PositionOf(self.expr(c[1]), self.expr(c[2]), span=sp)
        if d in ("or_", "and_"):
            op = "or" if d == "or_" else "and"
            result = self.expr(c[0])
            for x in c[1:]:
                result = A.Binary(op, result, self.expr(x), span=sp)
            return result
        if d == "compare":
            return A.Binary(str(c[1]), self.expr(c[0]), self.expr(c[2]), span=sp)
        if d == "binop":
            return A.Binary(str(c[1]), self.expr(c[0]), self.expr(c[2]), span=sp)
        if d == "member":
            return A.Binary("in", self.expr(c[0]), self.expr(c[1]), span=sp)
        if d == "not_member":
            return A.Binary("notin", self.expr(c[0]), self.expr(c[1]), span=sp)
        if d == "range":
            return A.Binary("..", self.expr(c[0]), self.expr(c[1]), span=sp)
        if d == "is_empty":
            return A.IsEmpty(self.expr(c[0]), False, span=sp)
        if d == "is_not_empty":
            return A.IsEmpty(self.expr(c[0]), True, span=sp)
        if d in ("is_covered", "is_not_covered"):  # `z is covered`: the built-in covered(z)
            call = A.Call("covered", (self.expr(c[0]),), span=sp)
            return call if d == "is_covered" else A.Unary("not", call, span=sp)
        if d == "if_expr":
            return A.IfExpr(self.expr(c[0]), self.expr(c[1]), self.expr(c[2]), span=sp)
        if d == "let_expr":
            return A.Let(str(c[0]), self.expr(c[1]), self.expr(c[2]), span=sp)
        if d == "quant_all":
            c = [lark.Token("QUANT", "all"), *c]
            d = "quant"
        if d == "quant":
            where = body = None
            for x in c[3:]:
                if x is None:
                    continue
                if x.data == "where":
                    where = self.expr(x.children[0])
                else:
                    body = self.expr(x.children[0])
            # `all x in L where COND` without a body tests COND of every element (the
            # where is the test, not a filter): its sets are not pruned to the ones that fit
            kind = str(c[0])
            keep = None if kind == "all" and body is None else where
            return A.Quant(kind, str(c[1]), pruned(self.expr(c[2]), str(c[1]), keep),
                           where, body, span=sp)
        if d == "subsets_of":
            return A.Subsets(self.expr(c[0]), None, span=sp)
        if d == "subsets_n_of":
            return A.Subsets(self.expr(c[1]), self.expr(c[0]), span=sp)
        raise Diagnostic(f"internal: unknown expression {d}", sp)  # pragma: no cover


def pruned(source: A.Expr, var: str, where: A.Expr | None) -> A.Expr:
    """`S in subsets of Z where ... (sum x in S: E) == T ...`: the subsets with the sum's
    values and target filled in, so that they are enumerated by a subset-sum search. Only
    when E and T do not read S (the sum's pattern is the condition's own conjunct)."""
    if not isinstance(source, A.Subsets) or where is None or source.values is not None:
        return source
    for _, q, t in A.sum_tests(where, var):
        if (q.var != var and not A.reads_name(t, var)
                and (q.body is None or not A.reads_name(q.body, var))):
            body = q.body if q.body is not None else A.Name(q.var, span=q.span)
            values = A.Quant("each", q.var, source.zone, None, body, span=q.span)
            return attrs.evolve(source, values=values, target=t)
    return source


def _join(a: A.Span, b: A.Span) -> A.Span:
    """The span from the start of a to the end of b."""
    return A.Span(a.file, a.line, a.column, b.end_line, b.end_column)
