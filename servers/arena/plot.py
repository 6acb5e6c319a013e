"""``--plot FILE.png``: the ratings of a run with their intervals, or, for a sweep, the swept
player's result (win rate or points per game, 95 % interval) against the swept value."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from servers.arena.standings import Row, Standings


def plot(result: Any, path: str | Path) -> None:
    """Draw ``result`` (a :class:`~servers.arena.api.RunResult`) into ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # files only, no display
    st = result.standings()
    cfg = result.config
    title = f"corvid arena {cfg.game}: {st.games} games, seed {cfg.seed}"
    if cfg.sweep:
        fig = _sweep(st, cfg.sweep.partition("=")[0], title)
    else:
        fig = _ratings(st, title)
    fig.savefig(path, dpi=120, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)


def _scale(st: Standings) -> tuple[float, float, float]:
    """The axis range of the result (a little wider than possible) and the even result."""
    if st.metric == "win rate":
        return (-0.03, 1.03, 0.5)
    return (0.9, 5.1, 3.0)


def _ratings(st: Standings, title: str) -> Any:
    import matplotlib.pyplot as plt

    rows = sorted(st.rows, key=lambda r: r.rating)
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 0.5 * len(rows) + 1.8), sharey=True,
                                 gridspec_kw={"width_ratios": [3, 2]})
    y = list(range(len(rows)))
    labels = [r.label for r in rows]
    err = [1.959964 * r.sigma for r in rows]
    ax.errorbar([r.rating for r in rows], y, xerr=err, fmt="o", capsize=4, color="tab:blue")
    ax.set_yticks(y, labels)
    ax.set_xlabel("openskill rating (mu, 95% interval)")
    ax.grid(axis="x", alpha=0.3)
    lo = [r.result - r.ci95[0] if r.games else 0.0 for r in rows]
    hi = [r.ci95[1] - r.result if r.games else 0.0 for r in rows]
    vals = [r.result if r.games else float("nan") for r in rows]
    bx.errorbar(vals, y, xerr=[lo, hi], fmt="s", capsize=4, color="tab:green")
    bx.set_xlabel(f"{st.metric} (95% interval)")
    lo_lim, hi_lim, even = _scale(st)
    bx.set_xlim(lo_lim, hi_lim)
    bx.axvline(even, color="grey", lw=0.8, ls="--")
    bx.grid(axis="x", alpha=0.3)
    for yy, r in zip(y, rows, strict=True):
        bx.annotate(f"{r.games} games", (bx.get_xlim()[1], yy), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8, color="grey",
                    annotation_clip=False)
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _sweep(st: Standings, key: str, title: str) -> Any:
    import matplotlib.pyplot as plt

    variants: list[Row] = [r for r in st.rows if r.sweep is not None]
    field = [r.label for r in st.rows if r.sweep is None]
    try:
        xs: list[Any] = [float(r.sweep or "") for r in variants]
        numeric = True
    except ValueError:
        xs = list(range(len(variants)))
        numeric = False
    order = sorted(range(len(variants)), key=lambda i: xs[i])
    xs = [xs[i] for i in order]
    variants = [variants[i] for i in order]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ys = [r.result for r in variants]
    lo = [r.result - r.ci95[0] for r in variants]
    hi = [r.ci95[1] - r.result for r in variants]
    ax.errorbar(xs, ys, yerr=[lo, hi], fmt="o-", capsize=4, color="tab:blue")
    for x, y, r in zip(xs, ys, variants, strict=True):
        ax.annotate(f"{r.games}", (x, y), xytext=(5, -12), textcoords="offset points",
                    fontsize=8, color="grey")
    if numeric and min(xs) > 0 and max(xs) / min(xs) >= 10:
        ax.set_xscale("log")
    ax.set_xticks(xs, [r.sweep or "" for r in variants])
    ax.minorticks_off()
    lo_lim, hi_lim, even = _scale(st)
    ax.set_ylim(lo_lim, hi_lim)
    ax.axhline(even, color="grey", lw=0.8, ls="--")
    ax.set_xlabel(key)
    ax.set_ylabel(f"{st.metric} (95% interval; n = games)")
    ax.set_title(f"{title}\nagainst {', '.join(field)}", fontsize=10)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    return fig
