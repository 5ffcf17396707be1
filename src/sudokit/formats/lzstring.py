"""The lz-string codec in its base-64 form, as f-puzzles and SudokuPad links carry puzzles.

lz-string is an LZW variant over UTF-16 code units: a dictionary of phrases grows as the
text is read, each step writes the code of the longest known phrase; a character met for
the first time is written as a literal (code 0 then 8 bits, or code 1 then 16 bits) and
code 2 ends the stream. Codes are written with a width that grows by one bit each time
the dictionary's size passes a power of two, least significant bit first, into a stream of
6-bit groups (most significant bit first) that are written as the base-64 alphabet
``A-Z a-z 0-9 + /``, padded with ``=`` to a multiple of four characters.

Written from the description of the algorithm (lz-string 1.4 by Pieroxy, the JavaScript
library both sites use); no code is taken from it.

>>> compress('{"size":9}')
'N4IgzglgXgpiBcBOAvkA'
>>> decompress(compress('{"size":9,"title":"naïve 🧩"}'))
'{"size":9,"title":"naïve 🧩"}'
"""

from __future__ import annotations

__all__ = ["ALPHABET", "compress", "decompress"]

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
_VALUE = {ch: i for i, ch in enumerate(ALPHABET)}
_BITS = 6
#: Longest text decompress() produces (a guard against data that expands without end).
MAX_TEXT = 1 << 23


def _units(text: str) -> str:
    """*text* as UTF-16 code units, one character each (what JavaScript strings are made of:
    a character beyond U+FFFF is two surrogates)."""
    data = text.encode("utf-16-le", "surrogatepass")
    return "".join(chr(data[i] | data[i + 1] << 8) for i in range(0, len(data), 2))


def _text(units: str) -> str:
    """The text of UTF-16 code units (surrogate pairs joined)."""
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


class _BitWriter:
    """Values written least significant bit first into 6-bit groups."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.group = 0
        self.filled = 0

    def bits(self, value: int, width: int) -> None:
        for _ in range(width):
            self.group = self.group << 1 | (value & 1)
            value >>= 1
            self.filled += 1
            if self.filled == _BITS:
                self.out.append(ALPHABET[self.group])
                self.group = self.filled = 0

    def finish(self) -> str:
        # The last group is always written, padded with zero bits (an empty one too: "A").
        self.out.append(ALPHABET[self.group << (_BITS - self.filled)])
        text = "".join(self.out)
        return text + "=" * (-len(text) % 4)


def compress(text: str) -> str:
    """*text* compressed to lz-string base 64 (what ``LZString.compressToBase64`` gives)."""
    out = _BitWriter()
    codes: dict[str, int] = {}
    pending: set[str] = set()  # characters added to the dictionary but not yet written out
    size = 3  # codes 0, 1 and 2 are the two literal markers and the end
    width = 2
    until_wider = 2

    def step() -> None:
        nonlocal width, until_wider
        until_wider -= 1
        if until_wider == 0:
            until_wider = 1 << width
            width += 1

    def emit(phrase: str) -> None:
        if phrase in pending:
            char = ord(phrase)
            wide = char > 0xFF
            out.bits(1 if wide else 0, width)
            out.bits(char, 16 if wide else 8)
            step()
            pending.discard(phrase)
        else:
            out.bits(codes[phrase], width)
        step()

    phrase = ""
    for char in _units(text):
        if char not in codes:
            codes[char] = size
            size += 1
            pending.add(char)
        longer = phrase + char
        if longer in codes:
            phrase = longer
            continue
        emit(phrase)
        codes[longer] = size
        size += 1
        phrase = char
    if phrase:
        emit(phrase)
    out.bits(2, width)
    return out.finish()


class _BitReader:
    def __init__(self, data: str) -> None:
        self.values = []
        for at, ch in enumerate(data.rstrip("=")):
            value = _VALUE.get(ch)
            if value is None:
                raise ValueError(f"{ch!r} at offset {at} is not a base-64 character")
            self.values.append(value)
        self.index = 0
        self.mask = 0

    def bits(self, width: int) -> int:
        value = 0
        for power in range(width):
            if self.mask == 0:
                if self.index >= len(self.values):
                    raise ValueError("the compressed data ends too early")
                self.mask = 1 << (_BITS - 1)
                self.index += 1
            if self.values[self.index - 1] & self.mask:
                value |= 1 << power
            self.mask >>= 1
        return value


def decompress(data: str) -> str:
    """The text of lz-string base-64 *data* (what ``LZString.decompressFromBase64`` gives);
    :class:`ValueError` for data that is not such a stream.

    >>> decompress("N4IgzglgXgpiBcBOAvkA")
    '{"size":9}'
    >>> decompress("N4Ig!")
    Traceback (most recent call last):
    ...
    ValueError: '!' at offset 4 is not a base-64 character
    """
    reader = _BitReader(data)
    # Codes 0 and 1 announce a literal character (8 or 16 bits), 2 ends the stream; the
    # code width is the bit length of the dictionary's size (2 bits for the first code).
    phrases = ["", "", ""]
    previous: str | None = None
    out: list[str] = []
    size = 0
    while True:
        code = reader.bits(2 if previous is None else len(phrases).bit_length())
        if code == 2:
            return _text("".join(out))
        if code < 2:
            phrases.append(chr(reader.bits(16 if code else 8)))
            code = len(phrases) - 1
        if code < len(phrases):
            entry = phrases[code]
        elif code == len(phrases) and previous is not None:
            entry = previous + previous[0]
        else:
            raise ValueError("bad compressed data (a code that is not in the dictionary)")
        out.append(entry)
        size += len(entry)
        if size > MAX_TEXT:
            raise ValueError(f"compressed data expands past {MAX_TEXT} characters")
        if previous is not None:
            phrases.append(previous + entry[0])
        previous = entry
