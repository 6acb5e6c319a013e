"""Go learning pipelines: training games (``corvid go selfplay``), move-pattern weights and
playout-policy weights learned from them (``corvid go learn``), written into games/go/."""
