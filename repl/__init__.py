"""The terminal REPL: `cardgame play`.

- `app`: the prompt_toolkit application, scriptable mode and `run_play` (the CLI entry);
- `session`: the game being played: seats, bots, undo/redo, save/load (no terminal I/O);
- `render`: the table as formatted text (zones laid out as cards on a table);
- `completion`: the Tab completer and the lexer for the input line.

What a seat sees (the table, the log's card backs) comes from `cardgame.interpreter.observe`.
"""
