"""Front end: text -> checked program."""
