"""The mock ICFPT Blokus Duo host: ``corvid serve blokus``."""
