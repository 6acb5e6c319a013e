"""Go learning pipelines: training games (``corvid learn go selfplay``), move-pattern weights and
playout-policy weights learned from them (``corvid learn go learn``), written into knowledge/go/."""
