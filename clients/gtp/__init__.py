"""``corvid gtp``: the Go engine (GTP 2 on stdin/stdout)."""
