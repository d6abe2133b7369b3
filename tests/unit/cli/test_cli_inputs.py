"""What the command line reads: only ordinary files, never more than its limit, and numbers written
with the digits 0 to 9, exactly as links read them.

Each case runs `python -m cfrviz` (or a small reader) in a child process under an address-space cap,
so a reader without a bound fails the test instead of filling the machine; the timeout is a hang
guard (a FIFO blocks whoever opens it for reading until a writer comes), not a performance claim.
"""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from cfrviz.app import links
from tests.support.cli import refusal, run_cli, run_python

#: Address space of each child: ample for a small solve, far below what reading /dev/zero unbounded takes.
CHILD_BYTES = 3 * 1024**3
#: Seconds before a child counts as hung.
HANG_GUARD_SECONDS = 60


def child(*args: str) -> subprocess.CompletedProcess[str]:
    return run_python(*args, timeout=HANG_GUARD_SECONDS, address_space=CHILD_BYTES)


def cfrviz(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, timeout=HANG_GUARD_SECONDS, address_space=CHILD_BYTES)


def special_files(folder: Path) -> dict[str, Path]:
    """An .efg name for each kind of file that is not an ordinary file on disk."""
    zero, fifo, status, directory = (folder / f"{name}.efg" for name in ("zero", "fifo", "status", "folder"))
    zero.symlink_to("/dev/zero")           # a device behind an ordinary-looking name: endless zero bytes
    os.mkfifo(fifo)                        # opening it for reading waits for a writer
    status.symlink_to("/proc/self/status")  # stat says 0 bytes, reading gives more
    directory.mkdir()
    return {"device": zero, "fifo": fifo, "proc": status, "folder": directory}


@pytest.mark.parametrize("kind", ["device", "fifo", "proc", "folder"])
def test_a_game_path_that_is_no_ordinary_file_is_refused_in_one_sentence(tmp_path: Path, kind: str) -> None:
    # Reference: stat(2): only S_ISREG files have a size that bounds what a read returns; /proc files are
    # S_ISREG with st_size 0 but hold text, so the bytes read must also match the size stat gave.
    path = special_files(tmp_path)[kind]
    sentence = refusal(cfrviz("solve", str(path), "-a", "cfr", "-n", "1"))
    assert path.name in sentence
    assert ("not an ordinary file" in sentence) if kind != "folder" else ("is a folder" in sentence), sentence


@pytest.mark.parametrize("kind", ["device", "fifo", "proc", "folder"])
@pytest.mark.parametrize("reader", ["cfrviz.run.load_run", "cfrviz.run.read_strategy_file"])
def test_run_and_strategy_files_are_read_from_ordinary_files_only(tmp_path: Path, kind: str, reader: str) -> None:
    # Reference: as above; the library's file readers answer with one ValueError sentence naming the file.
    path = special_files(tmp_path)[kind]
    module, name = reader.rsplit(".", 1)
    code = (f"import sys\nfrom {module} import {name}\ntry:\n    {name}(sys.argv[1])\n"
            "except ValueError as error:\n    print(error)\n    sys.exit(2)\n")
    result = child("-c", code, str(path))
    assert result.returncode == 2, result.stderr[-500:]
    (sentence,) = result.stdout.strip().splitlines()
    assert path.name in sentence and sentence.endswith("."), sentence
    assert ("not an ordinary file" in sentence) if kind != "folder" else ("is a folder" in sentence), sentence


@pytest.mark.parametrize("args", [
    ["--iterations", "٣"],           # ARABIC-INDIC DIGIT THREE: int() reads it as 3
    ["--iterations", "1_000"],       # int() reads digit groups as 1000
    ["--iterations", "10", "--seed", "١"],
    ["--iterations", "10", "--cards", "1_0"],
    ["--iterations", "10", "--snapshots", "٥"],
    ["--iterations", "1" + "0" * 12],
])
def test_numbers_take_the_digits_0_to_9_only_as_links_do(args: list[str]) -> None:
    # Reference: cfrviz.util.whole_numbers.parse_whole_number, the reader links use: ASCII digits, at most 12.
    sentence = refusal(cfrviz("solve", "kuhn", "-a", "cfr", *args))
    assert "digits 0 to 9" in sentence or "more than 12 digits" in sentence, sentence
    assert args[-1] in sentence


def test_links_refuse_the_same_numbers_with_one_notice() -> None:
    # Reference: the same reader; a link's bad number falls back to the default with one sentence.
    for params in ({"iters": "٣"}, {"iters": "1_000"}, {"algo": "external", "seed": "١"}, {"game": "kuhn1_0"}):
        link = links.parse_query_params(params)
        assert len(link.notices) == 1 and link.notices[0].endswith("."), (params, link.notices)
    assert links.parse_query_params({"iters": "1_000"}).choice.iterations == links.DEFAULT_CHOICE.iterations
    assert links.parse_query_params({"algo": "external", "seed": "١"}).choice.seed == 0


def test_links_and_the_cli_share_one_number_reader_and_seed_bound() -> None:
    # Reference: one place for the rule (cfrviz.util.whole_numbers); the CLI and links import it.
    from cfrviz import cli
    from cfrviz.util import whole_numbers as numbers

    assert links.parse_whole_number is numbers.parse_whole_number
    assert cli.MAX_SEED is numbers.MAX_SEED and links.MAX_SEED is numbers.MAX_SEED
    assert refusal(cfrviz("solve", "kuhn", "-a", "external", "-n", "10", "--seed", str(numbers.MAX_SEED + 1)))
    assert cfrviz("solve", "kuhn", "-a", "external", "-n", "10", "--seed", str(numbers.MAX_SEED)).returncode == 0


@pytest.mark.parametrize("flag, name", [("--json", "strategy.json"), ("--out", "run.npz")])
def test_an_output_fifo_without_a_reader_is_one_sentence_not_a_wait(tmp_path: Path, flag: str, name: str) -> None:
    # Reference: open(2): O_WRONLY | O_NONBLOCK on a FIFO that no process reads fails with ENXIO, where a
    # blocking open waits for a reader (the CLI checked its outputs that way before solving, and hung).
    fifo = tmp_path / name
    os.mkfifo(fifo)
    sentence = refusal(cfrviz("solve", "kuhn", "-a", "cfr", "-n", "10", flag, str(fifo)))
    assert f"Cannot write {flag} {fifo}: it is a pipe (FIFO) that no program is reading." in sentence
