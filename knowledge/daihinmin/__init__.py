"""How corvid plays Daihinmin."""
