"""Rendering: one drawing model, several outputs (layer 3).

:func:`draw` turns a grid (plus user digits, candidates, a logic step's highlights) into a
:class:`Scene` of primitives; :func:`to_svg`, :func:`to_text` and the PDF writers in
:mod:`sudokit.render.pdf` (:func:`to_pdf`, :func:`write_book`; reportlab, the ``pdf`` extra,
imported only when used) draw scenes.

>>> from sudokit.grid import Grid
>>> g = Grid.parse("1.3." "...2" "2..." ".3.1")
>>> to_svg(draw(g, candidates="auto")).count("<g ")
7
>>> print(to_text(g).splitlines()[1])
| 1 . | 3 . |
"""

from __future__ import annotations

from . import model
from .model import *  # noqa: F403  (the drawing model's public names, listed in model.__all__)
from .pdf import BookInfo, BookItem, GridPlacement, to_pdf, write_book
from .svg import to_svg
from .text import rules_text, to_text

__all__ = [
    "BookInfo",
    "BookItem",
    "GridPlacement",
    "rules_text",
    "to_pdf",
    "to_svg",
    "to_text",
    "write_book",
]
__all__ += model.__all__
