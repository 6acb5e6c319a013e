"""The optional parts of corvid (the extras of pyproject.toml) and the sentence a command says
when it needs one that is not installed.

The tournament clients and the mock servers need only the required dependencies. The
packages below are imported where they are used, never at the top of a module, so a command
that does not use them starts without them; one that does stops at the import with
``ModuleNotFoundError``, which the console script turns into :func:`missing_extra`'s
sentence.
"""

from __future__ import annotations

# the module a command imports -> (the distribution that provides it, the extra that installs it)
OPTIONAL: dict[str, tuple[str, str]] = {
    "ray": ("ray", "arena"),  # the arena and the learning runs on a Ray cluster
    "matplotlib": ("matplotlib", "arena"),  # arena --plot
    "openskill": ("openskill", "arena"),  # the arena's ratings
    "serial": ("pyserial", "serial"),  # blokus --serial: the ICFPT host's RS-232C line
}


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """What to install, in one sentence, when ``error`` is the import of an optional
    package; ``None`` for any other missing module (a broken installation, not an extra)."""
    top = (error.name or "").partition(".")[0]
    if top not in OPTIONAL:
        return None
    dist, extra = OPTIONAL[top]
    return (f"this needs {dist}, which comes with the {extra!r} extra: "
            f"pip install 'corvid[{extra}]'")
