"""One source for each list of names: where a second list has to exist (a ``Literal`` type of
the web models, which type checkers and the API schema read statically), it is checked here
against the library's own, so that adding a name in one place and not the other fails."""

from __future__ import annotations

from typing import get_args

import pytest

pytest.importorskip("pydantic")

from sudokit import formats
from sudokit.generator.symmetry import SYMMETRIES, SYMMETRY_ALIASES
from sudokit.logic._names import Labels
from sudokit.rating import LEVELS
from sudokit.web import models


def test_web_symmetries_are_the_generators() -> None:
    assert get_args(models.Symmetry) == (*SYMMETRIES, *SYMMETRY_ALIASES)


def test_web_levels_are_the_ratings() -> None:
    assert get_args(models.Level) == tuple(name for name, _ in LEVELS)


def test_web_format_names_are_the_formats() -> None:
    assert get_args(models.FormatName) == tuple(formats.FORMATS)


def test_web_step_labels_are_the_logics() -> None:
    field = models.HintIn.model_fields["labels"]
    assert get_args(field.annotation) == get_args(Labels)
