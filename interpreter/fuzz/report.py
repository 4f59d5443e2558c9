"""What `cardgame fuzz` found: the `FuzzReport`, its text and JSON forms, the warnings
about dead rules, and the counterexample written as a replay file that
`cardgame play --replay FILE` steps through."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs

from ..engine import Game, Move, Walker
from ..errors import CardgameError, RuleError
from ..observe import history
from ..options import option_text
from ..terminal import counted, listed
from .fast import FAST_CHECKED, FAST_SAMPLED, FULL_ONLY, REPLAY_EVERY
from .playthrough import PROPERTIES, Counterexample, Coverage, vars_of, zones_text
from .story import STOPS, Story

LIST_MOVES = 60  # a text report lists at most this many moves (the first and last half)


@attrs.define
class FuzzReport:
    game_ref: str
    title: str
    players: int
    options: dict[str, str]
    seed: int | None
    max_moves: int
    seconds: float
    coverage: Coverage
    failure: Counterexample | None = None
    replay_path: str | None = None
    replay_ok: bool | None = None  # did the written replay reproduce the failing state?
    shrunk: bool = False  # was the counterexample shrunk (not when its playthrough is long)
    story: Story | None = None  # how long it was when found, and what stopped the shrinking
    warnings: list[str] = attrs.field(factory=list)
    move_texts: list[str] = attrs.field(factory=list)  # of failure.moves: "p1 draw"
    failing_move_text: str | None = None  # "p1 discard 4"
    move_pairs: list[tuple[int, str]] = attrs.field(factory=list)  # (1, "draw")
    failing_pair: tuple[int, str] | None = None
    state_zones: list[tuple[str, list[str]]] = attrs.field(factory=list)
    state_vars: dict[str, Any] = attrs.field(factory=dict)
    state_info: dict[str, Any] = attrs.field(factory=dict)

    @property
    def ok(self) -> bool:
        return self.failure is None

    @property
    def moves_per_second(self) -> float:
        """Checked moves per second: the full playthroughs' and the fast walks'."""
        c = self.coverage
        return (c.moves + c.fast_moves) / self.seconds if self.seconds > 0 else 0.0

    @property
    def full_seconds(self) -> float:
        """The time of the full playthroughs: all but the fast walks' (the database's
        replay and the shrinking included)."""
        return max(0.0, self.seconds - self.coverage.fast_seconds)


def default_replay_path(game_ref: str) -> Path:
    stem = Path(str(game_ref)).name
    if stem.endswith(".cardgame"):
        stem = stem[: -len(".cardgame")]
    safe = "".join(ch if ch.isalnum() or ch in "-_." else "-" for ch in stem) or "game"
    return Path(".cardgame") / f"counterexample-{safe}.json"


def coverage_warnings(g: Game, cov: Coverage, complete: bool) -> list[str]:
    """Dead rules (moves never legal, choices never reached), after a run that found
    nothing (a run stopped by a failure has not seen enough to call a rule dead)."""
    out: list[str] = []
    for _text, why in sorted(cov.ambiguous.items()):
        out.append(f"ambiguous move text: {why}; a replay takes the first")
    out += cov.fast_unconfirmed
    if cov.games == 0 or not complete:
        return out
    opts = ", ".join(f"{k}={option_text(v)}" for k, v in g.options.items())
    games = (f"{cov.games:,} game{'s' if cov.games != 1 else ''} ({g.players} player"
             f"{'s' if g.players != 1 else ''}" + (f", {opts}" if opts else "") + ")")
    fast = (f" nor played in {cov.fast_games:,} fast walk{'s' if cov.fast_games != 1 else ''}"
            if cov.fast_games else "")
    for mid, name in enumerate(g.move_names[:-1]):
        if mid not in cov.legal and mid not in cov.fired:
            decl = g.checked.moves.get(name)
            where = f" ({decl.span})" if decl is not None and decl.span.line else ""
            out.append(f"move `{name}`{where} was never legal in {games}"
                       + (f",{fast}" if fast else "") + ": a dead rule?")
    for node, d in sorted(g.decisions.items()):
        if node not in cov.decisions:
            alts = " | ".join(g.move_names[a] for a in d.alts)
            where = f" at {d.span}" if d.span.line else ""
            out.append(f"the choice of `{alts}`{where} was never reached in {games}"
                       + (f" nor in {cov.fast_games:,} fast walks" if cov.fast_games else ""))
    if cov.cut:
        out.append(f"{cov.cut:,} playthrough{'s' if cov.cut != 1 else ''} reached --max-moves "
                   f"before the game's declared limit of {g.limit} moves (not checked further)")
    return out


def describe(g: Game, report: FuzzReport, cx: Counterexample) -> None:
    report.move_pairs = [_mpair(g, m) for m in cx.moves]
    report.move_texts = [f"p{p} {t}" for p, t in report.move_pairs]
    if cx.failing_move is not None:
        report.failing_pair = _mpair(g, cx.failing_move)
        report.failing_move_text = f"p{report.failing_pair[0]} {report.failing_pair[1]}"
    st = cx.state
    if st is not None:
        report.state_zones = zones_text(g, st)
        report.state_vars = vars_of(g, st)
        report.state_info = {
            "to_move": list(g.to_move(st)), "phase": g.phase(st),
            "ended": g.end_reason(st), "moves_played": len(cx.moves)}


def _mpair(g: Game, m: Move) -> tuple[int, str]:
    try:
        return m[0], g.move_text(m)
    except Exception:  # a malformed probe (an unknown move number)
        return m[0], repr(m)


def save_replay(g: Game, report: FuzzReport, cx: Counterexample, path: Path) -> None:
    from ..engine import replay as R

    note = f"cardgame fuzz: {cx.property}: {cx.message}"
    if report.failing_move_text:
        note += f" (then: {report.failing_move_text})"
    rp = R.from_game(g, report.game_ref, cx.seed, cx.moves, settings=report.options, note=note)
    if cx.property == "leak" and cx.player is not None:
        # what the seat concerned had observed, for the designer to read beside the leak
        try:
            rp.observations = {cx.player: [o.to_data() for o in history(
                g, cx.seed, cx.moves, cx.player)]}
        except CardgameError:
            pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        rp.save(path)
    except (OSError, CardgameError) as e:
        report.warnings.append(f"the counterexample could not be written to {path}: {e}")
        return
    report.replay_path = str(path)
    # the replay must reach the state where the property failed; where the deal itself
    # failed (no state), it must fail at the deal the same way
    try:
        back = R.load(path)
        states = back.states(g)
        report.replay_ok = cx.state is not None and states[-1] == cx.state
    except RuleError:
        report.replay_ok = cx.state is None and not cx.moves
    except CardgameError:
        report.replay_ok = False


# ---------------------------------------------------------------------- reports
def format_report(r: FuzzReport) -> str:
    c = r.coverage
    lines = []
    opts = ", ".join(f"{k}={v}" for k, v in r.options.items())
    head = (f"cardgame fuzz: {r.game_ref} ({r.title}), {r.players} player"
            f"{'s' if r.players != 1 else ''}" + (f", {opts}" if opts else "")
            + (f", seed {r.seed}" if r.seed is not None else ""))
    lines.append(head)
    rate = f"{r.moves_per_second:,.0f} moves/s"
    if not c.fast_games:
        lines.append(f"  {counted(c.games, 'game')}, {counted(c.moves, 'move')} ({rate}), "
                     f"{counted(c.checks, 'property')} checked in {r.seconds:.1f} s; longest game "
                     f"{counted(c.longest, 'move')}")
    else:
        lines += fast_lines(r)
    endings = dict(c.endings)
    for why, n in c.fast_endings.items():  # (as the state records them: in words here)
        endings[Game.reason_text(why)] = endings.get(Game.reason_text(why), 0) + n
    if endings or c.timed_out:
        ends = ", ".join([f"{n:,} {why!r}" for why, n in sorted(endings.items(),
                                                                 key=lambda kv: -kv[1])]
                         + ([f"{c.timed_out:,} cut short when the time ran out"]
                            if c.timed_out else []))
        lines.append(f"  endings: {ends}")
    cx = r.failure
    if cx is None:
        lines.append("no rule hole found")
    else:
        lines.append("")
        lines.append(f"FAILED: {cx.property}: {PROPERTIES.get(cx.property, '')}")
        lines.append(f"  {cx.message}")
        st = r.story
        # the games after the find that were played in full (Hypothesis's shrinking, the
        # story search's checked candidates): counted in the lines above; the story
        # search's quick walks (one property checked) are not
        full_after = c.games - c.found_after
        if c.found_after:
            found = (f" ({counted(st.found_moves, 'move')}, deal seed {st.found_seed})"
                     if st is not None else "")
            where = (f"by fast walk {c.found_by_fast:,}{found}, confirmed by its full replay "
                     f"(game {c.found_after:,})" if c.found_by_fast
                     else f"in game {c.found_after:,}{found}")
            lines.append(f"  found {where}"
                         + (f", then shrunk over {counted(full_after, 'more game')}"
                            if r.shrunk and st is None else ""))
        if st is not None:
            why = STOPS.get(st.stop, st.stop)
            if st.stop == "minimal" and st.property == "no-termination":
                why += " (a game that does not end is --max-moves moves long)"
            lines.append(f"  shrunk from {st.found_moves} to {st.shrunk_moves} moves (Hypothesis: "
                         f"{st.hypothesis_moves}; then {counted(st.games, 'game')} on other deals "
                         f"in {st.seconds:.1f} s); stopped by {why}")
            if c.found_after and cx.seed != st.found_seed:
                # the search on other deals kept one as short or shorter: say that the
                # seed below is not the one above
                lines.append(f"  the playthrough below is on another deal (seed {cx.seed}), "
                             f"as short or shorter: the deal first found was seed "
                             f"{st.found_seed}")
            if c.found_after:
                quick = st.games - full_after  # at least: full_after has Hypothesis's too
                lines.append(f"  shrinking played {counted(full_after, 'game')} in full, every "
                             "property checked (counted above)"
                             + (f", and at least {counted(quick, 'quick walk')} that check "
                                "only this property (not counted above)" if quick > 0 else ""))
        lines.append(f"  game {r.game_ref}, {counted(r.players, 'player')}"
                     + (f", options {opts}" if opts else "") + f", deal seed {cx.seed}")
        n = len(r.move_texts)
        extra = 1 if r.failing_move_text else 0
        what = ("shortest playthrough found" if r.shrunk else
                "playthrough (not shrunk: no time was given to shrinking)")
        lines.append(f"  {what}: {n + extra} move{'s' if n + extra != 1 else ''}")
        for i, t in enumerate(r.move_texts, 1):
            if n > LIST_MOVES and LIST_MOVES // 2 < i <= n - LIST_MOVES // 2:
                if i == LIST_MOVES // 2 + 1:
                    lines.append(f"          ... {n - LIST_MOVES} more moves (all of them are "
                                 "in the replay file) ...")
                continue
            mark = ""
            if cx.cycle is not None and cx.cycle[0] < i <= cx.cycle[1]:
                mark = "   <- cycle"
            lines.append(f"    {i:>4}. {t}{mark}")
        if r.failing_move_text:
            verb = ("is accepted" if cx.property == "illegal-move-accepted"
                    else "fails")
            lines.append(f"    {n + 1:>4}. {r.failing_move_text}   <- {verb}")
        if cx.state is None:
            lines.append("  (the deal itself failed: no state)")
        else:
            info = r.state_info
            lines.append(f"  state {'after move ' + str(n) if n else 'after the deal'}"
                         + (f", phase '{info['phase']}'" if info.get("phase") else "")
                         + (f", ended: {info['ended']}" if info.get("ended") else
                            f", to decide: {', '.join('p' + str(p) for p in info['to_move'])}"))
            width = max((len(z) for z, _ in r.state_zones), default=4)
            for z, cards in r.state_zones:
                lines.append(f"    {z:<{width}}  " + (" ".join(cards) if cards else "-"))
            for k, v in r.state_vars.items():
                lines.append(f"    {k:<{width}}  {v}")
        if r.replay_path:
            ok = "" if r.replay_ok in (None, True) else "  (WARNING: it does not replay exactly)"
            lines.append(f"  replay: {r.replay_path}{ok}")
            lines.append(f"    cardgame play --replay {r.replay_path}")
    for w in r.warnings:
        lines.append(f"warning: {w}")
    return "\n".join(lines)


def _rate(moves: int, seconds: float) -> float:
    return moves / seconds if seconds > 0 else 0.0


def leak_on_walks(c: Coverage) -> str:
    """What the fast walks say of the leak property."""
    if c.fast_games and not c.fast_moves:
        # not "vacuous": no walk made a move (the deal failed, or the game ended at once),
        # so no seat decided anything to be checked
        return "no moves"
    if c.fast_games and c.fast_open == c.fast_games:
        return "vacuous"  # every seat saw every card at every decision of every walk
    if c.fast_leak:
        return "one seat per walk"  # (in turn; engine/walk.py's shadow worlds)
    return "full playthroughs only"  # (the rules turn cards one by one)


def walks_checked(c: Coverage) -> tuple[list[str], list[str]]:
    """The properties the fast walks checked on every step, and those left to the full
    playthroughs."""
    leak = leak_on_walks(c)
    checked = [p for p in FAST_CHECKED if p != "leak" or leak == "one seat per walk"]
    # ("no moves": nothing to check on the walks, nor left for the full playthroughs)
    return checked, [*FULL_ONLY, *(["leak"] if leak == "full playthroughs only" else [])]


def fast_lines(r: FuzzReport) -> list[str]:
    """The text report's lines on the two kinds of games the search played."""
    c = r.coverage
    n = c.games + c.fast_games
    leak = leak_on_walks(c)
    _, others = walks_checked(c)
    but = listed(others)
    if leak == "no moves":
        said = "; leak had nothing to check on them (no walk made a move)"
    elif leak == "vacuous":
        said = "; leak cannot happen on them (every seat saw every card at every decision)"
    elif leak == "one seat per walk":
        said = (f"; leak for one seat per walk, in turn ({c.fast_leak:,} walks with a "
                "shadow world)")
    else:
        said = ""
    return [
        f"  full playthroughs: {counted(c.games, 'game')}, {counted(c.moves, 'move')} "
        f"({_rate(c.moves, r.full_seconds):,.0f} moves/s), every property on every step "
        f"and on every state one move aside; {c.checks:,} properties checked",
        f"  fast walks: {counted(c.fast_games, 'game')}, {counted(c.fast_moves, 'move')} "
        f"({_rate(c.fast_moves, c.fast_seconds):,.0f} moves/s), every property checked on "
        f"every step but {but} (the full playthroughs' alone), legal-move-fails for the "
        f"move played only{said}; json on every {Walker.json_every}th state and the last of every "
        f"{REPLAY_EVERY}nd walk, that walk played twice for nondeterminism "
        f"({counted(c.fast_replayed, 'walk')})",
        f"  in all: {counted(n, 'game')}, {counted(c.moves + c.fast_moves, 'move')} "
        f"({r.moves_per_second:,.0f} moves/s) in {r.seconds:.1f} s; longest game "
        f"{counted(c.longest, 'move')}"]


def report_json(r: FuzzReport) -> dict[str, Any]:
    c = r.coverage
    out: dict[str, Any] = {
        "format": "cardgame-fuzz-report", "version": 1,
        "game": r.game_ref, "title": r.title, "players": r.players, "options": r.options,
        "seed": r.seed, "max_moves": r.max_moves, "ok": r.ok,
        "games": c.games, "moves": c.moves, "properties_checked": c.checks,
        "seconds": round(r.seconds, 3), "moves_per_second": round(r.moves_per_second, 1),
        "longest_game": c.longest, "endings": c.endings, "timed_out": c.timed_out,
        "warnings": r.warnings,
        "found_in_game": c.found_after or None, "shrunk": r.shrunk,
        "found_by_fast_walk": c.found_by_fast or None,
        "full_playthroughs": {
            "games": c.games, "moves": c.moves, "seconds": round(r.full_seconds, 3),
            "moves_per_second": round(_rate(c.moves, r.full_seconds), 1),
            "checked": sorted(PROPERTIES)},
        "fast_walks": {
            "games": c.fast_games, "moves": c.fast_moves, "seconds": round(c.fast_seconds, 3),
            "moves_per_second": round(_rate(c.fast_moves, c.fast_seconds), 1),
            "checked": walks_checked(c)[0], "sampled": list(FAST_SAMPLED),
            "leak": leak_on_walks(c), "full_playthroughs_only": walks_checked(c)[1],
            "leak_walks": c.fast_leak, "replayed_walks": c.fast_replayed,
            "open_walks": c.fast_open, "endings": {Game.reason_text(k): n for k, n in c.fast_endings.items()},
            "unconfirmed": c.fast_unconfirmed},
        "story": None if r.story is None else r.story.to_data(),
        "failure": None,
    }
    cx = r.failure
    if cx is not None:
        out["failure"] = {
            "property": cx.property, "promise": PROPERTIES.get(cx.property, ""),
            "message": cx.message, "seed": cx.seed,
            "moves": [{"player": p, "move": t} for p, t in r.move_pairs],
            "failing_move": None if r.failing_pair is None else {
                "player": r.failing_pair[0], "move": r.failing_pair[1]}, "cycle": list(cx.cycle) if cx.cycle else None,
            "player": cx.player,
            "state": None if cx.state is None else {
                "zones": dict(r.state_zones), "vars": r.state_vars, **r.state_info},
            "replay": r.replay_path, "replay_ok": r.replay_ok,
        }
    return out
