"""Back end: checked program -> Python module text."""
