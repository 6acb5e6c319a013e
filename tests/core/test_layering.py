"""The import arrows of architecture.md, enforced by scanning every module's imports, and the
rule that no module imports one that imports it (no import circles)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ["games", "search", "knowledge", "protocols", "clients", "servers", "training"]
ALLOWED = {
    "games": set(),
    "search": set(),
    "knowledge": {"games", "search"},
    "protocols": {"games"},
    "clients": {"games", "search", "knowledge", "protocols"},
    "servers": {"games", "protocols"},
    "training": {"games", "search", "knowledge", "protocols", "clients", "servers"},
}
SOCKET_MODULES = {"socket", "socketserver", "selectors"}
SOCKET_CALLS = {"open_connection", "start_server", "create_connection", "create_server"}
# ZeroMQ: contexts, sockets and pollers (its exception types may be caught anywhere)
ZMQ_SOCKET_NAMES = {"Context", "Socket", "Poller", "asyncio", "green", "device", "proxy"}
ZMQ_ALLOWED = {"search/parallel.py"}  # the workers; plus the servers' publishers


def _modules(root: Path = ROOT) -> list[tuple[str, Path]]:
    out = []
    for pkg in PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            out.append((pkg, path))
    return out


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def import_graph(root: Path = ROOT) -> dict[str, set[str]]:
    """Module name -> the modules of ours it imports, at any depth of its code (function-level
    imports too). ``from P import x`` is an edge to ``P`` (a package's ``__init__`` runs first)
    and, where ``x`` is a submodule, to ``P.x``; ``import P.x`` is an edge to ``P.x``."""
    files = {_module_name(path, root): path for _, path in _modules(root)}
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
            if isinstance(node, ast.Import):
                edges |= {a.name for a in node.names if a.name in files}
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                edges |= {m for m in [base] + [f"{base}.{a.name}" for a in node.names]
                          if m in files}
        graph[name] = edges - {name}
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative): each is a set of modules that import one another in a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    circles: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            v, children = work[-1]
            w = next(children, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                component = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    component.append(w)
                    if w == v:
                        break
                if len(component) > 1:
                    circles.append(sorted(component))
    return circles


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def test_import_arrows() -> None:
    bad = []
    for pkg, path in _modules():
        for name in _imports(path):
            top = name.split(".")[0]
            if top in PACKAGES and top != pkg and top not in ALLOWED[pkg]:
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert not bad, "forbidden imports:\n" + "\n".join(bad)


def _socket_allowed(path: Path) -> bool:
    rel = path.relative_to(ROOT).as_posix()
    return rel == "protocols/transport.py" or rel.startswith("servers/")


def test_no_socket_code_outside_transport_and_servers() -> None:
    bad = []
    for _, path in _modules():
        if _socket_allowed(path):
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [
                    node.module or ""]
                if any(m.split(".")[0] in SOCKET_MODULES for m in mods):
                    bad.append(f"{path.relative_to(ROOT)}:{node.lineno} imports sockets")
            elif isinstance(node, ast.Attribute) and node.attr in SOCKET_CALLS:
                bad.append(f"{path.relative_to(ROOT)}:{node.lineno} calls {node.attr}")
    assert not bad, "socket code outside protocols/transport.py and servers/:\n" + "\n".join(bad)


def _zmq_socket_code(path: Path) -> list[str]:
    """Lines of ``path`` that make ZeroMQ contexts, sockets or pollers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "zmq":
            names = {a.name for a in node.names}
            if node.module != "zmq" or names & ZMQ_SOCKET_NAMES or "*" in names:
                out.append(f"{name}:{node.lineno} imports from zmq")
        elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
              and node.value.id == "zmq" and node.attr in ZMQ_SOCKET_NAMES):
            out.append(f"{name}:{node.lineno} uses zmq.{node.attr}")
    return out


def test_zeromq_sockets_only_in_the_workers_and_the_servers_publishers() -> None:
    bad = []
    for _, path in _modules():
        rel = path.relative_to(ROOT).as_posix()
        if rel in ZMQ_ALLOWED or rel.startswith("servers/") or rel.startswith("training/"):
            continue
        bad += _zmq_socket_code(path)
    assert not bad, "ZeroMQ socket code outside search/parallel.py and servers/:\n" + \
        "\n".join(bad)


def test_the_zeromq_scan_sees_sockets(tmp_path: Path) -> None:
    f = tmp_path / "probe.py"
    f.write_text("import zmq\nctx = zmq.Context.instance()\nfrom zmq import Poller\n"
                 "try:\n    pass\nexcept zmq.ZMQError:\n    pass\n")
    assert sorted(ln.split(":")[1].split()[0] for ln in _zmq_socket_code(f)) == ["2", "3"]


def test_the_scan_sees_a_forbidden_import(tmp_path: Path) -> None:
    # guard against a scanner that silently finds nothing
    f = tmp_path / "m.py"
    f.write_text("import clients.cli\nfrom search.uct import UCT\nimport numpy\n")
    assert _imports(f) == ["clients.cli", "search.uct", "numpy"]
    assert len(_modules()) > 10


def test_no_import_circles() -> None:
    circles = import_circles(import_graph())
    assert not circles, "modules that import one another in a circle:\n" + "\n".join(
        " <-> ".join(c) for c in circles)


def test_the_circle_scan_sees_circles(tmp_path: Path) -> None:
    # through a package's __init__ re-export, and through an import inside a function
    for pkg, text in [("games/__init__.py", ""),
                      ("games/a/__init__.py", "from games.a.x import f\n"),
                      ("games/a/x.py", "from games.a import y\ndef f(): pass\n"),
                      ("games/a/y.py", "def g():\n    from games.a.x import f\n"),
                      ("games/b.py", "import games.a.y\n")]:
        (tmp_path / pkg).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / pkg).write_text(text)
    graph = import_graph(tmp_path)
    assert graph["games.b"] == {"games.a.y"}
    assert import_circles(graph) == [["games.a", "games.a.x", "games.a.y"]]
