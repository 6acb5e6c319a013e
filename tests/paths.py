"""Where the tests find the repository and its recordings of the real servers (``tests/data``)."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "tests" / "data"


def load_bench(name: str) -> ModuleType:
    """The script ``bench/NAME.py`` as a module, with ``bench/`` on ``sys.path`` as
    ``python bench/NAME.py`` has it (for its ``_common`` and sibling modules)."""
    folder = REPO / "bench"
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
    spec = importlib.util.spec_from_file_location(name, folder / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
