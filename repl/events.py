"""What the event pane says, from the session's steps as the viewer observed them.

- `placed`: for each zone the game labels `by player` (a trick), the seat that put each
  card there, from the steps' MOVE observations (engine events, `observe.observe_step`).
- `last_gathered`: the last time such a zone was emptied (a completed trick): its cards
  with who played each, and where they went (`taken-p4`: p4 took it).
- `since_decision`: the words of every step since the person's last decision (their own
  move included), so that the result of a trick or of a whole deal stays on screen until
  the person decides again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardgame.interpreter.observe import observe_step

SCAN = 400  # steps looked back at most: a trick or a deal is far shorter


def _obs(sess: Any, step: Any, viewer: int | None) -> tuple[Any, ...]:
    if not step.observed:
        return ()
    return observe_step(sess.game, step.observed, viewer)


def _who(sess: Any, p: int) -> str:
    if p in sess.seats and len(sess.seats) == 1 and not sess.spectator:
        return "you"
    return f"p{p}"


def placed(sess: Any, zones: set[str], viewer: int | None) -> dict[str, dict[str, str]]:
    """zone -> card text -> who put it there, for the cards now in each zone."""
    out: dict[str, dict[str, str]] = {z: {} for z in zones}
    if not zones:
        return out
    open_zones = set(zones)
    for step in reversed(sess.steps[-SCAN:]):
        for o in reversed(_obs(sess, step, viewer)):
            if o.kind != "move":
                continue
            if o.src in open_zones:  # the zone was emptied here: older cards are gone
                open_zones.discard(o.src)
            if o.dst in open_zones and o.card not in out[o.dst]:
                out[o.dst][o.card] = _who(sess, o.actor)
        if not open_zones:
            break
    return out


def last_gathered(sess: Any, zone: str, viewer: int | None) -> str:
    """`last trick: p3 3♣, p4 4♣, you 8♣, p2 2♣ — p1 took it`, or '' before the first."""
    steps = sess.steps[-SCAN:]
    for i in range(len(steps) - 1, -1, -1):
        obs = _obs(sess, steps[i], viewer)
        gone = [o for o in obs if o.kind == "move" and o.src == zone]
        if not gone:
            continue
        who: dict[str, str] = {}
        for step in reversed(steps[:i + 1]):
            for o in reversed(_obs(sess, step, viewer)):
                if o.kind == "move" and o.dst == zone and o.card not in who:
                    who[o.card] = _who(sess, o.actor)
        cards = ", ".join(f"{who.get(o.card, '?')} {o.card}" for o in gone)
        dest = {o.dst for o in gone}
        taker = ""
        if len(dest) == 1:
            target = dest.pop()
            z = next((z for z in sess.game.zones if z.name == target), None)
            if z is not None and z.owner:
                taker = f" — {_who(sess, z.owner)} took it"
            elif z is not None:
                taker = f" — to {sess.game.checked.zones[z.decl].label}"
        label = sess.game.checked.zones[zone].label
        return f"last {label}: {cards}{taker}"
    return ""


def since_decision(sess: Any, viewer: int | None) -> list[str]:
    """The step lines from the person's last decision on (its own move included)."""
    steps: Sequence[Any] = sess.steps
    first = next((i for i in range(len(steps) - 1, -1, -1) if steps[i].by == "you"), None)
    if first is None:
        return sess.event_lines(viewer)  # the setup and everything so far
    lines: list[str] = []
    for i in range(first, len(steps)):
        lines += sess.step_lines(i, viewer)
    if sess.conceded is not None:
        lines.append(f"{sess.who(sess.conceded.seat)}: conceded")
    return lines
