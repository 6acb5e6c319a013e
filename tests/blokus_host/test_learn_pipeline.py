"""``corvid blokus learn`` (training/blokus/learn.py): compiled simulations, checkpoints, an
interrupted run resumed to the same weights as an uninterrupted one."""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pytest

from search.selective import SelectiveLearner, load_weights, save_weights

SMALL = ["--updates", "4", "--m", "2", "--positions", "2", "--n", "3", "--selfplay-n", "4",
         "--prior-score", "5", "--seed", "3", "--checkpoint-every", "1"]


def run(args: list[str]) -> int:
    from clients.blokus.cli import register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    ns = parser.parse_args(["blokus", "learn", *args])
    return int(ns.func(ns))


def test_an_interrupted_run_resumes_to_the_same_weights(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    whole = tmp_path / "whole.npz"
    assert run(["--out", str(whole), *SMALL]) == 0
    w_whole, _, meta = load_weights(whole)
    assert meta["updates"] == 4 and meta["simulations"] == "compiled"
    assert meta["command"].startswith("corvid blokus learn --out") and meta["date"]

    parts = tmp_path / "parts.npz"
    real = SelectiveLearner.update
    calls = {"n": 0}

    def update(self, w, positions, rng):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 3:  # Ctrl-C during the third update
            raise KeyboardInterrupt
        return real(self, w, positions, rng)

    monkeypatch.setattr(SelectiveLearner, "update", update)
    assert run(["--out", str(parts), *SMALL]) == 130
    assert load_weights(parts)[2]["updates"] == 2  # the two finished updates are kept
    monkeypatch.setattr(SelectiveLearner, "update", real)
    assert run(["--out", str(parts), *SMALL]) == 2  # a checkpoint exists: --resume or not
    assert run(["--out", str(parts), *SMALL, "--resume"]) == 0
    w_parts, _, meta = load_weights(parts)
    assert meta["updates"] == 4
    assert np.array_equal(w_parts, w_whole)


def test_resume_refuses_other_settings(tmp_path: Path) -> None:
    out = tmp_path / "w.npz"
    args = ["--out", str(out), *SMALL]
    args[args.index("--updates") + 1] = "1"
    assert run(args) == 0
    assert run([*args, "--resume", "--m", "5"]) == 2
    assert run(["--out", str(tmp_path / "none.npz"), "--resume"]) == 2


@pytest.mark.integration
def test_ray_workers_give_the_weights_of_one_process(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import training.blokus.learn as L

    ray_out = tmp_path / "ray.npz"
    assert run(["--out", str(ray_out), *SMALL, "--workers", "2"]) == 0
    w_ray, _, meta = load_weights(ray_out)
    assert "--workers 2" in meta["command"] and meta["updates"] == 4

    class OneProcess:  # the same seeded simulations, every position in one call
        def __init__(self, workers: int, n: int, m: int, address: str | None = None) -> None:
            self.n, self.m = n, m

        def __call__(self, positions, w, k, seeds):  # type: ignore[no-untyped-def]
            return L.simulate_seeded(positions, w, k, self.n, self.m, seeds)

        def close(self) -> None:
            pass

    monkeypatch.setattr(L, "RayWinRates", OneProcess)
    one = tmp_path / "one.npz"
    assert run(["--out", str(one), *SMALL, "--workers", "2"]) == 0
    assert np.array_equal(load_weights(one)[0], w_ray)
    # the seeded stream is not the in-process one: a checkpoint of one is not resumed as other
    plain = tmp_path / "plain.npz"
    args = ["--out", str(plain), *SMALL]
    args[args.index("--updates") + 1] = "1"
    assert run(args) == 0
    assert run([*args, "--resume", "--workers", "2"]) == 2
    assert run(["--out", str(tmp_path / "x.npz"), *SMALL, "--workers", "1", "--python"]) == 2


@pytest.mark.parametrize("bad", [["--updates", "-5"], ["--m", "0"], ["--n", "0"],
                                 ["--k", "0"], ["--eps-start", "1.5"],
                                 ["--checkpoint-every", "0"], ["--positions", "-1"]])
def test_settings_that_cannot_run_are_refused(tmp_path: Path, bad: list[str],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "w.npz"
    assert run(["--out", str(out), *SMALL, *bad]) == 2
    assert bad[0] in capsys.readouterr().err
    assert not out.exists()


def test_checkpoints_are_compressed_and_older_uncompressed_ones_still_load(
        tmp_path: Path) -> None:
    from training.blokus.learn import load_checkpoint, save_checkpoint

    history = [{"update": float(t), "mse": 0.05, "mean_r": 0.5} for t in range(2000)]
    rng = np.random.default_rng(4)
    w = np.linspace(-1.0, 1.0, 50)
    new = tmp_path / "new.ckpt.npz"
    save_checkpoint(new, 1999, w, history, rng, {"m": 100}, 12.5)
    c = load_checkpoint(new)
    assert c["t"] == 1999 and c["history"] == history and c["settings"] == {"m": 100}
    assert np.array_equal(c["w"], w) and c["seconds"] == 12.5
    assert c["rng"] == rng.bit_generator.state
    old = tmp_path / "old.ckpt.npz"  # as the checkpoints before compression were written
    with np.load(new) as z:
        np.savez(old, **{k: z[k] for k in z.files})
    assert load_checkpoint(old)["history"] == history
    assert new.stat().st_size * 5 < old.stat().st_size


def test_average_from_writes_the_mean_of_the_later_weights_and_resumes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import training.blokus.learn as L

    out = tmp_path / "w.npz"
    seen: list[np.ndarray] = []  # the weights after each update (checkpoint every update)
    real_save = save_weights  # what the learner calls

    def save(path, w, k, meta=None):  # type: ignore[no-untyped-def]
        if Path(path) == out:
            seen.append(np.array(w))
        real_save(path, w, k, meta)

    monkeypatch.setattr(L, "save_weights", save)
    assert run(["--out", str(out), *SMALL, "--average-from", "3"]) == 0
    w_avg, _, meta = load_weights(L.average_path(out))
    assert L.average_path(out).name == "w.avg.npz"
    assert len(seen) == 5 and np.array_equal(seen[4], seen[3])  # 4 updates, the last again
    assert meta["averaged"] == [3, 4] and "--average-from 3" in meta["command"]
    assert np.allclose(w_avg, (seen[2] + seen[3]) / 2)
    assert np.array_equal(load_weights(out)[0], seen[3])  # the run itself is unchanged

    # interrupted in update 4, resumed: the same mean; a later start is refused
    parts = tmp_path / "parts.npz"
    real = SelectiveLearner.update
    calls = {"n": 0}

    def update(self, w, positions, rng):  # type: ignore[no-untyped-def]
        calls["n"] += 1
        if calls["n"] == 4:
            raise KeyboardInterrupt
        return real(self, w, positions, rng)

    monkeypatch.setattr(SelectiveLearner, "update", update)
    assert run(["--out", str(parts), *SMALL, "--average-from", "3"]) == 130
    assert load_weights(L.average_path(parts))[2]["averaged"] == [3, 3]
    monkeypatch.setattr(SelectiveLearner, "update", real)
    assert run(["--out", str(parts), *SMALL, "--resume", "--average-from", "4"]) == 2
    assert run(["--out", str(parts), *SMALL, "--resume"]) == 0  # the mean goes on
    assert np.array_equal(load_weights(L.average_path(parts))[0], w_avg)


def test_average_from_can_start_when_an_older_run_is_resumed(tmp_path: Path) -> None:
    import training.blokus.learn as L

    out = tmp_path / "w.npz"
    args = ["--out", str(out), *SMALL]
    args[args.index("--updates") + 1] = "2"
    assert run(args) == 0  # a run without a mean, stopped at update 2 ...
    w2 = load_weights(out)[0]
    ckpt = L.checkpoint_path(out)
    c = L.load_checkpoint(ckpt)
    c["settings"]["updates"] = 4  # ... as if it were the first half of a 4-update run
    L.save_checkpoint(ckpt, c["t"], c["w"], c["history"], np.random.default_rng(0),
                      c["settings"], c["seconds"])
    assert run(["--out", str(out), *SMALL, "--resume", "--average-from", "1"]) == 0
    assert load_weights(L.average_path(out))[2]["averaged"] == [3, 4]  # from the resume on
    assert not np.array_equal(load_weights(L.average_path(out))[0], w2)
