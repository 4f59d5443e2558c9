"""`cardgame mutate`: how well a game's invariants, expectations and examples pin its rules
down. Each mutant is the game file's text with one edit, found from the AST's spans:

- a comparison flipped at its boundary (`<` -> `<=`, `==` -> `!=`, `is empty` -> `is not
  empty`, `in` -> `not in`), and the other way;
- a number one more and one less (constants, bounds, array sizes, players by number);
- `and` <-> `or`; a `not` dropped; `left of` <-> `right of` (a player for another);
- a statement deleted (in setup, flow, moves, procs);
- a zone's visibility changed (face down / face up / owner only);
- a zone named for another zone of its kind (a single zone, or an array).

Nothing is edited inside invariants, expectations, `equivalent` marks, `auto move`
claims (the solver's, about winning), the table, the deck or the game's name and
options: they are the checks and the frame, not the rules.

A mutant that fails `check` is stillborn. Every other one is judged by a list of judges,
each `(game) -> str | None`: the reason it is killed, or None. The first that kills it
decides: the examples, then the invariants on the first state of many deals (a setup
that breaks an invariant on one deal in twelve is caught there, where a short fuzz plays
only a few whole games), then a short fuzz, then the reachability expectations. A survivor no judge kills; one the file marks `equivalent "NAME" "REASON"` is
counted apart. The score is killed / (mutants - stillborn - equivalent).

A mutant's NAME is stable when lines move: the declaration it is in, the code before and
after the edit, and a number when the same edit occurs twice in one declaration
(`move build: fits(top of turned, k) -> not fits...`).
"""

from __future__ import annotations

import re
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import attrs

from ..engine import Game, Move, compile_loaded
from ..errors import CardgameError, Diagnostic
from ..lang import ast as A
from ..lang import load

Judge = Callable[[Game], "str | None"]

KILLED = "killed"
SURVIVED = "survived"
STILLBORN = "stillborn"
EQUIVALENT = "equivalent"
WEAK = "none was found in"  # a kill by the clock, not by a proof

FLIP = {"<": "<=", "<=": "<", ">": ">=", ">=": ">", "==": "!=", "!=": "=="}
VISIBILITY = {"face down": "hidden", "hidden": "hidden", "face up": "public",
              "public": "public", "owner only": "owner", "owner": "owner"}
VIS_WORDS = {"hidden": "face down", "public": "face up", "owner": "owner only"}
SKIPPED = (A.GameDecl, A.About, A.Extends, A.Use, A.PlayersDecl, A.OptionDecl, A.DeckDecl,
           A.TableDecl, A.InvariantDecl, A.ExpectDecl, A.EquivalentDecl, A.LimitDecl,
           A.RemoveDecl, A.ResultDecl, A.AutoDecl)
MAX_MUTANTS = 2000  # a file gives at most this many (the first ones, in file order)


@attrs.frozen
class Mutant:
    index: int
    name: str  # stable: "DECL: BEFORE -> AFTER" (#N when repeated)
    line: int
    before: str  # the code edited, as written
    after: str  # what it became
    kind: str  # comparison, number, logic, not, player, statement, visibility, zone
    start: int  # the edit: text[start:end] replaced by `replace`
    end: int
    replace: str

    def apply(self, text: str) -> str:
        return text[:self.start] + self.replace + text[self.end:]


@attrs.frozen
class Verdict:
    mutant: Mutant
    status: str  # killed, survived, stillborn, equivalent
    reason: str = ""  # who killed it, the check's error, or the equivalence's reason
    seconds: float = 0.0


# ---------------------------------------------------------------------- generation
class _Offsets:
    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0]
        for m in re.finditer("\n", text):
            self.starts.append(m.end())

    def at(self, line: int, col: int) -> int:
        return self.starts[line - 1] + col - 1

    def span(self, sp: A.Span) -> tuple[int, int]:
        return self.at(sp.line, sp.column), self.at(sp.end_line, sp.end_column)


def _decl_label(d: A.Decl) -> str:
    kind = {A.MoveDecl: "move", A.ProcDecl: "proc", A.DefDecl: "def", A.ZoneDecl: "zone",
            A.VarDecl: "var", A.EndDecl: "end", A.SetupDecl: "setup", A.FlowDecl: "flow",
            A.ScoreDecl: "score", A.AutoDecl: "auto move"}.get(type(d), type(d).__name__)
    name = getattr(d, "name", "")
    return f"{kind} {name}".strip()


def _one_line(s: str, limit: int = 60) -> str:
    s = " ".join(s.split())
    return s if len(s) <= limit else s[:limit - 3] + "..."


class _Gen:
    def __init__(self, text: str, file: str, zones: dict[str, bool]) -> None:
        self.text = text
        self.file = file
        self.off = _Offsets(text)
        self.zones = zones  # zone name -> is an array
        self.edits: list[tuple[str, int, int, int, str, str]] = []  # label, line, s, e, rep, kind
        self.label = ""

    def add(self, start: int, end: int, rep: str, kind: str) -> None:
        if self.text[start:end] != rep:
            line = self.text.count("\n", 0, start) + 1
            self.edits.append((self.label, line, start, end, rep, kind))

    def mine(self, sp: A.Span) -> bool:
        return sp.file == self.file and sp.line > 0

    # expressions
    def expr(self, e: A.Expr | None) -> None:
        if e is None:
            return
        for node in A.walk(e):
            if isinstance(node, A.Expr) and self.mine(node.span):
                self.one(node)

    def one(self, e: A.Expr) -> None:
        t = self.text
        if isinstance(e, A.Int):
            s, end = self.off.span(e.span)
            if t[s:end].isdigit():
                self.add(s, end, str(e.value + 1), "number")
                if e.value > 0:
                    self.add(s, end, str(e.value - 1), "number")
        elif isinstance(e, A.Binary) and self.mine(e.left.span) and self.mine(e.right.span):
            _, ls = self.off.span(e.left.span)
            rs, _ = self.off.span(e.right.span)
            between = t[ls:rs]
            m = re.fullmatch(r"[\s()]*(==|!=|<=|>=|<|>|and|or|not\s+in|in)[\s()]*", between)
            if not m:
                return
            op = m.group(1)
            a, b = ls + m.start(1), ls + m.end(1)
            if op in FLIP:
                self.add(a, b, FLIP[op], "comparison")
            elif op in ("and", "or"):
                self.add(a, b, "or" if op == "and" else "and", "logic")
            elif op == "in":
                self.add(a, b, "not in", "comparison")
            else:
                self.add(a, b, "in", "comparison")
        elif isinstance(e, A.IsEmpty) and self.mine(e.operand.span):
            _, os_ = self.off.span(e.operand.span)
            _, end = self.off.span(e.span)
            m = re.match(r"[\s)]*is(\s+not)?\s+empty", t[os_:end])
            if m:
                self.add(os_ + m.start(), os_ + m.end(),
                         t[os_ + m.start():os_ + m.end()].split("is")[0]
                         + ("is empty" if m.group(1) else "is not empty"), "comparison")
        elif isinstance(e, A.Unary) and e.op == "not" and self.mine(e.operand.span):
            s, _ = self.off.span(e.span)
            os_, _ = self.off.span(e.operand.span)
            if re.fullmatch(r"not[\s(]*", t[s:os_]):
                self.add(s, s + len(t[s:os_].rstrip("(")), "", "not")
        elif isinstance(e, A.Unary) and e.op in ("left", "right"):
            s, _ = self.off.span(e.span)
            if t.startswith(e.op, s):
                self.add(s, s + len(e.op), "right" if e.op == "left" else "left", "player")
        elif isinstance(e, A.Name) and e.name in self.zones:
            s, end = self.off.span(e.span)
            if t[s:end] == e.name:
                same = [z for z, arr in self.zones.items()
                        if arr == self.zones[e.name] and z != e.name]
                if same:  # the next zone of its kind, in declaration order
                    names = [z for z, arr in self.zones.items() if arr == self.zones[e.name]]
                    nxt = names[(names.index(e.name) + 1) % len(names)]
                    self.add(s, end, nxt, "zone")

    # statements
    def stmts(self, body: tuple[A.Stmt, ...]) -> None:
        for st in body:
            self.stmt(st)

    def stmt(self, st: A.Stmt) -> None:
        if self.mine(st.span) and not isinstance(st, A.LetStmt):
            s, e = self.off.span(st.span)
            self.add(s, e, "", "statement")
        for child in A.children(st):
            if isinstance(child, A.Stmt):
                self.stmt(child)
            else:
                self.expr(child)

    def decl(self, d: A.Decl) -> None:
        if isinstance(d, SKIPPED) or not self.mine(d.span):
            return
        self.label = _decl_label(d)
        if isinstance(d, A.ZoneDecl):
            self.expr(d.index)
            self.visibility(d)
        elif isinstance(d, A.VarDecl):
            self.expr(d.index)
            self.expr(d.init)
        elif isinstance(d, A.DefDecl):
            self.expr(d.body)
        elif isinstance(d, (A.ProcDecl, A.SetupDecl, A.FlowDecl)):
            self.stmts(d.body)
        elif isinstance(d, A.MoveDecl):
            for p in d.params:
                self.expr(p.source)
            for c in d.clauses:
                self.expr(c.cond)
            if not d.clauses:
                self.expr(d.when)
            self.stmts(d.body)
        elif isinstance(d, A.EndDecl):
            self.expr(d.cond)
        elif isinstance(d, A.ScoreDecl):
            self.expr(d.expr)

    def visibility(self, d: A.ZoneDecl) -> None:
        for prop, words in zip(d.props, d.prop_words, strict=False):
            vis = VISIBILITY.get(prop)
            if vis is None or not words or not self.mine(words[0]):
                continue
            s, _ = self.off.span(words[0])
            _, e = self.off.span(words[-1])
            for other, text in VIS_WORDS.items():
                if other != vis:
                    self.add(s, e, text, "visibility")


def mutants(path: str | Path) -> tuple[str, list[Mutant]]:
    """The text of a game file and its single-edit mutants, in file order."""
    loaded = load(path)
    name = loaded.path
    text = loaded.sources[name]
    zones: dict[str, bool] = {}
    for d in loaded.decls:
        if isinstance(d, A.ZoneDecl):
            zones[d.name] = d.index is not None
    g = _Gen(text, name, zones)
    for d in loaded.decls:
        g.decl(d)
    out: list[Mutant] = []
    counts: dict[str, int] = {}
    seen: set[tuple[int, int, str]] = set()
    for label, line, s, e, rep, kind in g.edits:
        if (s, e, rep) in seen:
            continue
        seen.add((s, e, rep))
        # the code around the edit, as the designer would quote it: two tokens each side
        ls = text.rfind("\n", 0, s) + 1
        le = text.find("\n", e)
        le = len(text) if le < 0 else le
        left = list(_TOKEN.finditer(text, ls, s))[-2:]
        right = list(_TOKEN.finditer(text, e, le))[:2]
        # not across a brace or a string: the context stays inside the rule's code
        right = right[:next((i for i, t in enumerate(right) if t.group()[0] in '{}"'),
                            len(right))]
        left = left[next((i + 1 for i in range(len(left) - 1, -1, -1)
                          if left[i].group()[0] in '{}"'), 0):]
        lo = left[0].start() if left else s
        hi = right[-1].end() if right else e
        before = _one_line(text[lo:hi])
        after = _one_line(text[lo:s] + rep + text[e:hi])
        if kind == "statement":
            before, after = _one_line(text[s:e]), "(deleted)"
        elif kind == "visibility":
            before, after = text[s:e], rep
        key = f"{label}: {before} -> {after}"
        counts[key] = counts.get(key, 0) + 1
        if counts[key] > 1:
            key += f" #{counts[key]}"
        out.append(Mutant(len(out), key, line, before, after, kind, s, e, rep))
        if len(out) >= MAX_MUTANTS:
            break
    return text, out


_TOKEN = re.compile(r'"[^"\n]*"|\w+|[^\w\s]+')


# ---------------------------------------------------------------------- judges
def fuzz_judge(seconds: float, seed: int) -> Judge:
    """Killed when a short `cardgame fuzz` finds a rule hole (the invariants, `expect
    never` among them, and every generic property)."""

    def judge(game: Game) -> str | None:
        from ..fuzz import fuzz

        rep = fuzz(game, seed=seed, seconds=seconds, database=None, write_replay=False,
                   shrink_seconds=0.01, max_moves=500)
        if rep.failure is None:
            return None
        return f"fuzz: {rep.failure.property}: {_one_line(rep.failure.message, 120)}"
    return judge


# the deals judge: the first state of at most this many deals (within its time)
DEALS = 300


def deals_judge(seconds: float, seed: int, deals: int = DEALS) -> Judge:
    """Killed when a declared invariant (`expect never` among them) fails on the first
    state of a deal, or the deal itself fails: at most `deals` deals drawn from `seed`,
    within `seconds` (at least one deal)."""

    def judge(game: Game) -> str | None:
        import random

        rng = random.Random(f"cardgame-mutate-deals/{seed}")
        end = time.perf_counter() + seconds
        for i in range(deals):
            if i and time.perf_counter() > end:
                break
            s = rng.getrandbits(32)
            try:
                st = game.new_state(s)
            except CardgameError as e:
                return f"deals: the deal of seed {s} fails: {_one_line(str(e), 100)}"
            bad = game.check_invariants(st)
            if bad:
                return f"deals: invariant '{bad[0]}' fails on the deal of seed {s}"
        return None
    return judge


Witnesses = dict[int, tuple[int, tuple[Move, ...]]]  # expectation -> (deal, moves)


def reach_judge(seconds: float, seed: int, witnesses: Witnesses) -> Judge:
    """Killed when an `expect sometimes` that the original game reaches (`witnesses`) has
    no witness in the mutant: the original's witness is replayed first, then a search
    for a new one."""

    def judge(game: Game) -> str | None:
        from .reachability import check_reachability, replays_to

        # only what the game itself was seen to reach: an expectation the original fails
        # (or whose witness its search did not find) says nothing about a mutant
        todo = [k for k in sorted(witnesses) if k < len(game.expectations)
                and not replays_to(game, k, *witnesses[k])]
        if not todo:
            return None
        found = check_reachability(game, seed=seed, seconds=seconds, max_moves=500,
                                   which=todo)
        for k in todo:
            r = found[k]
            if not r.ok:
                return (f"expect sometimes '{r.title}': " + (
                    "unreachable (a complete search)" if r.verdict == "unreachable" else
                    f"the game's witness no longer replays, and {WEAK} {seconds:g} s"))
        return None
    return judge


def examples_judge() -> Judge:
    """The game's examples (`cardgame test`): the first failing one kills the mutant."""
    from ..examples import run_examples

    def judge(game: Game) -> str | None:
        for o in run_examples(game):
            if not o.ok:
                return f"example '{o.name}' fails: " + _one_line(o.failures[0], 100) \
                    if o.failures else f"example '{o.name}' fails"
        return None
    return judge


# ---------------------------------------------------------------------- running
@attrs.frozen
class Task:
    """One mutant to judge, as a picklable value (a worker compiles it)."""

    path: str  # the original file (its folder resolves `extends`)
    text: str  # the mutant's text
    index: int
    players: int | None
    settings: tuple[tuple[str, str], ...]
    seconds: float
    seed: int
    witnesses: Witnesses


_TMP: list[Path] = []


def _scratch() -> Path:
    """One scratch folder per process for the mutants' text (so the AST cache keeps one
    slot for them, not one per mutant)."""
    if not _TMP:
        _TMP.append(Path(tempfile.mkdtemp(prefix="cardgame-mutate-")))
    return _TMP[0]


def compile_text(path: str, text: str, players: int | None,
                 settings: dict[str, str]) -> Game:
    """The game a mutant's text compiles to (its `extends` found beside the original)."""
    orig = Path(path)
    f = _scratch() / orig.name
    f.write_text(text, encoding="utf-8")
    # its relative `extends` and `use` are read beside the original, as the original's are
    loaded = load(f, allowed=(orig.resolve().parent,), home=orig.resolve().parent)
    return compile_loaded(loaded, players, settings)


def judges_for(seconds: float, seed: int, witnesses: Witnesses) -> list[Judge]:
    out = [fuzz_judge(seconds * 0.5, seed), reach_judge(seconds * 0.5, seed, witnesses)]
    return [examples_judge(), deals_judge(seconds * 0.25, seed), *out]


def judge_task(task: Task) -> tuple[str, str, float]:
    """(status, reason, seconds) of one mutant."""
    t0 = time.perf_counter()
    try:
        game = compile_text(task.path, task.text, task.players, dict(task.settings))
    except (Diagnostic, CardgameError, RecursionError) as e:
        msg = e.message if isinstance(e, Diagnostic) else str(e)
        return STILLBORN, _one_line(msg, 120), time.perf_counter() - t0
    for j in judges_for(task.seconds, task.seed + task.index, task.witnesses):
        try:
            why = j(game)
        except CardgameError as e:
            why = f"a rule error: {_one_line(str(e), 120)}"
        if why:
            # spans name the scratch copy: name the game file instead
            why = why.replace(str(_scratch() / Path(task.path).name), task.path)
            return KILLED, why, time.perf_counter() - t0
    return SURVIVED, "", time.perf_counter() - t0


@attrs.define
class MutationRun:
    game: str
    path: str
    verdicts: list[Verdict]
    seconds: float
    unused_marks: list[str] = attrs.field(factory=list)  # `equivalent` names no mutant has
    # where each of those marks is, `file:line:col` (the same order)
    unused_where: list[str] = attrs.field(factory=list)
    warnings: list[str] = attrs.field(factory=list)

    def count(self, status: str) -> int:
        return sum(v.status == status for v in self.verdicts)

    @property
    def weak_kills(self) -> int:
        """Killed only because no witness was found within the budget (not a proof)."""
        return sum(v.status == KILLED and WEAK in v.reason for v in self.verdicts)

    @property
    def score(self) -> float | None:
        judged = self.count(KILLED) + self.count(SURVIVED)
        return self.count(KILLED) / judged if judged else None


def mutate(game: str | Path, *, players: int | None = None,
           settings: dict[str, str] | None = None, seconds: float = 2.0, seed: int = 0,
           runner: Any = None, progress: Callable[[int, int], None] | None = None,
           reach_seconds: float = 60.0, only: Sequence[int] | None = None,
           cache: str | Path | None = None) -> MutationRun:
    """Every single-edit mutant of a game file judged (see the module's docstring).
    `seconds` per mutant (half to a short fuzz, half to the reachability search);
    `runner` (analysis.parallel) spreads the mutants over processes. `only`: the indices
    of the mutants to judge (tests). `cache`: where the original's witnesses are kept
    (`cardgame fuzz` keeps them in `.cardgame/witnesses`)."""
    from ..lang import resolve_game
    from .parallel import Runner
    from .reachability import check_reachability

    t0 = time.perf_counter()
    path = str(resolve_game(str(game)))
    settings = dict(settings or {})
    original = compile_text(path, Path(path).read_text(encoding="utf-8"), players, settings)
    text, ms = mutants(path)
    names = {m.name for m in ms}  # every mutant's, judged or not (`only`)
    if only is not None:
        ms = [ms[i] for i in only]
    run = MutationRun(original.name, str(game), [], 0.0)  # the game as the user named it
    # the original's witnesses: a mutant that still reaches them is judged at once
    witnesses: Witnesses = {}
    if original.expectations:
        found = check_reachability(original, seed=seed, seconds=reach_seconds,
                                   cache=cache)
        for k, r in enumerate(found):
            if r.ok and r.seed is not None:
                witnesses[k] = (r.seed, r.moves)
            else:
                run.warnings.append(f"the game itself has no witness of '{r.title}' within "
                                    f"{reach_seconds:g} s: its mutants are judged without it")
    marks = {e.mutant: e for e in original.checked.equivalents}
    tasks = []
    for m in ms:
        if m.name not in marks:
            tasks.append(Task(path, m.apply(text), m.index, players,
                              tuple(sorted(settings.items())), seconds, seed, witnesses))
    runner = runner or Runner()
    total = len(tasks)

    finished = [0]

    def done(i: int, _: Any) -> None:
        finished[0] += 1
        if progress is not None:
            progress(finished[0], total)
    results = iter(runner.map(judge_task, tasks, done))
    for m in ms:
        if m.name in marks:
            run.verdicts.append(Verdict(m, EQUIVALENT, marks[m.name].reason))
        else:
            status, why, secs = next(results)
            run.verdicts.append(Verdict(m, status, why, secs))
    # a mark inherited through `extends` was written for the parent's mutants, where it is
    # checked: this file's mutants are its own edits only, so it is no warning here
    here = (_scratch() / Path(path).name).resolve()  # the copy the original compiled from
    for n, e in marks.items():
        if n not in names and Path(e.span.file).resolve() == here:
            run.unused_marks.append(n)
            run.unused_where.append(f"{run.path}:{e.span.line}:{e.span.column}")
    run.seconds = time.perf_counter() - t0
    return run


# ---------------------------------------------------------------------- report
def mutation_text(run: MutationRun, verbose: bool = False) -> str:
    lines = [f"{run.game}: {len(run.verdicts)} mutants of {run.path}"]
    lines += [f"warning: {w}" for w in run.warnings]
    for v in run.verdicts:
        m = v.mutant
        if v.status == SURVIVED:
            lines.append(f"line {m.line}: `{m.before}` -> `{m.after}` survives: nothing you "
                         "declared notices")
            lines.append(f"    mark it, if it is the same game: equivalent \"{m.name}\" "
                         "\"why\"")
        elif verbose and v.status == KILLED:
            lines.append(f"line {m.line}: `{m.before}` -> `{m.after}` killed: {v.reason}")
        elif verbose and v.status == STILLBORN:
            lines.append(f"line {m.line}: `{m.before}` -> `{m.after}` stillborn: {v.reason}")
    eq = [v for v in run.verdicts if v.status == EQUIVALENT]
    if eq:
        lines.append("equivalent (marked in the file):")
        lines += [f"  line {v.mutant.line}: `{v.mutant.before}` -> `{v.mutant.after}`: "
                  f"{v.reason}" for v in eq]
    for n, at in zip(run.unused_marks, run.unused_where, strict=True):
        lines.append(f"{at}: warning: `equivalent \"{n}\"` names no mutant of this file "
                     "(the code it names changed: remove the mark, or mark the new mutant)")
    k, s, sb, e = (run.count(KILLED), run.count(SURVIVED), run.count(STILLBORN),
                   run.count(EQUIVALENT))
    score = run.score
    weak = run.weak_kills
    if weak:
        lines.append(f"note: {weak} of the {k} killed lost the game's witness of an `expect "
                     "sometimes` and no new one was found in the time given: evidence, not "
                     "proof (a longer --seconds may let some survive)")
    lines.append(f"score: {k}/{k + s} killed"
                 + (f" = {100 * score:.1f}%" if score is not None else "")
                 + f" ({len(run.verdicts)} mutants: {k} killed, {s} survived, {sb} stillborn, "
                 f"{e} equivalent; {run.seconds:.0f} s)")
    return "\n".join(lines)


def mutation_json(run: MutationRun) -> dict[str, Any]:
    return {"game": run.game, "path": run.path, "score": run.score,
            "killed": run.count(KILLED), "survived": run.count(SURVIVED),
            "killed_without_proof": run.weak_kills,
            "stillborn": run.count(STILLBORN), "equivalent": run.count(EQUIVALENT),
            "seconds": round(run.seconds, 2), "warnings": run.warnings,
            "unused_equivalent_marks": run.unused_marks,
            "mutants": [{"name": v.mutant.name, "line": v.mutant.line,
                         "kind": v.mutant.kind, "before": v.mutant.before,
                         "after": v.mutant.after, "status": v.status, "reason": v.reason,
                         "seconds": round(v.seconds, 3)} for v in run.verdicts]}
