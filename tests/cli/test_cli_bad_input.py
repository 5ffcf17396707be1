"""Bad input as a user types it: one stderr line naming what and where, the right exit code,
no traceback (through :func:`sudokit.cli.app.main`, the entry point's own error handling)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from sudokit.cli.app import main

PUZZLE = "003020600900305001001806400008102900700000008006708200002609500800203009005010300"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, str]:
    made = {
        "empty": b"",
        "binary": b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x01",
        "short": b"123\n",
        "conflict": ("11" + PUZZLE[2:] + "\n").encode(),
        "huge": b"1" * 2_000_000 + b"\n",
        "ok": (PUZZLE + "\n").encode(),
    }
    out = {}
    for name, data in made.items():
        path = tmp_path / f"{name}.txt"
        path.write_bytes(data)
        out[name] = str(path)
    (tmp_path / "dir").mkdir()
    out["dir"] = str(tmp_path / "dir")
    out["missing"] = str(tmp_path / "missing.txt")
    return out


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return code, err


@pytest.mark.parametrize("command", ["solve", "count", "check", "convert", "render"])
@pytest.mark.parametrize(
    ("name", "code", "says"),
    [
        ("empty", 2, "no puzzles found"),
        ("binary", 2, "binary data"),
        ("short", 2, "got 3"),
        ("huge", 2, "longer than"),
        ("missing", 2, "missing.txt"),
        ("dir", 2, "dir"),
    ],
)
def test_unreadable_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str],
    files: dict[str, str],
    command: str,
    name: str,
    code: int,
    says: str,
) -> None:
    got, err = _run(capsys, command, files[name])
    assert got == code
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert says in lines[0]
    assert lines[0].startswith("sudokit")


@pytest.mark.parametrize("command", ["solve", "count", "check"])
def test_conflicting_givens_are_a_no_answer(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], command: str
) -> None:
    code, err = _run(capsys, command, files["conflict"])
    assert code == 1
    assert len(err.splitlines()) == 1
    assert "conflicting givens" in err
    assert "r1c1" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "--box", "0x3"],
        ["solve", "--box", "3x"],
        ["solve", "--box", "100x100"],
        ["count", "--limit", "0"],
        ["count", "--limit", "-1"],
        ["solve", "--to", "nonsense"],
        ["solve", "--from", "nonsense"],
        ["solve", "--budget", "-1"],
        ["solve", "-j", "-2"],
        ["render", "--cell", "0"],
        ["render", "--cell", "nan"],
        ["render", "--dpi", "0"],
        ["render", "--index", "0"],
        ["render", "-f", "pdf"],
        ["render", "-o", "picture.xyz"],
        ["serve", "--port", "70000"],
        ["nosuchcommand"],
    ],
)
def test_impossible_options_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], argv: list[str]
) -> None:
    code, err = _run(capsys, *argv, *([files["ok"]] if argv[0] != "serve" else []))
    assert code == 2
    assert len(err.splitlines()) == 1, err
    option = next((a for a in argv if a.startswith("-")), argv[0])
    assert option.lstrip("-") in err


def test_a_box_too_big_for_symbols_asks_for_integers(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    code, err = _run(capsys, "convert", "--box", "8x8", files["ok"])
    assert code == 2
    assert "separated integers" in err


def test_json_numbers_do_not_run_together(
    capsys: pytest.CaptureFixture[str], files: dict[str, str]
) -> None:
    # A line-format file read as JSON is one bad record, not the numbers 0, 0, 3020...
    code, err = _run(capsys, "solve", "--from", "json", files["ok"])
    assert code == 2
    assert err.splitlines() == [
        f"sudokit: {files['ok']}:1: puzzle 1: column 2: bad JSON: extra data after the value"
    ]


def test_render_pencil_marks_given_as_a_long_argument(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # 729 characters used to be tried as a file name first: "File name too long".
    code = main(["render", "--from", "candidates", "-p", "123456789" * 81])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert out.count("123") > 0


def test_serve_reports_a_busy_port_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    with socket.create_server(("127.0.0.1", 0)) as busy:
        busy.listen()
        port = busy.getsockname()[1]
        code, err = _run(capsys, "serve", "--port", str(port))
    assert code == 2
    assert err.splitlines() == [
        f"sudokit: cannot serve on 127.0.0.1:{port}: Address already in use"
    ]


def test_unreadable_file(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # chmod 000 does not stop root, so the open call itself is made to fail as it would.
    import sudokit.blocks
    import sudokit.formats

    def refuse(name: str, *args: object, **kwargs: object) -> None:
        raise PermissionError(13, "Permission denied", name)

    monkeypatch.setattr(sudokit.formats, "open", refuse, raising=False)
    monkeypatch.setattr(sudokit.blocks, "open", refuse, raising=False)  # the bulk path's check
    code, err = _run(capsys, "solve", files["ok"])
    assert code == 2
    assert err.splitlines() == [f"sudokit: {files['ok']}: Permission denied"]


@pytest.mark.parametrize("name", ["empty", "binary", "short", "huge", "missing"])
def test_print_unreadable_input(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path, name: str
) -> None:
    pytest.importorskip("reportlab")
    book = tmp_path / "book.pdf"
    code, err = _run(capsys, "print", files[name], "-o", str(book))
    assert code == 2
    assert len(err.splitlines()) == 1, err
    assert not book.exists()


def test_print_leaves_out_conflicting_puzzles(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    pytest.importorskip("reportlab")
    mixed = tmp_path / "mixed.txt"
    mixed.write_text(PUZZLE + "\n" + Path(files["conflict"]).read_text() + PUZZLE + "\n")
    book = tmp_path / "book.pdf"
    code, err = _run(capsys, "print", str(mixed), "-o", str(book))
    assert code == 1
    lines = err.splitlines()
    assert lines[0].startswith(f"sudokit: {mixed}:2: puzzle 2: conflicting givens")
    assert lines[-1] == f"sudokit: {book}: 2 puzzles, 2 pages"
    assert book.read_bytes().startswith(b"%PDF")


def test_resume_refuses_binary_input(
    capsys: pytest.CaptureFixture[str], files: dict[str, str], tmp_path: Path
) -> None:
    binary = tmp_path / "noise.bin"
    binary.write_bytes(bytes(range(128, 256)) * 4)
    code, err = _run(capsys, "solve", "--resume", "-o", str(tmp_path / "out.txt"), str(binary))
    assert code == 2
    assert err.splitlines() == [f"sudokit: {binary}:1: puzzle 1: binary data, not UTF-8 text"]


def test_serve_reports_an_unknown_host_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("uvicorn")
    code, err = _run(capsys, "serve", "--host", "no-such-host.invalid", "--port", "0")
    assert code == 2
    assert len(err.splitlines()) == 1
    assert err.startswith("sudokit: cannot serve on no-such-host.invalid:0: ")


@pytest.mark.parametrize(
    "argv",
    [["solve"], ["count"], ["check"], ["convert"], ["solve", "--resume"]],
    ids=lambda a: " ".join(a),
)
def test_output_over_an_input_is_refused_and_the_input_kept(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: list[str]
) -> None:
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(PUZZLE + "\n")
    link = tmp_path / "link.txt"
    link.symlink_to(puzzles)
    code, err = _run(capsys, *argv, str(puzzles), "-o", str(link))
    assert code == 2
    assert err.splitlines() == [
        f"sudokit: {link}: the output file is also an input; write to another file"
    ]
    assert puzzles.read_text() == PUZZLE + "\n"
