"""The decision core. Sees games only through `games.contract` shapes (structural typing)."""
