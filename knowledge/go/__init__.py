"""How corvid plays Go."""
