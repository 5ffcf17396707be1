"""Every option of every command says what it does in --help, and ``generate`` and
``dataset`` take their shared options (``-n/--count``, ``--seed``, ``--difficulty``,
``--rating``) in the same forms."""

from __future__ import annotations

import json

import click
import pytest

from sudokit.cli.app import COMMANDS, _load, main

SHARED = ("count", "seed", "difficulty", "rating")


def _command(name: str) -> click.Command:
    command = _load(name)
    assert command is not None
    return command


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_option_has_help(name: str) -> None:
    for param in _command(name).params:
        if isinstance(param, click.Option) and not param.hidden:
            assert param.help, f"sudokit {name} {'/'.join(param.opts)} has no help text"


@pytest.mark.parametrize("option", SHARED)
def test_generate_and_dataset_declare_shared_options_alike(option: str) -> None:
    declared = []
    for name in ("generate", "dataset"):
        param = next(p for p in _command(name).params if p.name == option)
        declared.append((param.opts, param.metavar, param.help))
    assert declared[0][:2] == declared[1][:2]
    if option != "count":  # what is counted differs (dataset's rows)
        assert declared[0] == declared[1]


def test_dataset_takes_count_random_seed_and_se_range(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--size", "4", "--to", "jsonl", "--difficulty", "1.0-1.5"]
    assert main(["dataset", "--count", "2", "--seed", "random", *args]) == 0
    captured = capsys.readouterr()
    rows = [json.loads(line) for line in captured.out.splitlines()]
    assert len(rows) == 2
    assert all(1.0 <= row["rating"] <= 1.5 for row in rows)
    seed = captured.err.split()[2]  # "sudokit: seed N (pass --seed N to repeat this run)"
    assert f"pass --seed {seed} to repeat" in captured.err
    assert main(["dataset", "-n", "2", "--seed", seed, *args]) == 0
    assert capsys.readouterr().out == captured.out
