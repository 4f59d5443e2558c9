"""Moves and cards as text: `build 3`, `shift column1 column4`, `play Q♠`.

A move is a tuple `(player, move_index, *args)`. Its text is the move's name and its
arguments, each written by its parameter type; `parse_move` finds the legal move with a
given text. Card texts compare through one normaliser (`cards.normalize`): case and spacing do not
matter, and suits may be written as letters (`Qs`, `10h`).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from ..cards import SUIT_SYMBOLS
from ..cards import normalize as norm
from ..errors import CardgameError, IllegalMove, did_you_mean
from .playout import Machine
from .state import Move


def arg_text(g: Machine, value: Any, typ: str) -> str:
    if typ == "card":
        return g.card_text[value]
    if typ == "list:card":  # a set of cards: its cards, in deck order
        return " ".join(g.card_text[c] for c in value)
    if typ == "player":
        return f"p{value}"
    if typ == "zone":
        return g.zone_text.get(value, str(value))
    if typ == "suit":
        return g.checked.suit_names[value - 1]
    if typ == "bool":
        return "yes" if value else "no"
    return str(value)


def move_text(g: Machine, move: Move) -> str:
    mid = move[1]
    types = g.move_param_types[mid]
    parts = [g.move_names[mid]]
    parts += [arg_text(g, a, t) for a, t in zip(move[2:], types, strict=False)]
    return " ".join(p for p in parts if p)


def move_description(g: Machine, move: Move, args: list[str] | None = None,
                     viewer: int | None = None) -> str:
    """The move's own description (its doc string with the arguments filled in), else its
    text; `args` gives the arguments' texts when they are to be written otherwise.
    `{me}` and `{my}` read "you"/"your" for the viewer's own move (or with no viewer),
    else "p3"/"p3's"."""
    mid = move[1]
    types = g.move_param_types[mid]
    if args is None:
        args = [arg_text(g, a, t) for a, t in zip(move[2:], types, strict=False)]
    text = " ".join(a for a in [g.move_names[mid], *args] if a)
    if mid >= len(g.checked.moves):  # pass
        return text
    decl = g.checked.moves[g.move_names[mid]]
    desc = decl.doc or text
    for p, a in zip(decl.params, args, strict=False):
        desc = desc.replace("{" + p.name + "}", a)
    mine = viewer is None or viewer == move[0]
    if "{m" in desc:
        desc = desc.replace("{me}", "you" if mine else f"p{move[0]}")
        desc = desc.replace("{my}", "your" if mine else f"p{move[0]}'s")
    return desc


def _arg_matches(g: Machine, typed: str, text: str, typ: str) -> bool:
    """Does a typed argument name this one? Its text, or for a zone of an array its
    number alone (`6` for `column6`)."""
    if typed == norm(text):
        return True
    return typ == "zone" and typed.isdigit() and norm(text).rstrip("0123456789") + typed \
        == norm(text) and text[:1].isalpha()


def grouped(types: list[str], args: list[str]) -> list[str] | None:
    """The typed argument words, one entry per parameter: a set of cards (always the last
    parameter) takes all the words left, joined by spaces. None: too few words."""
    if types and types[-1] == "list:card":
        if len(args) < len(types) - 1:
            return None
        return args[:len(types) - 1] + [" ".join(args[len(types) - 1:])]
    return args if len(args) == len(types) else None


def _set_matches(g: Machine, typed: str, value: Any) -> bool:
    """Do the typed cards name this set, in any order?"""
    return sorted(w for w in typed.split(" ") if w) == sorted(
        norm(g.card_text[c]) for c in value)


def _matches(g: Machine, m: Move, words: list[str]) -> bool:
    types = g.move_param_types[m[1]]
    if not words or words[0] != norm(g.move_names[m[1]]):
        return False
    args = grouped(types, words[1:])
    if args is None or len(args) != len(types):
        return False
    return all(_set_matches(g, w, a) if t == "list:card"
               else _arg_matches(g, w, arg_text(g, a, t), t)
               for w, a, t in zip(args, m[2:], types, strict=False))


MAX_CHOICES = 12  # choices listed after "discard needs..."


def parse_move(g: Machine, legal: list[Move], text: str,
               explain: Callable[[Move], str] | None = None) -> Move:
    """The move of `legal` whose text is `text` (suits may be written s h d c; a zone of
    an array by its number when that is unambiguous: `home 6` for `home column6`).
    Otherwise IllegalMove says why: no such move (did you mean...), the choices when an
    argument is missing, not a card, and for a move of the right shape, `explain(move)`
    (the rules' reason: Game.why_illegal)."""
    want = norm(text)
    for m in legal:
        if norm(move_text(g, m)) == want:
            return m
    words = want.split(" ") if want else []
    short = [m for m in legal if _matches(g, m, words)]
    if len(short) == 1:
        return short[0]
    raise IllegalMove(refusal(g, legal, text, words, explain))


def refusal(g: Machine, legal: list[Move], text: str, words: list[str],
            explain: Callable[[Move], str] | None) -> str:
    """Why the typed `text` is no legal move, in words."""
    text = text.strip()
    names = sorted({g.move_names[m[1]] for m in legal})
    now = f" (legal now: {', '.join(names)})" if names else " (no move is possible now)"
    if not words:
        return "no move given" + now
    word = words[0]
    known: dict[str, int] = {}
    for i, n in enumerate(g.move_names):  # a game's own move before the built-in pass
        known.setdefault(norm(n), i)
    if word not in known:
        hint = did_you_mean(word, g.move_names)
        return f"there is no move '{word}' in this game" + (f": {hint}" if hint else now)
    mid = known[word]
    name = g.move_names[mid]
    types = g.move_param_types[mid]
    mine = [move_text(g, m) for m in legal if m[1] == mid]
    sets = bool(types) and types[-1] == "list:card"
    if sets:
        typed_set = words[len(types):]
        if len(words) - 1 >= len(types) - 1 and len(set(typed_set)) != len(typed_set):
            return f"{name}: a card is named twice in '{' '.join(typed_set)}'"
    if len(words) - 1 < len(types) - (1 if sets else 0):
        if not mine:
            return f"{name}: not possible now" + now
        shown = mine[:MAX_CHOICES] + (["..."] if len(mine) > MAX_CHOICES else [])
        what = "an argument" if len(types) == 1 else f"{len(types)} arguments"
        return f"{name} needs {what}: " + ", ".join(shown)
    if len(words) - 1 > len(types) and not sets:
        takes = "nothing" if not types else f"{len(types)} argument" + (
            "s" if len(types) > 1 else "")
        return f"{name} takes {takes}, not '{' '.join(words[1:])}'"
    typed = text.split()[1:]
    if sets:
        typed = [*typed[:len(types) - 1], " ".join(typed[len(types) - 1:])]
        words = [words[0], *(grouped(types, words[1:]) or [])]
    candidates = _candidates(g, mid, words[1:], typed, legal)
    if isinstance(candidates, str):
        return f"{text}: {candidates}"
    if explain is None or not candidates:
        return f"'{text}' is not a legal move now"
    reasons = [explain(m) for m in candidates]
    # with several copies of a card, the copy that is where the move takes it from
    return next((r for r in reasons if " is not in " not in r), reasons[0])


def _candidates(g: Machine, mid: int, args: list[str], raw: list[str], legal: list[Move]
                ) -> list[Move] | str:
    """The moves the typed arguments (normalised, and as typed) may mean (several with
    duplicate cards), or why an argument means nothing."""
    types = g.move_param_types[mid]
    options: list[list[Any]] = []
    for typed, shown, t in zip(args, raw, types, strict=True):
        if t == "list:card":
            chosen: list[int] = []
            for word, raw_word in zip(typed.split(), shown.split(), strict=False):
                ids = [c for c, ct in enumerate(g.card_text) if norm(ct) == word]
                if not ids:
                    return f"'{raw_word}' is not a card of this game"
                chosen.append(ids[0])
            options.append([tuple(sorted(chosen))])
        elif t == "card":
            ids = [c for c, ct in enumerate(g.card_text) if norm(ct) == typed]
            if not ids:
                suited = [ct for ct in g.card_text if ct[-1:] in SUIT_SYMBOLS]
                like = f"{suited[-1]}, or with a suit letter: Qs, 10h" if suited \
                    else ", ".join(dict.fromkeys(g.card_text[-3:][::-1]))
                return f"'{shown}' is not a card of this game (cards are written like {like})"
            options.append(ids)
        elif t == "zone":
            zs = [z for z, zt in g.zone_text.items() if _arg_matches(g, typed, zt, t)]
            if not zs:
                hint = did_you_mean(typed, g.zone_text.values())
                return f"there is no zone '{shown}'" + (f": {hint}" if hint else "")
            options.append(zs)
        elif t == "player":
            if not typed.lstrip("p").isdigit():
                return f"'{shown}' is not a player (players are p1, p2...)"
            options.append([int(typed.lstrip("p"))])
        elif t == "suit":
            names = g.checked.suit_names
            if typed not in [norm(x) for x in names]:
                return f"'{shown}' is not a suit ({', '.join(names)})"
            options.append([[norm(x) for x in names].index(typed) + 1])
        elif t == "bool":
            if typed not in ("yes", "no"):
                return f"'{shown}' is not yes or no"
            options.append([typed == "yes"])
        else:
            if not typed.lstrip("-").isdigit():
                return f"'{shown}' is not a number"
            options.append([int(typed)])
    player = legal[0][0] if legal else 1
    return [(player, mid, *combo) for combo in itertools.islice(itertools.product(*options), 16)]


def card_id(g: Machine, text: str, exclude: set[int] | frozenset[int] = frozenset()) -> int:
    """A card by its text (`K♠`, `Ks`, `10h`, `7`); with duplicates, the first unused."""
    want = norm(text)
    for cid, t in enumerate(g.card_text):
        if norm(t) == want and cid not in exclude:
            return cid
    raise CardgameError(f"no card '{text}' in this deck (or every copy is used already)")


def zone_value(g: Machine, text: str) -> int:
    """The value that stands for a zone (`column3`, `hand-p2`) in a move's arguments."""
    for value, t in g.zone_text.items():
        if t == text:
            return value
    raise CardgameError(f"no zone '{text}': zones are " + ", ".join(g.zone_text.values()))


def build_move(g: Machine, player: int, name: str, *args: Any) -> Move:
    """A move from its name and arguments, each given as text (`"Qs"`, `"column1"`,
    `"p2"`, `"yes"`) or as its value; legal or not (to probe what `apply` refuses)."""
    if name not in g.move_names:
        raise CardgameError(f"there is no move '{name}' in this game")
    mid = g.move_names.index(name)
    types = g.move_param_types[mid]
    if len(args) != len(types):
        raise CardgameError(f"'{name}' takes {len(types)} argument(s), given {len(args)}")
    values: list[Any] = []
    for a, t in zip(args, types, strict=True):
        if t == "list:card":  # a set of cards: texts (or ids), in any order
            cards = a.split() if isinstance(a, str) else list(a)
            used: set[int] = set()
            for x in cards:
                used.add(card_id(g, x, used) if isinstance(x, str) else x)
            values.append(tuple(sorted(used)))
        elif not isinstance(a, str):
            values.append(a)
        elif t == "card":
            values.append(card_id(g, a))
        elif t == "zone":
            values.append(zone_value(g, a))
        elif t == "player":
            values.append(int(a.lstrip("p")))
        elif t == "suit":
            values.append(g.checked.suit_names.index(a) + 1)
        elif t == "bool":
            values.append(a == "yes")
        else:
            values.append(int(a))
    return (player, mid, *values)
