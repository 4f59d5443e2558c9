"""How strong and how fast the search bots are: the figures docs/bots.md quotes.

    python benchmarks/bots.py calculation [--games N] [--bot NAME] [--jobs J]
    python benchmarks/bots.py match GAME [--players P] [--bot NAME] [--against NAME]
                                         [--games N] [--jobs J] [--record]
    python benchmarks/bots.py speed [--seconds S]
    python benchmarks/bots.py infer GAME [--players P] [--games N] [--after K ...]
                                         [--draws D] [--temperature T]

- `calculation`: the bot's win rate over N seeded deals (deal i has seed S+i), with
  Wilson's 95% interval.
- `match`: one seat played by `--bot`, the others by `--against`; game i puts the bot in
  seat i mod P + 1 (rotating seats), deal seed S+i. Prints the bot's **win share** (a
  first place shared by k players counts 1/k, so the seats' shares add up to 1 and a fair
  share is 1/P), with a normal 95% interval over the games; and its first places (sole or
  shared) and sole wins, each with Wilson's 95% interval. First places are not a share:
  where ties for first are common (Interaction), an equal seat takes more than 1/P of
  them (greedy against greedy in Interaction 4p: 35.4% first places, 22.8% win share).
- `--record` (calculation, match): the search bots are given the game's record (the deal
  seed and the moves so far), as `cardgame simulate` and the REPL give it, and draw their
  worlds from the seat's whole observation history; without it (the figures before the
  sixth session) they deal them from the seat's present view.
- `--set NAME=VALUE` (calculation, match, repeatable): an experiment's switch: a class
  attribute of the search bot `--bot` names (`--set infer=64 --set temperature=0.5`),
  or a constant of `interpreter/bots/mcts.py` (`--set mcts.CUT_ROUNDS=1000`), set
  before the games start. The bots' defaults are the registry's; a figure measured
  with `--set` is an experiment's, not a bot's.
- `infer`: how much the `greedy` opponent model (`sampling.move_loglik`) tells of the
  other seats' hands: in games of `greedy` seats, after K moves, the share of the other
  seats' hand cards that a world puts in the right hand, for worlds dealt from the
  present view, drawn from the seat's history, and drawn from it and weighted by the
  model (sample-importance-resample, D draws at temperature T), with 95% intervals
  over the positions. Worlds only read what the seat saw; the benchmark compares them
  with the true hands.
- `speed`: search iterations per second of `mcts` and `ismcts` on each bundled game, from
  a few positions of a random game, and a profile of one search (where the time goes).

A benchmark, not a test: it never fails on a figure. The same arguments give the same
games (the bots' budgets are in iterations).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import random
import sys
import time
from collections.abc import Iterator, Sequence
from multiprocessing import Pool
from typing import Any

from cardgame.interpreter.bots import choose_move, make_bot
from cardgame.interpreter.engine import Game, compile_game
from cardgame.interpreter.intervals import wilson

MAX_MOVES = 20_000


def _game(name: str, players: int | None) -> Game:
    return compile_game(name, players=players) if players else compile_game(name)


def play(game: Game, deal: int, bots: list[str], seed: int) -> list[str]:
    """One game; the results per seat ('win', 'draw', 'loss', '' if cut)."""
    return _play(game, deal, bots, seed)[0]


def _play(game: Game, deal: int, bots: list[str], seed: int) -> tuple[list[str], list[int]]:
    """One game; the results per seat ('win', 'draw', 'loss', '' if cut) and the scores."""
    res, scores, _ = _play_timed(game, deal, bots, seed)
    return res, scores


def _play_timed(game: Game, deal: int, bots: list[str], seed: int, record: bool = False
                ) -> tuple[list[str], list[int], list[tuple[float, int]]]:
    """`_play`, and each seat's CPU seconds choosing and its decisions with a choice.
    With `record`, a search bot is given the game's record (the deal seed and the moves
    so far) as `cardgame simulate` and the REPL give it (`bots.choose_move`), so that its
    worlds follow its seat's whole observation history; else it deals them from the seat's
    present view."""
    seats = [make_bot(b, seed * 31 + i) for i, b in enumerate(bots)]
    spent = [[0.0, 0] for _ in bots]
    s = game.new_state(deal)
    n = 0
    clock = time.process_time
    history: list[Any] = []
    while not game.is_terminal(s) and n < MAX_MOVES:
        p = game.to_move(s)[0]
        t = clock()
        if record:
            m = choose_move(seats[p - 1], game, s, p, deal, history)
        else:
            m = seats[p - 1].choose(game, s, p)
        spent[p - 1][0] += clock() - t
        spent[p - 1][1] += len(game.legal_moves(s, p)) > 1
        s = game.apply(s, m)
        history.append(m)
        n += 1
    return game.results(s), game.scores(s), [(c, int(k)) for c, k in spent]


#: the CPU seconds (of the process that played it) and the scores of each game, by deal
_EXTRA: dict[int, tuple[float, list[int]]] = {}
#: each seat's CPU seconds choosing and decisions with a choice, by deal
_SPENT: dict[int, list[tuple[float, int]]] = {}


def _task(args: tuple[str, int | None, int, list[str], bool]
          ) -> tuple[int, list[str], float, list[int], list[tuple[float, int]]]:
    name, players, deal, bots, record = args
    game = _game(name, players)
    t = time.process_time()
    res, scores, spent = _play_timed(game, deal, bots, deal, record)
    return deal, res, time.process_time() - t, scores, spent


def _run(tasks: Sequence[tuple[str, int | None, int, list[str], bool]], jobs: int, minutes: float
         ) -> Iterator[tuple[int, list[str]]]:
    """The games' results as they finish; after `minutes` (0: no limit) no new game
    starts, and those still running are dropped (the report says how many ran). Each
    game's CPU seconds and scores go to `_EXTRA`."""
    stop = time.perf_counter() + minutes * 60 if minutes else None
    if jobs <= 1:
        for t in tasks:
            if stop is not None and time.perf_counter() > stop:
                return
            deal, res, cpu, scores, spent = _task(t)
            _EXTRA[deal] = (cpu, scores)
            _SPENT[deal] = spent
            yield deal, res
        return
    with Pool(jobs) as pool:
        for deal, res, cpu, scores, spent in pool.imap_unordered(_task, tasks, chunksize=1):
            _EXTRA[deal] = (cpu, scores)
            _SPENT[deal] = spent
            yield deal, res
            if stop is not None and time.perf_counter() > stop:
                pool.terminate()
                return


def _ci(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{k}/{n} = {k / n:.1%} (95% CI {lo:.1%}-{hi:.1%})" if n else "0/0"


def _mean_ci(xs: Sequence[float]) -> str:
    """A mean with its normal 95% interval (the games are independent)."""
    n = len(xs)
    if not n:
        return "-"
    m = sum(xs) / n
    sd = (sum((x - m) ** 2 for x in xs) / max(1, n - 1)) ** 0.5
    h = 1.96 * sd / n ** 0.5
    return f"{m:.1%} (95% CI {max(0.0, m - h):.1%}-{min(1.0, m + h):.1%})"


def _apply_sets(a: argparse.Namespace) -> None:
    """`--set NAME=VALUE`: a class attribute of the bot's class, or `mcts.NAME`."""
    from cardgame.interpreter.bots import mcts
    from cardgame.interpreter.bots.registry import SEARCH
    sets = getattr(a, "set", None) or []
    if not sets:
        return
    cls = SEARCH.get(a.bot.partition(":")[0])
    for kv in sets:
        name, sep, text = kv.partition("=")
        target: Any = mcts if name.startswith("mcts.") else cls
        name = name.removeprefix("mcts.")
        if not sep:
            raise SystemExit(f"--set {kv}: write NAME=VALUE")
        if target is None or not hasattr(target, name):
            raise SystemExit(f"--set {kv}: no such switch of {a.bot}")
        cur = getattr(target, name)
        if isinstance(cur, bool):
            value: Any = text == "True"
        elif cur is None:  # an automatic default (`pool`): a number, or None again
            value = None if text == "None" else int(text)
        else:
            value = type(cur)(text)
        setattr(target, name, value)
        print(f"  set {'mcts.' if target is mcts else ''}{name} = {value!r}", file=sys.stderr)


def infer(a: argparse.Namespace) -> None:
    """The share of the other seats' hand cards each kind of world puts right."""
    from cardgame.interpreter.bots.sampling import Worlds
    from cardgame.interpreter.observe import Record, determinize, hidden_zones
    game = _game(a.game, a.players)
    kinds: dict[str, list[float]] = {"present view": [], "history": [],
                                     f"history, model-weighted (T={a.temperature:g})": []}
    ess: list[float] = []
    for i in range(a.games):
        deal = a.seed + i
        bots = [make_bot("greedy", deal * 31 + k) for k in range(game.players)]
        s = game.new_state(deal)
        moves: list[Any] = []
        for k in sorted(a.after):
            while len(moves) < k and not game.is_terminal(s):
                p = game.to_move(s)[0]
                m = bots[p - 1].choose(game, s, p)
                s = game.apply(s, m)
                moves.append(m)
            if game.is_terminal(s) or len(game.to_move(s)) != 1:
                break
            seat = game.to_move(s)[0]
            hands = [z for z in hidden_zones(game, seat)
                     if any(x.name == z and x.visibility == "owner" for x in game.zones)]
            true = game.zone_contents(s)
            total = sum(len(true[h]) for h in hands)
            if not total:
                continue

            def right(w: Any, true: Any = true, hands: Any = hands, total: int = total
                      ) -> float:
                c = game.zone_contents(w)
                return sum(len(set(c[h]) & set(true[h])) for h in hands) / total

            rng = random.Random(deal * 7 + k)
            kinds["present view"].append(
                sum(right(determinize(game, s, seat, rng)) for _ in range(a.draws)) / a.draws)
            w = Worlds(game, s, seat, rng, Record(deal, tuple(moves)), infer=a.draws,
                       temperature=a.temperature, refresh=False)
            if not w.pool:
                continue
            kinds["history"].append(sum(right(x.state) for x in w.pool) / len(w.pool))
            wts = [w.cum[0]] + [w.cum[j] - w.cum[j - 1] for j in range(1, len(w.cum))]
            kinds[f"history, model-weighted (T={a.temperature:g})"].append(
                sum(x * right(p.state) for x, p in zip(wts, w.pool, strict=True)) / w.cum[-1])
            ess.append(w.ess)
    print(f"{game.name} {game.players}p, greedy seats, {a.games} games from seed {a.seed}, "
          f"positions after {', '.join(map(str, sorted(a.after)))} moves, {a.draws} worlds "
          f"each: the share of the other seats' hand cards a world puts in the right hand")
    for name, xs in kinds.items():
        print(f"  {name:40s} {_mean_ci(xs)}  ({len(xs)} positions)")
    if ess:
        print(f"  the weighted worlds' effective sample size: {sum(ess) / len(ess):.1f} "
              f"of {a.draws} on average")


def calculation(a: argparse.Namespace) -> None:
    tasks = [("calculation", None, a.seed + i, [a.bot], a.record) for i in range(a.games)]
    wins = done = 0
    t0 = time.perf_counter()
    won: list[int] = []
    for deal, res in _run(tasks, a.jobs, a.minutes):
        done += 1
        wins += res[0] == "win"
        if res[0] == "win":
            won.append(deal)
        if done % 10 == 0 or done == a.games:
            print(f"  {done}/{a.games}: {_ci(wins, done)}  [{time.perf_counter() - t0:.0f}s]",
                  file=sys.stderr, flush=True)
    print(f"Calculation, {a.bot}, {done} deals from seed {a.seed}: won {_ci(wins, done)}"
          f" in {time.perf_counter() - t0:.0f}s with {a.jobs} job(s)")
    if done:
        cpu = [c for c, _ in _EXTRA.values()]
        score = [sc[0] for _, sc in _EXTRA.values()]
        mean_cpu = sum(cpu) / len(cpu)
        sd = (sum((c - mean_cpu) ** 2 for c in cpu) / max(1, len(cpu) - 1)) ** 0.5
        print(f"  CPU per deal: {mean_cpu:.2f}s (sd {sd:.2f}s, {sum(cpu):.0f}s in all); "
              f"mean score {sum(score) / len(score):.2f} cards of 52")
        if a.json:
            import json
            print(json.dumps({"bot": a.bot, "seed": a.seed, "deals": done, "won": wins,
                              "ci95": list(wilson(wins, done)),
                              "cpu_per_deal": mean_cpu, "mean_score": sum(score) / len(score),
                              "won_deals": sorted(won)}))


def match(a: argparse.Namespace) -> None:
    game = _game(a.game, a.players)
    p = game.players
    tasks = []
    for i in range(a.games):
        bots = [a.against] * p
        seat = i % p
        bots[seat] = a.bot
        tasks.append((a.game, a.players, a.seed + i, bots, a.record))
    seat_of = {a.seed + i: i % p for i in range(a.games)}
    first = sole = done = cut = 0
    shares: list[float] = []  # the bot's share of each game's win: 1/k of a k-way tie
    t0 = time.perf_counter()
    for deal, res in _run(tasks, a.jobs, a.minutes):
        done += 1
        r = res[seat_of[deal]]
        first += r in ("win", "draw")
        sole += r == "win"
        cut += r == ""
        tied = sum(x in ("win", "draw") for x in res)
        shares.append(1 / tied if r in ("win", "draw") else 0.0)
        if done % 10 == 0 or done == a.games:
            print(f"  {done}/{a.games}: share {_mean_ci(shares)} first {_ci(first, done)}  "
                  f"[{time.perf_counter() - t0:.0f}s]", file=sys.stderr, flush=True)
    print(f"{game.name} {p}p, one {a.bot} seat (rotating) against {p - 1} {a.against}, "
          f"{done} games (deals from seed {a.seed}), fair share {1 / p:.0%}"
          f"{', the bots given the record' if a.record else ''}:\n"
          f"  win share (a k-way tie 1/k):  {_mean_ci(shares)}\n"
          f"  first place (sole or shared): {_ci(first, done)}\n"
          f"  sole wins:                    {_ci(sole, done)}\n"
          f"  cut at {MAX_MOVES} moves: {cut}; {time.perf_counter() - t0:.0f}s with "
          f"{a.jobs} job(s)")
    if done:  # the bot's seat: CPU seconds choosing, per game and per decision
        mine = [_SPENT[d][seat_of[d]] for d in _SPENT]
        cpu = sum(c for c, _ in mine)
        decisions = sum(k for _, k in mine)
        print(f"  {a.bot}'s CPU: {cpu / len(mine):.2f}s a game, "
              f"{1000 * cpu / max(1, decisions):.0f} ms a decision with a choice "
              f"({decisions} decisions, {cpu:.0f}s in all)")


GAMES: list[tuple[str, int | None]] = [
    ("calculation", None), ("besieged-castle", None), ("besieged-castle-spice-1", None),
    ("besieged-castle-spice-2", None), ("chains", None), ("chains-advanced", None),
    ("arsene", 4), ("arsene", 3), ("interaction", 4), ("interaction", 3),
    # the classics (issue 16): every bundled game, at its default player count
    ("klondike", None), ("freecell", None), ("pyramid", None), ("golf", None),
    ("blackjack", None), ("hearts", None), ("scopa", None), ("oh-hell", None),
    ("crazy-eights", None)]


def _positions(game: Game, k: int) -> list[Any]:
    """k positions with a choice, spread over a random game."""
    rng = random.Random(5)
    s = game.new_state(5)
    out: list[Any] = []
    while not game.is_terminal(s) and len(out) < 200:
        p = game.to_move(s)[0]
        legal = game.legal_moves(s, p)
        if len(legal) > 1:
            out.append(s)
        s = game.apply(s, legal[rng.randrange(len(legal))])
    step = max(1, len(out) // k)
    return out[::step][:k]


def speed(a: argparse.Namespace) -> None:
    """Rates in CPU seconds of this process (time.process_time), so that a loaded machine
    (other processes on the same cores) does not lower them."""
    clock = time.process_time
    print(f"{'game':28} {'bot':7} {'it/s':>8} {'rollouts/s alone':>17} {'apply/s':>9}")
    for name, players in GAMES:
        game = _game(name, players)
        positions = _positions(game, 5)
        rng = random.Random(1)
        t = clock()
        n = 0
        while clock() - t < a.seconds:
            s = positions[n % len(positions)]
            game.random_playout_from(s, rng)
            n += 1
        alone = n / (clock() - t)
        # the immutable API: one State built per move (legal moves, apply)
        t = clock()
        k = 0
        while clock() - t < a.seconds / 2:
            s = positions[k % len(positions)]
            r = random.Random(k)
            while not game.is_terminal(s) and k < 10**9:
                legal = game.legal_moves(s)
                s = game.apply(s, legal[r.randrange(len(legal))])
                k += 1
                if clock() - t >= a.seconds / 2:
                    break
        applies = k / (clock() - t)
        for bot in ("mcts", "ismcts"):
            its = 0
            secs = 0.0
            for s in positions:
                b = make_bot(f"{bot}:{a.seconds / len(positions):g}s", 1)
                c0 = clock()
                b.choose(game, s, game.to_move(s)[0])
                its += b.last.get("iterations", 0)
                secs += clock() - c0
            title = f"{name}{f' {players}p' if players else ''}"
            print(f"{title:28} {bot:7} {its / secs if secs else 0:8.0f} {alone:17.0f} "
                  f"{applies:9.0f}", flush=True)
    for name, players in (("calculation", None), ("arsene", 4)):
        game = _game(name, players)
        s = _positions(game, 3)[1]
        prof = cProfile.Profile()
        b = make_bot("ismcts:300", 1)
        prof.enable()
        b.choose(game, s, game.to_move(s)[0])
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(18)
        print(f"\nprofile of one ismcts:300 search, {name}:")
        print("\n".join(line for line in out.getvalue().splitlines()[6:] if line.strip()))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    c = sub.add_parser("calculation")
    c.add_argument("--bot", default="ismcts")
    c.add_argument("--json", action="store_true", help="also print the figures as JSON")
    m = sub.add_parser("match")
    m.add_argument("game")
    m.add_argument("--players", type=int, default=None)
    m.add_argument("--bot", default="ismcts")
    m.add_argument("--against", default="greedy")
    for p in (c, m):
        p.add_argument("--games", type=int, default=100)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--jobs", type=int, default=1)
        p.add_argument("--minutes", type=float, default=0.0,
                       help="start no game after this long (0: play them all)")
        p.add_argument("--record", action="store_true",
                       help="give the search bots the game's record (deal seed and moves so "
                            "far), as `simulate` and the REPL do: worlds that follow the "
                            "seat's observation history, not its present view")
        p.add_argument("--set", action="append", metavar="NAME=VALUE",
                       help="an experiment: set a class attribute of the bot's search "
                            "(infer=64) or a constant of bots/mcts.py (mcts.CUT_ROUNDS=1000)")
    s = sub.add_parser("speed")
    s.add_argument("--seconds", type=float, default=1.0)
    i = sub.add_parser("infer")
    i.add_argument("game")
    i.add_argument("--players", type=int, default=None)
    i.add_argument("--games", type=int, default=50)
    i.add_argument("--seed", type=int, default=1)
    i.add_argument("--after", type=int, nargs="+", default=[6, 10, 14, 18])
    i.add_argument("--draws", type=int, default=100)
    i.add_argument("--temperature", type=float, default=0.5)
    a = ap.parse_args()
    _apply_sets(a)
    {"calculation": calculation, "match": match, "speed": speed, "infer": infer}[a.what](a)


if __name__ == "__main__":
    main()
