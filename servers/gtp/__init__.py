"""``corvid serve gtp``: a referee running two GTP engines against each other."""
