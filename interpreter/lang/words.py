"""The words of the language (its grammar's keywords), in one table below every pass: a
declared or bound name may not be one of them (the checker says so), and the parser names
one bound as a name where the mistake is (`parser._word_bound`)."""

KEYWORDS = {
    "game", "about", "extends", "players", "option", "default", "bool", "true", "false",
    "deck", "standard", "with", "ranks", "for", "in", "card", "times", "zone", "var", "def",
    "proc", "move", "when", "setup", "flow", "end", "score", "result", "won", "invariant",
    "limit", "remove", "chooses", "may", "choose", "simultaneously", "let", "if", "else",
    "while", "repeat", "phase", "to", "shuffle", "deal", "from", "all", "break", "log",
    "then", "where", "any", "count", "sum", "min", "max", "first", "each", "random", "or",
    "and", "not", "is", "empty", "top", "bottom", "of", "left", "right", "none", "me",
    "highest", "lowest", "use", "role", "against", "subsets",
}
