"""The docs site builds with warnings as errors, and its generated references are whole: the
command-line page names every click command, the formats page every format and JSON rule key,
the API page every public name, and the technique pages every registered technique.

The build runs ``mkdocs build --strict`` into a temporary directory (the ``docs`` extra); it is
skipped when MkDocs is not installed."""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path

import pytest

import sudokit
from sudokit import formats
from sudokit.cli.app import COMMANDS
from sudokit.formats import _rules
from sudokit.logic.registry import TECHNIQUES
from support import REPO, run_text

pytest.importorskip("mkdocs", reason="the docs site needs the docs extra (pip install '.[docs]')")
pytest.importorskip("mkdocstrings", reason="the docs site needs the docs extra")
pytest.importorskip("mkdocs_click", reason="the docs site needs the docs extra")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = run_text(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d", str(out)],
        cwd=REPO,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    return out


def _text(page: Path) -> str:
    return html.unescape(re.sub(r"<[^>]+>", " ", page.read_text(encoding="utf-8")))


def test_cli_reference_names_every_command(site: Path) -> None:
    page = (site / "cli.html").read_text(encoding="utf-8")
    missing = [name for name in COMMANDS if f'id="sudokit-{name}"' not in page]
    assert not missing, f"cli.html has no section for: {missing}"


def test_formats_page_names_every_format_and_rule_key(site: Path) -> None:
    text = _text(site / "formats.html")
    missing = [name for name in [*formats.FORMATS, *_rules.KEYS] if f" {name} " not in text]
    assert not missing, f"formats.html does not name: {missing}"


def test_api_reference_names_every_public_name(site: Path) -> None:
    page = (site / "api.html").read_text(encoding="utf-8")
    public = [name for name in sudokit.__all__ if name != "__version__"]
    missing = [name for name in public if f'id="sudokit.{name}"' not in page]
    assert not missing, f"api.html has no entry for: {missing}"


def test_technique_pages_name_every_technique_with_a_picture(site: Path) -> None:
    pages = "".join(p.read_text(encoding="utf-8") for p in (site / "techniques").glob("*.html"))
    missing = [t.name for t in TECHNIQUES if f">{html.escape(t.name)}<" not in pages]
    assert not missing, f"the technique pages do not name: {missing}"
    pictures = list((site / "techniques" / "img").glob("*.svg"))
    assert len(pictures) >= len(TECHNIQUES) * 3 // 4, f"only {len(pictures)} pictures"
    assert all(p.read_text(encoding="utf-8").startswith("<svg") for p in pictures)
