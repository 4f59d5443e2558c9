"""What `cardgame list` shows of the bundled games, kept in the user's cache directory.

Listing loads and checks every bundled game (and the bases its variants extend): most of
the command's time. The result, plain JSON data, is kept beside the parser's table
(parser_cache.py), keyed by the text of every bundled game file and by the front end's
fingerprint (module_cache.py: the grammar and the code that reads and checks a file), so
an edited game or an upgraded checker never shows stale rows. The cache file is JSON, not
a pickle; every cache failure falls back to checking the games.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO, Any

from .check import check
from .loader import bundled_dir, bundled_names, load
from .module_cache import _front_end_fingerprint as front_end_fingerprint
from .parser_cache import cache_key, cached


def bundled_catalog() -> list[dict[str, Any]]:
    """One row per bundled game, by name: `name`, `title`, `extends` (the base's name or
    None), `players` ([low, high]) and `options` (name -> kind, low, high, choices,
    default, doc)."""
    names = bundled_names()
    d = bundled_dir()
    try:
        parts = [front_end_fingerprint()]
        for name in names:
            parts += [name, (d / f"{name}.cardgame").read_text(encoding="utf-8", errors="replace")]
    except OSError:  # unreadable sources: no cache
        return _catalog(names)
    return cached(cache_key("catalog", *parts), lambda: _catalog(names), _save, _load,
                  file="catalog-" + cache_key("catalog")[:32])


def _catalog(names: list[str]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for name in names:
        loaded = load(bundled_dir() / f"{name}.cardgame")
        checked = check(loaded)
        base = loaded.chain[1] if len(loaded.chain) > 1 else None
        rows.append({
            "name": name,
            "title": checked.name,
            "extends": Path(base).stem if base else None,
            "players": list(checked.player_range),
            "options": {k: {"kind": od.kind, "low": od.low, "high": od.high,
                            "choices": list(od.choices), "default": od.default,
                            "doc": od.doc}
                        for k, od in checked.option_decls.items()},
        })
    return rows


def _save(rows: list[dict[str, Any]], f: IO[bytes]) -> None:
    import json  # (here: `cardgame check` imports this package, and needs no json)

    f.write(json.dumps(rows).encode("utf-8"))


def _load(f: IO[bytes]) -> list[dict[str, Any]]:
    import json

    rows = json.loads(f.read().decode("utf-8"))
    if not isinstance(rows, list):
        raise TypeError("not a catalog")
    return rows
