"""Output files that never clobber, and input reads that never run away (one place for both).

:func:`output` is how every output path is opened: ``-`` is standard output; a regular file
(or a path that does not exist yet) is written to a temporary file in the same directory and
renamed onto the target only when the writing succeeded, with the target's permissions; a
symlink to a regular file has its *target* replaced that way, so the link stays a link;
anything else -- a device such as ``/dev/stdout``, a pipe, a symlink to one -- is written
through, never replaced. A failed write (an exception, a full disk) leaves the old file as it
was and no temporary file behind.

:func:`read_text_limited` reads a whole small input (a pattern, a region map, one puzzle) with
a size limit and a clear error instead of reading ``/dev/zero`` until memory runs out.
"""

from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from collections.abc import Iterator
from typing import IO, Any

from ..errors import ParseError, SudokuError
from ._base import line_text

__all__ = [
    "cannot_create",
    "output",
    "output_bytes",
    "read_text_limited",
    "temporary_sibling",
    "writes_through",
]


def writes_through(path: str) -> bool:
    """True when *path* exists and is not a regular file (following symlinks): a device, a
    pipe, a socket -- something to write into, never to replace."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode)


def temporary_sibling(target: str) -> tuple[int, str]:
    """Create a new temporary file next to *target* (same directory, so that a rename is
    atomic), with the permissions a new file would get (0o666 less the umask); return its
    descriptor and path. Raises :class:`OSError` (e.g. the directory does not exist)."""
    directory, name = os.path.split(target)
    for attempt in range(100):
        tmp = os.path.join(directory, f".{name}.{os.getpid()}-{attempt}.tmp")
        try:
            return os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), tmp
        except FileExistsError:
            continue
    raise FileExistsError(f"{target}: cannot create a temporary file next to it")


@contextlib.contextmanager
def output(path: str) -> Iterator[IO[str]]:
    """The text stream (UTF-8, ``\\n`` line ends) to write the output *path* to; see the
    module docstring for what happens where. :func:`output_bytes` is the same for bytes.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     target = os.path.join(d, "out.txt")
    ...     with output(target) as stream:
    ...         _ = stream.write("new\\n")
    ...     try:
    ...         with output(target) as stream:
    ...             _ = stream.write("half")
    ...             raise OSError(28, "No space left on device")
    ...     except OSError:
    ...         pass
    ...     open(target).read(), sorted(os.listdir(d))
    ('new\\n', ['out.txt'])
    """
    with _output(path, False) as stream:
        yield stream


@contextlib.contextmanager
def output_bytes(path: str) -> Iterator[IO[bytes]]:
    """The binary stream to write the output *path* to (see :func:`output`)."""
    with _output(path, True) as stream:
        yield stream


@contextlib.contextmanager
def _output(path: str, binary: bool) -> Iterator[IO[Any]]:
    if path == "-":
        if binary:
            sys.stdout.flush()
            yield sys.stdout.buffer
            sys.stdout.buffer.flush()
        else:
            yield sys.stdout
            sys.stdout.flush()
        return
    mode = "wb" if binary else "w"
    if writes_through(path):
        with _open(path, mode) as stream:
            yield stream
        return
    target = os.path.realpath(path)  # a symlink's target is replaced, the link stays
    try:
        keep: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except OSError:
        keep = None
    try:
        fd, tmp = temporary_sibling(target)
    except OSError as exc:  # named as the user named it, not by the temporary file's name
        raise OSError(exc.errno, cannot_create(exc, target), path) from None
    try:
        with _fdopen(fd, mode) as stream:
            yield stream
            stream.flush()
            os.fsync(stream.fileno())
        if keep is not None:
            os.chmod(tmp, keep)
        try:
            os.replace(tmp, target)
        except OSError as exc:
            raise OSError(exc.errno, exc.strerror, path) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def cannot_create(exc: OSError, target: str) -> str:
    """Why *target* cannot be written when nothing can be created next to it (*exc*: the
    error of the attempt): the system's words when its directory is missing, else what is
    really wrong -- the directory takes no new entry (a kernel or read-only file system such
    as ``/proc``, or no permission), so *target* cannot be made, nor replaced.

    >>> cannot_create(FileNotFoundError(2, "No such file or directory"), "/no/such/dir/out")
    'No such file or directory'
    >>> cannot_create(FileNotFoundError(2, "No such file or directory"), "/proc/version")
    'not a writable regular file (no file can be created in /proc: No such file or directory)'
    >>> cannot_create(PermissionError(13, "Permission denied"), "/proc/new.parts")
    'cannot be created in /proc (Permission denied)'
    """
    directory = os.path.dirname(target) or "."
    why = exc.strerror or str(exc)
    if not os.path.isdir(directory):
        return why
    if os.path.lexists(target):
        return f"not a writable regular file (no file can be created in {directory}: {why})"
    return f"cannot be created in {directory} ({why})"


def _open(path: str, mode: str) -> IO[Any]:
    if mode == "wb":
        return open(path, "wb")
    return open(path, "w", encoding="utf-8", newline="\n")


def _fdopen(fd: int, mode: str) -> IO[Any]:
    if mode == "wb":
        return os.fdopen(fd, "wb")
    return os.fdopen(fd, "w", encoding="utf-8", newline="\n")


def read_text_limited(path: str, limit: int, what: str = "") -> str:
    """The whole text of the file *path* (``-``: standard input), refused with a
    :class:`~sudokit.errors.SudokuError` naming *what* (when given) when it is longer than
    *limit* bytes, missing or unreadable, and with a :class:`~sudokit.errors.ParseError` on
    its line and column when it is not UTF-8 text or holds a NUL byte (the line readers' one
    rule, :func:`~sudokit.formats._base.line_text`) -- never more than *limit* + 1 bytes are
    read. The one bounded-read rule of the library and the CLI (region maps, patterns, pencil
    marks).

    >>> read_text_limited("/dev/zero", 1000, "--pattern")
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokuError: --pattern: /dev/zero: larger than 1000 bytes
    >>> read_text_limited("no-such-file", 10, "--pattern")
    Traceback (most recent call last):
    ...
    sudokit.errors.SudokuError: --pattern: no-such-file: no such file
    """
    label = f"{what}: " if what else ""
    label += "<stdin>" if path == "-" else path
    try:
        if path == "-":
            data = _read_upto(sys.stdin.buffer, limit + 1)
        else:
            with open(path, "rb") as stream:
                data = _read_upto(stream, limit + 1)
    except FileNotFoundError:
        raise SudokuError(f"{label}: no such file") from None
    except OSError as exc:
        raise SudokuError(f"{label}: {exc.strerror or exc}") from None
    if len(data) > limit:
        raise SudokuError(f"{label}: larger than {limit} bytes")
    bad = data.find(b"\0")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        bad = exc.start if bad < 0 else min(bad, exc.start)
    if bad < 0:
        return text
    # Not text: the line readers' own error for the first bad line, placed on that line.
    start = data.rfind(b"\n", 0, bad) + 1
    end = data.find(b"\n", bad)
    error = line_text(data[start : len(data) if end < 0 else end])
    assert isinstance(error, ParseError)
    raise error.located(line=data.count(b"\n", 0, start) + 1, source=label)


def _read_upto(stream: IO[bytes] | io.BufferedIOBase, size: int) -> bytes:
    """Up to *size* bytes of *stream* (several reads: pipes return what they have)."""
    parts, got = [], 0
    while got < size:
        part = stream.read(size - got)
        if not part:
            break
        parts.append(part)
        got += len(part)
    return b"".join(parts)
