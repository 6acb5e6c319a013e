"""How corvid plays Blokus Duo."""
