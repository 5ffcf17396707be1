"""The front door holds together: the links between the documents resolve (files and
``#anchors``), the README points at DEVELOP.md, CHANGELOG.md and LICENSE, the changelog has an
"Unreleased" section and one for the package's version, and the code's comments give reasons,
not the numbers of issues a reader of the repository cannot open."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import sudokit
from support import REPO

ROOT = REPO
DOCS = sorted(
    [ROOT / "README.md", ROOT / "DEVELOP.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").rglob("*.md")]
)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
#: A citation of a tracker the repository does not hold: the word, an optional '#', a digit
CITATION = re.compile(r"\bissues? #?[0-9]", re.IGNORECASE)
#: A repository path quoted in a document: `tests/test_x.py`, `csrc/sk_*.c`, ...
QUOTED_PATH = re.compile(r"`((?:tests|src|csrc|benchmarks|docs|examples)/[\w./*-]+?)`")
#: The documents that describe today's tree (the decisions keep the paths of their time).
MAPS = [
    ROOT / name for name in ("README.md", "DEVELOP.md", "docs/ARCHITECTURE.md", "docs/rating.md")
]
CODE_SUFFIXES = {".py", ".c", ".h", ".sh", ".js", ".pyi", ".css", ".html"}


def _anchors(path: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces become hyphens."""
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    heads = re.findall(r"^#{1,6} +(.+?) *$", text, re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in heads}


def _links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [t for t in LINK.findall(text) if not re.match(r"[a-z]+:", t)]


def _resolves(doc: Path, target: str) -> bool:
    name, _, anchor = target.partition("#")
    dest = (doc.parent / name).resolve() if name else doc
    if not dest.exists():
        return False
    return not anchor or dest.suffix != ".md" or anchor in _anchors(dest)


def _broken(doc: Path) -> list[str]:
    return [target for target in _links(doc) if not _resolves(doc, target)]


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_resolve(doc: Path) -> None:
    broken = _broken(doc)
    assert not broken, f"{doc.relative_to(ROOT)}: links that do not resolve: {broken}"


def test_the_link_check_catches_a_broken_link(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# Top\n\n## Some heading: here\n", encoding="utf-8")
    doc = tmp_path / "b.md"
    doc.write_text(
        "[ok](a.md#some-heading-here) [bad](a.md#nowhere) [gone](c.md) [web](https://x.org)\n"
        "```\n[in a code block](d.md)\n```\n",
        encoding="utf-8",
    )
    assert _links(doc) == ["a.md#some-heading-here", "a.md#nowhere", "c.md"]
    assert _broken(doc) == ["a.md#nowhere", "c.md"]


def _exists(quoted: str) -> bool:
    return any(ROOT.glob(quoted)) if "*" in quoted else (ROOT / quoted).exists()


def _missing_paths(doc: Path) -> list[str]:
    quoted = QUOTED_PATH.findall(FENCE.sub("", doc.read_text(encoding="utf-8")))
    return [q for q in quoted if "<" not in q and not _exists(q)]


@pytest.mark.parametrize("doc", MAPS, ids=lambda p: str(p.relative_to(ROOT)))
def test_paths_the_maps_name_exist(doc: Path) -> None:
    """A file moved or renamed (a test into its room's folder) is renamed in the maps too."""
    missing = _missing_paths(doc)
    assert not missing, f"{doc.relative_to(ROOT)} names paths that do not exist: {missing}"


def test_the_path_check_catches_a_missing_path(tmp_path: Path) -> None:
    doc = tmp_path / "m.md"
    doc.write_text(
        "`tests/project/test_docs.py`, `csrc/sk_*.c`, `tests/no_such.py`, `tests/<room>/`\n"
    )
    assert _missing_paths(doc) == ["tests/no_such.py"]


def test_readme_points_at_the_front_door() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in ("DEVELOP.md", "CHANGELOG.md", "LICENSE"):
        assert name in readme
        assert (ROOT / name).is_file()


def test_changelog_has_unreleased_and_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    assert "\n## [Unreleased]\n" in text
    assert f"\n## [{sudokit.__version__}] - " in text


def _code_files() -> list[Path]:
    files = [ROOT / "setup.py"]
    for top in ("src", "csrc", "tests", "benchmarks"):
        files += [
            p
            for p in (ROOT / top).rglob("*")
            if p.suffix in CODE_SUFFIXES
            and p.is_file()
            and not {"node_modules", "results", "__pycache__"} & set(p.parts)
        ]
    return files


def test_comments_and_docs_give_reasons_not_issue_numbers() -> None:
    """An issue number tells a reader nothing the repository can answer; say why instead."""
    found = []
    for path in [*_code_files(), *DOCS]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if CITATION.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "comments citing issues:\n" + "\n".join(found)


def test_the_citation_rule_fires() -> None:
    word = "issue"  # spelled apart, so that this test's own text is not a citation
    assert CITATION.search(f"# see {word} 15, item 4")
    assert CITATION.search(f'"""Drawing the variants ({word.title()} #12): ..."""')
    assert CITATION.search(f"/* {word}s 14 and 18 */")
    assert not CITATION.search("# the issue's target: 1.0x")
