"""Tab completion and syntax highlighting for the input line.

`MoveCompleter` completes word by word: the first word from the legal moves' names and
the commands, each later word from the arguments of the legal moves that start with the
words typed so far (`shift col<Tab>` -> `column1`, `column3`...). It offers only legal
moves: a move is completable exactly when it is in the person's list. Suits may be typed
as letters (`play qs<Tab>` -> `Q♠`). `save`/`load` complete file names.

`InputLexer` colours the line: commands, move names, numbers, cards in red and black, and
a first word that starts no command or move in red. A word is a card when it names one
of the game's cards (given as `cards`; the standard deck and a joker when not given), so
custom decks are coloured too: Chains' `1`, a named rank like `page♥` typed `pageh`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from cardgame.interpreter.cards import STANDARD_RANKS, SUIT_SYMBOLS
from cardgame.interpreter.cards import normalize as norm
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, PathCompleter
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer

from .render import card_style

MovesFn = Callable[[], Sequence[tuple[str, str]]]  # (move text, description)
CardsFn = Callable[[], Iterable[str]]  # the texts of the game's cards
STANDARD_CARDS = tuple(r + s for s in SUIT_SYMBOLS for r in STANDARD_RANKS) + ("JK",)


def card_names(cards: CardsFn | None) -> dict[str, str]:
    """Each card's typed spelling (`qs`, `10h`, `1`) -> the card's own text (`Q♠`)."""
    return {norm(c): c for c in (cards() if cards is not None else STANDARD_CARDS)}


def _split(text: str) -> tuple[list[str], str]:
    """The complete words before the cursor and the word being typed ('' after a space)."""
    words = text.split()
    if not words or text[-1:].isspace():
        return words, ""
    return words[:-1], words[-1]


class MoveCompleter(Completer):
    """Completes the person's legal moves (and their arguments) and the REPL commands."""

    def __init__(self, moves: MovesFn,
                 commands: Mapping[str, str] | Callable[[], Mapping[str, str]] | None = None,
                 arg_choices: Mapping[str, Callable[[list[str]], Sequence[str]]] | None = None,
                 path_commands: Iterable[str] = ("save", "load"),
                 cards: CardsFn | None = None,
                 set_moves: Callable[[], Mapping[str, int]] | None = None) -> None:
        self.moves = moves
        self.cards = cards
        # moves whose last parameter is a set of cards: name -> the word its cards start at
        # (their cards are typed in any order, and completed one at a time)
        self.set_moves = set_moves
        self._commands = commands or {}
        self.arg_choices = dict(arg_choices or {})
        self.path_commands = set(path_commands)
        self.paths = PathCompleter(expanduser=True)

    @property
    def commands(self) -> Mapping[str, str]:
        """The commands (name -> what it does) that can be typed now."""
        c = self._commands
        return c() if callable(c) else c

    def get_completions(self, document: Document, complete_event: CompleteEvent
                        ) -> Iterable[Completion]:
        text = document.text_before_cursor.lstrip()
        done, part = _split(text)
        if part.isdigit() and not done:
            return
        if done and done[0] in self.commands and not self._is_move_word(done[0]):
            yield from self._command_args(document, done, part)
            return
        yield from self._move_words(done, part)
        if not done:
            for name, doc in self.commands.items():
                if name.startswith(part.lower()) and not self._is_move_word(name):
                    yield Completion(name, -len(part), display_meta=doc, style="class:command")

    def _is_move_word(self, word: str) -> bool:
        return any(norm(t).split()[0] == norm(word) for t, _ in self.moves())

    def _move_words(self, done: list[str], part: str) -> Iterable[Completion]:
        want = [norm(w) for w in done]
        npart = norm(part)
        options: dict[str, list[tuple[str, str]]] = {}
        cards = card_names(self.cards)
        sets = {norm(k): v for k, v in self.set_moves().items()} if self.set_moves else {}
        for text, desc in self.moves():
            toks = text.split()
            start = sets.get(norm(toks[0])) if toks else None
            if start is not None and len(done) >= start:
                for tok in _set_words(toks, start, want, npart):
                    options.setdefault(tok, []).append((text, desc))
                continue
            if len(toks) <= len(done) or [norm(t) for t in toks[:len(done)]] != want:
                continue
            tok = toks[len(done)]
            if norm(tok).startswith(npart):
                options.setdefault(tok, []).append((text, desc))
        for tok, ms in options.items():
            full = [(t, d) for t, d in ms if len(t.split()) == len(done) + 1]
            if full and len(ms) == 1:
                meta = full[0][1]
            else:
                meta = f"{len(ms)} moves" if len(ms) > 1 else ms[0][1]
            yield Completion(tok, -len(part), display_meta=meta, style=card_style(tok)
                             if norm(tok) in cards else "class:move" if not done else "")

    def _command_args(self, document: Document, done: list[str], part: str
                      ) -> Iterable[Completion]:
        cmd = done[0]
        if cmd in self.path_commands and len(done) == 1:
            sub = Document(part, len(part))
            yield from self.paths.get_completions(sub, CompleteEvent())
            return
        choices = self.arg_choices.get(cmd)
        if choices is None:
            return
        for c in choices(done[1:]):
            if c.startswith(part.lower()):
                yield Completion(c, -len(part))


def _set_words(toks: list[str], start: int, want: list[str], npart: str) -> list[str]:
    """The cards of a move's set (its words from `start` on) that may come next after the
    typed words `want`: its fixed words as typed, the set's cards typed so far among its
    cards (in any order), and the others that start with the word being typed."""
    if [norm(t) for t in toks[:start]] != want[:start]:
        return []
    rest = [norm(t) for t in toks[start:]]
    for w in want[start:]:
        if w not in rest:
            return []
        rest.remove(w)
    return [t for t in toks[start:] if norm(t) in rest and norm(t).startswith(npart)]


class InputLexer(Lexer):
    """Colours commands, move names, numbers and cards on the input line."""

    def __init__(self, move_names: Callable[[], Iterable[str]], commands: Iterable[str],
                 cards: CardsFn | None = None) -> None:
        self.move_names = move_names
        self.commands = set(commands)
        self.cards = cards

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        lines = document.lines
        moves = {norm(m) for m in self.move_names()}
        cards = card_names(self.cards)

        def get_line(lineno: int) -> StyleAndTextTuples:
            line = lines[lineno] if lineno < len(lines) else ""
            out: StyleAndTextTuples = []
            first: str | None = None
            for tok in re.findall(r"\s+|\S+", line):
                if tok.isspace():
                    out.append(("", tok))
                    continue
                if first is None:
                    first = tok
                    low = norm(tok)
                    if tok.isdigit():
                        style = "class:number"
                    elif low in moves:
                        style = "class:move"
                    elif low in self.commands:
                        style = "class:command"
                    elif any(n.startswith(low) for n in moves | self.commands):
                        style = ""
                    else:
                        style = "class:unknown"
                    out.append((style, tok))
                elif norm(tok) in cards:
                    out.append((card_style(cards[norm(tok)]), tok))
                else:
                    out.append(("class:arg", tok))
            return out

        return get_line

