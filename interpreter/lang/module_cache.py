"""A game file's AST, kept in the user's cache directory (beside the parser's table).

Keyed by the file's text, its display name (spans name the file) and a hash of the front
end's code and grammar; one cache file per game file, replaced when the text changes,
and at most KEEP of them (the oldest go).
Failures fall back to parsing, as in parser_cache.py.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import os
import pickle
from pathlib import Path
from typing import IO

from . import ast as A
from .parser_cache import cache_key, cached

KEEP = 200  # cached game files; writing one more removes the oldest


def package_dir(package: str) -> Path:
    """The folder of one of our packages with data files (cardgame.games, .grammar): the
    folder importlib.resources.files() names for a package installed as files, without
    importing its readers (zipfile...), a few milliseconds of every short command."""
    file = getattr(importlib.import_module(package), "__file__", None)
    if file is None:  # not a plain package of files
        from importlib.resources import files

        return Path(str(files(package)))
    return Path(file).parent


@functools.lru_cache(maxsize=1)
def _front_end_fingerprint() -> str:
    """A hash of the grammar and of the code that turns text into an AST (every module of
    this package, and errors.py for spans): an edited front end never loads a stale AST."""
    here = Path(__file__).resolve().parent
    # listed, not globbed (a glob pattern is compiled to a regular expression first); as
    # `glob("*.py")`, no hidden files (an editor's `.#x.py` lock link)
    parts = [(here / n).read_bytes() for n in sorted(os.listdir(here))
             if n.endswith(".py") and not n.startswith(".")]
    parts.append((here.parent / "errors.py").read_bytes())
    parts.append((package_dir("cardgame.grammar") / "cardgame.lark").read_bytes())
    return hashlib.sha256(b"\0".join(parts)).hexdigest()


def build_module(source: str, filename: str) -> A.Module:
    # imported on a miss only: a command whose files are all cached never imports Lark
    from .builder import build_module as build

    return build(source, filename)


def cached_module(source: str, filename: str) -> A.Module:
    """`build_module(source, filename)`, from the cache when this text was parsed before.

    Parsing is most of `cardgame list` (every bundled game and the bases they extend);
    unpickling the AST takes a tenth of it. A file that does not parse raises as before
    and is never cached."""
    try:
        front = _front_end_fingerprint()
    except OSError:  # the package's sources are not readable files: no cache
        return build_module(source, filename)
    key = cache_key("module", front, filename, source)
    slot = "module-" + cache_key("module", front, filename)[:32]
    return cached(key, lambda: build_module(source, filename),
                  lambda m, f: pickle.dump(m, f, protocol=pickle.HIGHEST_PROTOCOL),
                  _load_module, file=slot, keep=KEEP)


def _load_module(f: IO[bytes]) -> A.Module:
    m = pickle.load(f)
    if not isinstance(m, A.Module):
        raise TypeError("not a module")
    return m
