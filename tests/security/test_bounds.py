"""Bounds on what one visitor or one command can cost, and deploy settings that hide internals.

References: the issue's measurements (Evolution: 40 chosen Leduc sets cost 18.2 s per rerun; the
download button re-compressed a Leduc run on every rerun, about 2 s), hand-solved matrix games,
and Linux's /dev/full (every write fails with ENOSPC).
"""
from __future__ import annotations

import errno
import json
import os
import tomllib
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

from cfrviz import app, cli
from cfrviz.analysis import matrix_equilibrium
from cfrviz.app.download_files import run_file_bytes
from cfrviz.run import Run, export_strategy, load_run

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")


# --- the CLI leaves every output file or none -------------------------------------------------


def _solve(tmp_path: Path, *outputs: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    status = cli.main(["solve", "kuhn", "-a", "cfr", "-n", "20", *outputs])
    return status, capsys.readouterr().err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs Linux's /dev/full")
def test_a_full_disk_names_the_file_and_leaves_nothing(tmp_path: Path, capsys) -> None:
    # /dev/full refuses every write with ENOSPC; the run file beside it must not be left behind.
    status, err = _solve(tmp_path, "--json", "/dev/full", "--out", str(tmp_path / "run.npz"), capsys=capsys)
    assert status == 2
    assert err == "cfrviz: Could not write /dev/full: no space left on device.\n"
    assert list(tmp_path.iterdir()) == []


def test_a_failing_run_file_takes_the_strategy_file_with_it(tmp_path: Path, capsys, monkeypatch) -> None:
    # The issue: `--json ok.json --out run.npz` left ok.json behind when writing run.npz failed.
    def full_disk(run: Run, handle) -> None:
        handle.write(b"PK\x03\x04 partial")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cli, "save_run", full_disk)
    out = tmp_path / "run.npz"
    status, err = _solve(tmp_path, "--json", str(tmp_path / "ok.json"), "--out", str(out), capsys=capsys)
    assert status == 2
    assert err == f"cfrviz: Could not write {out}: no space left on device.\n"
    assert list(tmp_path.iterdir()) == []


def test_outputs_are_complete_files_with_ordinary_permissions(tmp_path: Path, capsys) -> None:
    existing = tmp_path / "ok.json"
    existing.write_text("old")
    status, err = _solve(tmp_path, "--json", str(existing), "--out", str(tmp_path / "run.npz"), capsys=capsys)
    assert status == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.json", "run.npz"]  # no temporary left
    assert json.loads(existing.read_text())["iterations"] == 20
    assert load_run(tmp_path / "run.npz").settings.iterations == 20
    mask = os.umask(0)
    os.umask(mask)
    assert (tmp_path / "run.npz").stat().st_mode & 0o777 == 0o666 & ~mask


# --- one widget, one click: bounded work ------------------------------------------------------


def test_evolution_caps_the_information_sets_chosen() -> None:
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["game"] = "leduc"
    at.query_params["iters"] = "50"
    at.switch_page("pages/2_Evolution.py").run()
    assert not at.exception, [e.value for e in at.exception]
    chooser = at.multiselect(key="evolution_infosets")
    assert chooser.proto.max_selections == 8 and "up to 8" in chooser.label


def test_downloads_are_built_only_when_clicked(monkeypatch) -> None:
    # Reference: a rerun must not compress the run (st.download_button with a callable defers it).
    calls: list[str] = []
    def counting_save(run: Run) -> bytes:
        calls.append("save")
        return run_file_bytes(run)

    def counting_export(run: Run, path=None) -> str:
        calls.append("export")
        return export_strategy(run, path)

    # The app shell writes the downloads with these two functions.
    monkeypatch.setattr(app.share, "run_file_bytes", counting_save)
    monkeypatch.setattr(app.share, "export_strategy", counting_export)
    at = AppTest.from_file(APP, default_timeout=120)
    at.switch_page("pages/3_Convergence.py").run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.get("plotly_chart"), "the page shows a solved run, so its downloads are offered"
    at.run()
    # Passing bytes (the old way) would have called save and export_strategy on each run.
    assert calls == []


# --- matrix games: bounded input, robust equilibrium ------------------------------------------

WEIGHTED_RPS = np.array([[0.0, -1.0, 2.0], [1.0, 0.0, -1.0], [-2.0, 1.0, 0.0]])


@pytest.mark.parametrize("scale", [1.0, 1e-200, 1e6, 1e200, 1e300])
def test_matrix_equilibrium_at_any_scale(scale: float) -> None:
    # Reference (hand-solved): weighted rock-paper-scissors has the equilibrium 1/4, 1/2, 1/4 for
    # both players and value 0 at every scale; 1e200 used to overflow the determinants.
    row, column, value = matrix_equilibrium(WEIGHTED_RPS * scale)
    np.testing.assert_allclose(row, [0.25, 0.5, 0.25], atol=1e-9)
    np.testing.assert_allclose(column, [0.25, 0.5, 0.25], atol=1e-9)
    assert abs(value) <= 1e-9 * scale


def test_matrix_equilibrium_scales_the_value_and_keeps_its_cache_private() -> None:
    # Reference (hand-solved): in [[3, 1], [2, 0]] "up" dominates, then player 2 picks "right": value 1.
    saddle = np.array([[3.0, 1.0], [2.0, 0.0]]) * 1e5
    row, column, value = matrix_equilibrium(saddle)
    assert (row.tolist(), column.tolist(), value) == ([1.0, 0.0], [0.0, 1.0], 1e5)
    row[:] = 0.5  # a caller's change must not reach the remembered answer
    again = matrix_equilibrium(saddle)
    assert again[0].tolist() == [1.0, 0.0] and again[0].flags.writeable


def test_matrix_payoffs_are_bounded_at_input() -> None:
    from cfrviz.games.matrix import MAX_PAYOFF, MatrixGame

    with pytest.raises(ValueError, match="between -1,000,000 and 1,000,000"):
        MatrixGame.from_lists([[1e200, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match="between -1,000,000 and 1,000,000"):
        MatrixGame.from_lists([[10**400, 0], [0, 1]])
    assert MatrixGame.from_lists([[MAX_PAYOFF, -MAX_PAYOFF], [0, 1]]).payoffs[0][0] == MAX_PAYOFF


# --- deploys hide error details ----------------------------------------------------------------


def test_deploy_config_hides_tracebacks_and_tests_see_them(tmp_path: Path) -> None:
    # Reference: Streamlit's client.showErrorDetails = "none" shows a generic message only.
    from streamlit import config

    assert tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["client"]["showErrorDetails"] == "none"
    script = tmp_path / "boom.py"
    script.write_text("raise RuntimeError('secret at /srv/app/cfrviz/run.py')\n")
    assert config.get_option("client.showErrorDetails") == "full"   # set by tests/conftest.py
    assert "secret" in AppTest.from_file(str(script)).run().exception[0].value
    config.set_option("client.showErrorDetails", "none")
    try:
        shown = AppTest.from_file(str(script)).run().exception[0]
        assert "secret" not in shown.value and "/srv" not in shown.value and not shown.stack_trace
    finally:
        config.set_option("client.showErrorDetails", "full")
