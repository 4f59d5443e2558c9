"""Experiments on the search bots that `benchmarks/bots.py match --set` cannot express:
a variant of the search patched in for one run, and the paired difference of two runs.
A benchmark, not a bot: no variant here is reachable from `cardgame`, and every figure it
gives is an experiment's (docs/bots.md, "Interaction 4p: more screens (fourteenth session)").

    python benchmarks/bot_variants.py VARIANT --out FILE match GAME [bots.py match options]
    python benchmarks/bot_variants.py paired BASE.jsonl VARIANT.jsonl ...

VARIANT is one of:

- `base`: the search as it is (the run the others are paired with);
- `depth5`: `ismcts-lead`'s rollouts cut after 5 moves, not one round of 4: the seat's
  own next move (as greedy plays it) counts;
- `soft3`: a cut rollout scored by each player's chance of first place if every score
  moved by an independent normal of standard deviation 3 chips (the product of the
  pairwise chances), instead of the mix of ranks and squashed lead;
- `termcut`: a rollout that reaches the end scored as a cut one is (ranks and squashed
  lead of the final scores), not by the win share.

Run it with `--jobs 1` (the default): the patches are made in this process.

`--out FILE` appends one line per game: `[deal, results, CPU seconds, scores, the bot's
seat (0-based)]`; `paired`
reads two or more such files and prints, over the deals both played, each variant's win
share against the base's, their mean difference with its normal 95% interval, and the
share of games whose outcome for the bot's seat is the same.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

VARIANTS = ("base", "depth5", "soft3", "termcut")


def patch(variant: str) -> None:
    from cardgame.interpreter.bots import ismcts, mcts

    if variant == "depth5":
        init = ismcts.IsmctsLeadBot.__init__

        def deeper(self: Any, *a: Any, **k: Any) -> None:
            init(self, *a, **k)
            self.depth = 5
        ismcts.IsmctsLeadBot.__init__ = deeper
    elif variant in ("soft3", "termcut"):
        reward = mcts.MctsBot.reward

        def patched(self: Any, game: Any, end: Any, single: bool) -> list[float]:
            if single or game.is_terminal(end) != (variant == "termcut"):
                return reward(self, game, end, single)
            low = mcts._lowest(game)
            scores = game.scores(end)
            if variant == "termcut":
                ranks = mcts.rank_values(scores, lowest=low)
                lead = mcts.margins(scores, low)
                return [(r + m) / 2 for r, m in zip(ranks, lead, strict=True)]
            out = []
            for i, a in enumerate(scores):
                p = 1.0
                for j, b in enumerate(scores):
                    if i != j:  # P(a + X > b + Y), X, Y ~ N(0, 3^2)
                        p *= 0.5 * (1 + math.erf((a - b) * (-1 if low else 1) / (3.0 * 2)))
                out.append(p)
            return out
        mcts.MctsBot.reward = patched


def shares(path: str) -> dict[int, tuple[float, float]]:
    """The bot seat's share of each deal's win (a k-way tie 1/k), and the game's CPU."""
    out = {}
    for line in Path(path).read_text().splitlines():
        deal, res, cpu, _, seat = json.loads(line)
        r = res[seat]
        k = sum(x in ("win", "draw") for x in res)
        out[deal] = (1 / k if r in ("win", "draw") else 0.0, cpu)
    return out


def paired(base_path: str, others: list[str]) -> None:
    base = shares(base_path)
    for path in others:
        v = shares(path)
        common = sorted(set(base) & set(v))
        n = len(common)
        if n < 2:
            print(f"{path}: fewer than 2 deals in common with {base_path}")
            continue
        d = [v[k][0] - base[k][0] for k in common]
        m = sum(d) / n
        h = 1.96 * math.sqrt(sum((x - m) ** 2 for x in d) / (n - 1) / n)
        same = sum(x == 0 for x in d)
        print(f"{path}: {n} deals; win share {sum(v[k][0] for k in common) / n:.1%} against "
              f"{sum(base[k][0] for k in common) / n:.1%}; difference {m:+.1%} "
              f"(95% CI {m - h:+.1%} to {m + h:+.1%}); same outcome in {same}/{n}")


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["paired"] and len(args) >= 3:
        paired(args[1], args[2:])
        return
    if len(args) < 4 or args[0] not in VARIANTS or args[1] != "--out":
        raise SystemExit(__doc__)
    variant, out = args[0], args[2]
    rest = args[3:]
    if "--jobs" in rest and rest[rest.index("--jobs") + 1:][:1] != ["1"]:
        raise SystemExit("bot_variants.py: --jobs 1 only (the variant is patched in here)")
    patch(variant)
    import bots as B

    task = B._task
    # `bots.py match` seats the bot at i % P in game i, deal `--seed` + i (default 1)
    first = int(rest[rest.index("--seed") + 1]) if "--seed" in rest else 1

    def recorded(a: Any) -> Any:
        r = task(a)
        deal, res, cpu, scores, _ = r
        with open(out, "a") as f:
            f.write(json.dumps([deal, res, cpu, scores, (deal - first) % len(res)]) + "\n")
        return r
    B._task = recorded
    sys.argv = [sys.argv[0], *rest]
    B.main()


if __name__ == "__main__":
    main()
