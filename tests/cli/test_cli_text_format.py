"""``--to text`` and ``--to txt`` are one format in every command that writes text pictures
or lines (hint, explain, rate, render): the same output, and help lists one name."""

from __future__ import annotations

from pathlib import Path

import pytest

from sudokit.cli.app import main

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."


@pytest.mark.parametrize("command", ["hint", "explain", "rate", "render"])
def test_txt_is_text(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    outputs = []
    for name in ("text", "txt"):
        assert main([command, "-p", EASY, "--to", name]) == 0, name
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1]
    assert main([command, "--help"]) == 0
    usage = capsys.readouterr().out
    assert "text" in usage
    assert "txt|" not in usage
    assert "|txt" not in usage


def test_render_reads_a_txt_file_name_as_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "grid.txt"
    assert main(["render", "-p", EASY, "-o", str(out)]) == 0
    assert main(["render", "-p", EASY, "--to", "text"]) == 0
    assert out.read_text(encoding="utf-8") == capsys.readouterr().out
