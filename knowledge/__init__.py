"""How corvid plays each game: playout policies, tactics, features, priors, learned models and
their weights, hidden-card inference, endgame solvers, opening books, and per game the
search-facing position that holds the playing settings. Imports ``games`` and ``search`` only."""
