"""The solver for open solitaires."""
