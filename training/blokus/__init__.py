"""Blokus Duo learning pipelines: ``corvid blokus learn`` (the learned evaluation, best-of-n
selective simulations, compiled and resumable) and ``corvid blokus book`` (the opening book
from long searches)."""
