"""The game API: executes the generated code."""
