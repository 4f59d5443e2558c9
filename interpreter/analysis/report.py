"""A simulation's record as the text `cardgame simulate` prints."""

from __future__ import annotations

from typing import Any


def simulation_text(r: dict[str, Any]) -> str:
    """The report of `simulate(...)`, one figure a line."""
    # options print as the game holds them (a bool as True/False), as they always have
    opts = ", ".join(f"{k}={v}" for k, v in r["options"].items())
    players = r["players"]
    lines = [f"{r['game']}: {r['games']} random games, seed {r['seed']}"
             + (f", {players} players" if players > 1 else "") + (f" ({opts})" if opts else ""),
             f"  games/s        {r['games_per_second']:,.1f}",
             f"  moves/s        {r['moves_per_second']:,.0f}",
             f"  average moves  {r['average_moves']:.1f} (longest {r['longest_game']})"]
    if players == 1:
        lines.append(f"  win rate       {100 * r['win_rate'][0]:.2f}%")
        lines.append(f"  average score  {r['average_score'][0]:.2f}")
    else:
        for p in range(players):
            lines.append(f"  P{p + 1}: win rate {100 * r['win_rate'][p]:.1f}%"
                         f" (shared {100 * r['draw_rate'][p]:.1f}%), average score "
                         f"{r['average_score'][p]:.2f}")
    for key, label in (("rule_errors", "rule errors"), ("dead_ends", "dead ends"),
                       ("unfinished", "unfinished (hit --max-moves)")):
        if r[key]:
            lines.append(f"  {label}: {r[key]}")
    lines += [f"  {e}" for e in r["first_errors"]]
    return "\n".join(lines)
