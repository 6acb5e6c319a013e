"""bench/daihinmin_strength.py with its matches replaced by a stand-in: --rotate seats the
line-up one place further round the player numbers in each chunk and gives the points back in
the line-up's order; --against pairs the first players of two runs game by game."""

from __future__ import annotations

import json
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest

from tests.paths import load_bench

SPECS = ["corvid:seed=1", "corvid:seed=2", "baseline", "baseline", "baseline"]


def _bench() -> ModuleType:
    return load_bench("daihinmin_strength")


def _run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> list[list[str]]:
    """Run the bench for 5 chunks of 2 games; the seatings the stand-in saw, per chunk."""
    bench = _bench()
    seatings: list[list[str]] = []

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        seatings.append(list(specs))
        # player number k scores 1 + k in every game
        return SimpleNamespace(record=SimpleNamespace(points=[[1 + k for k in range(5)]] * games,
                                                      drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    args = ["--games", "10", "--chunk", "2", "--out", str(tmp_path / "out.jsonl"), *extra]
    for s in SPECS:
        args += ["--player", s]
    assert bench.main(args) == 0
    return seatings


def test_rotated_chunks_seat_every_spec_at_every_number(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    seatings = _run(tmp_path, monkeypatch, "--rotate", "--json")
    for i, seated in enumerate(seatings):
        assert seated == SPECS[i:] + SPECS[:i]
    lines = [json.loads(ln) for ln in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [ln["rotation"] for ln in lines] == [0, 1, 2, 3, 4]
    # spec j sat at number (j - i) % 5 in chunk i and scored 1 + that number
    for i, ln in enumerate(lines):
        assert ln["specs"] == SPECS
        assert ln["points"] == [[1 + (j - i) % 5 for j in range(5)]] * 2
    # over the five chunks every spec averaged the mean number's score
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [p["points_per_game"] for p in figures["players"]] == [3.0] * 5
    assert figures["rotate"] is True


def test_a_run_resumes_only_as_it_was_begun(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    _run(tmp_path, monkeypatch)  # without --rotate
    with pytest.raises(SystemExit, match="without --rotate"):
        _run(tmp_path, monkeypatch, "--rotate")
    assert _run(tmp_path, monkeypatch) == []  # all chunks done: nothing replayed


def test_against_pairs_the_first_players_game_by_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Two runs on the same seeds: the first player's points per (seed, game) are paired."""
    bench = _bench()

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        # the first player scores 1 + (seed + game) % 3, a variant one more; the others 1
        first = 2 if "variant" in specs[0] else 1
        pts = [[min(5, first + (seed + g) % 3)] + [1] * 4 for g in range(games)]
        return SimpleNamespace(record=SimpleNamespace(points=pts, drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    base = tmp_path / "base.jsonl"
    common = ["--games", "6", "--chunk", "3", "--player", "baseline", "--player", "baseline",
              "--player", "baseline", "--player", "baseline"]
    assert bench.main(["--out", str(base), "--player", "corvid", *common]) == 0
    capsys.readouterr()
    assert bench.main(["--player", "corvid:variant", *common, "--against", str(base),
                       "--json"]) == 0
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["against"]["games"] == 6
    assert figures["against"]["spec"] == "corvid"
    assert figures["against"]["mean"] == 1.0  # every game's variant scored one more
    # another seed range shares no game with the file: said, not a zero-game comparison
    with pytest.raises(SystemExit, match="same --seed"):
        bench.main(["--player", "corvid:variant", *common, "--seed", "50",
                    "--against", str(base)])
    with pytest.raises(SystemExit, match="no such file"):
        bench.main(["--player", "corvid", *common, "--against", str(tmp_path / "none")])


def test_intervals_are_batch_means_over_consecutive_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Games of a match that go together (all won, all lost): blocks see it, games do not."""
    bench = _bench()

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        first = 4 if seed % 2 else 2  # the whole match good, or the whole match bad
        return SimpleNamespace(record=SimpleNamespace(points=[[first, 1, 1, 1, 1]] * games,
                                                      drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    common = ["--games", "8", "--chunk", "4", "--player", "corvid", "--json"] + \
        ["--player", "baseline"] * 4

    def ci(*extra: str) -> list[float]:
        assert bench.main([*common, *extra]) == 0
        row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["players"][0]
        assert row["points_per_game"] == 3.0
        return list(row["ci95"])

    # per game: 3 -+ 1.96 sqrt(8/7 / 8); blocks of 2: 3 -+ 1.96 sqrt(4/3 * 4 (1/4)^2 1^2)
    assert ci("--block", "1") == pytest.approx([3 - 1.96 * (1 / 7) ** 0.5,
                                                3 + 1.96 * (1 / 7) ** 0.5], abs=1e-4)
    assert ci("--block", "2") == pytest.approx([3 - 1.96 * (1 / 3) ** 0.5,
                                                3 + 1.96 * (1 / 3) ** 0.5], abs=1e-4)
    with pytest.raises(SystemExit):
        bench.main([*common, "--block", "0"])


PAOON = "/opt/paoon/client -h {host} -p {port} -n paoon"


def test_strong_field_needs_paoon_and_keeps_its_order(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    seatings: list[list[str]] = []

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        seatings.append(list(specs))
        # each spec scores by what it is, wherever it sits
        score = {"corvid": 5, "paoon": 4, "v2": 3, "v1": 2, "baseline": 1}
        pts = [score[s.split("=")[0]] for s in specs]
        return SimpleNamespace(record=SimpleNamespace(points=[pts] * games, drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    with pytest.raises(SystemExit, match="external client for paoon: give --peer paoon="):
        bench.main(["--field", "strong", "--games", "10"])
    assert seatings == []
    assert bench.main(["--field", "strong", "--games", "20", "--json", "--set", "playouts=10",
                       "--peer", f"paoon={PAOON}"]) == 0
    lineup = ["corvid=corvid:playouts=10", f"paoon=cmd:{PAOON}", "v2=corvid:preset=v2",
              "v1=corvid:preset=v1", "baseline=baseline"]
    # five matches of four games (a fifth of the games each), the seats rotating
    assert seatings == [lineup[i:] + lineup[:i] for i in range(5)]
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [(p["name"], p["points_per_game"]) for p in figures["players"]] == [
        ("corvid", 5.0), ("paoon", 4.0), ("v2", 3.0), ("v1", 2.0), ("baseline", 1.0)]
    assert figures["rotate"] is True and figures["games"] == 20
    assert figures["diff"]["players"] == [0, 1] and figures["diff"]["mean"] == 1.0


def test_peers_take_a_baseline_seat_and_are_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    bench = _bench()
    seatings: list[list[str]] = []

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        seatings.append(list(specs))
        return SimpleNamespace(record=SimpleNamespace(points=[[3] * 5] * games, drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    assert bench.main(["--games", "2", "--peer", f"paoon={PAOON}", "--peer",
                       "other=/opt/other -p {port}"]) == 0
    assert seatings == [["corvid", "baseline", "baseline", "other=cmd:/opt/other -p {port}",
                         f"paoon=cmd:{PAOON}"]]
    with pytest.raises(SystemExit, match="NAME=COMMAND"):
        bench.main(["--games", "2", "--peer", "paoon"])
    with pytest.raises(SystemExit, match="no seat"):
        bench.main(["--games", "2", *["--player", "corvid"] * 5, "--peer", f"paoon={PAOON}"])


def test_a_player_that_cannot_start_ends_the_run_with_a_message(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    bench = _bench()
    from servers.arena.backends import PlayerError

    def fake_arena(specs: list[str], games: int, seed: int, **_: Any) -> Any:
        if seed == 2:
            raise PlayerError("player 'paoon' did not connect in 120 s")
        return SimpleNamespace(record=SimpleNamespace(points=[[3] * 5] * games, drops=[]))

    monkeypatch.setattr(bench, "run_arena", fake_arena)
    out = tmp_path / "out.jsonl"
    assert bench.main(["--games", "4", "--chunk", "2", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert "chunk 1 could not be played: player 'paoon' did not connect" in err
    assert "run again to go on" in err
    assert len(out.read_text().splitlines()) == 1  # the first chunk is kept
