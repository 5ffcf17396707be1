"""The words of SE's forcing-chain steps (sudokit.logic.forcing): every parent of a link is
named, a removal made inside a chain ("(+)") names the rule that made it, and each branch is a
line of its own (``explain``'s text indents them; ``hint`` keeps one line per puzzle).

The texts are read back and checked independently of the chainer: each link against the
candidates of the step's state (an "on" potential needs exactly the removals of the other
candidates of its cell, or of the other places of its digit in one of its units; an "off" one
follows from a peer or the same cell being on), each parent written before the link that uses
it, and each named in-chain pattern against the candidates without the removals it names."""

from __future__ import annotations

import re
import time

import pytest
from click.testing import CliRunner

from sudokit.cli.app import cli
from sudokit.cli.logic import step_line
from sudokit.grid import Grid
from sudokit.logic import forcing
from sudokit.logic.candidates import CandidateGrid
from sudokit.logic.chaining import chain_budget, se_rating
from sudokit.logic.path import default_techniques, find_step
from sudokit.logic.step import Step
from sudokit.shape import Shape
from support import rated_file

S9 = Shape(3, 3)

# SE 9.0 (controlled-bias list): dynamic region and contradiction forcing chains whose links
# rest on removals made earlier in the chain.
DYNAMIC = ".23....8.4....9..378....5......75.3.......215...61...7.6.5.1....42.3....9....4..8"
# SE 9.7 (hardest list): Dynamic (+) contradictions, their removals made by pointing, claiming,
# hidden and naked pairs inside the chain.
PLUS = "..3.9....1...4..36..8..21...4..8..73...9................4.7..686........7.....5.4"
# SE 7.6: Nishio forcing chains.
NISHIO = "..3....8.4.......378...2.462..9...1.6..3.7.9....5..3.4.6...5.......7.....17.93..2"

_CHAIN_RULES = ("Nishio", "Forcing Chains", "Forcing Chain (+")
_POT = re.compile(r"r(\d+)c(\d+)(=|<>)(\d+)")


def _chain_steps(puzzle: str, stop: str = "") -> list[tuple[Step, list[int]]]:
    """The forcing-chain steps (not SE's "Forcing Chains & Cycles") of the SE walk of
    *puzzle*, each with the candidates of the state it was found on (up to a step named
    *stop*, when given)."""
    cg = CandidateGrid.from_grid(Grid.parse(puzzle))
    techs = default_techniques(se_only=True)
    out = []
    while not cg.is_solved:
        found = find_step(cg, techs, unique=True)
        assert found is not None
        step, tech = found
        if tech.family == "forcing" and any(r in step.technique for r in _CHAIN_RULES):
            out.append((step, list(cg.masks)))
            if stop and step.technique == stop:
                break
        cg.apply(step)
    return out


def _pot(word: str) -> tuple[int, int, bool]:
    """(cell, digit, on) of a potential's name."""
    m = _POT.fullmatch(word)
    assert m, word
    r, c, op, d = m.groups()
    return (int(r) - 1) * 9 + int(c) - 1, int(d), op == "="


# a link as written: the potential, its parents, the in-chain rule's words ("" for none)
_Link = tuple[tuple[int, int, bool], tuple[tuple[int, int, bool], ...], str]


def _parse_line(line: str) -> list[_Link]:
    """The links of one line of a chain text, in the order written."""
    line = line.removesuffix(".")
    if line.startswith("If "):
        line = line.split(": ", 1)[1]
    links: list[_Link] = []
    for run in line.split("; "):
        words = run.split(" -> ")
        first = _pot(words[0])
        if not links:
            links.append((first, (), ""))  # the assumption
        prev = first
        for word in words[1:]:
            m = re.fullmatch(r"(\S+)(?: \(with ([^)]*)\))?(?: \[([^\]]*)\])?", word)
            assert m, word
            name, extra, rule = m.groups()
            parents = (prev, *(_pot(x) for x in extra.split(", "))) if extra else (prev,)
            q = _pot(name)
            links.append((q, parents, rule or ""))
            prev = q
    return links


def _units_of(cell: int) -> list[list[int]]:
    return [list(S9.units[u]) for u in S9.cell_units[cell]]


def _check_link(masks: list[int], q: tuple[int, int, bool], parents: tuple, rule: str) -> None:
    """One link against the step's candidates *masks* (see the module's docstring)."""
    cell, d, on = q
    if rule:
        _check_rule(masks, q, parents, rule)
        return
    if not on:
        assert len(parents) == 1, (q, parents)
        (pc, pd, pon) = parents[0]
        assert pon, (q, parents)
        assert (pc == cell and pd != d) or (pd == d and pc in S9.peers[cell]), (q, parents)
        return
    assert all(not p[2] for p in parents), (q, parents)
    named = {(c, e) for c, e, _ in parents}
    assert len(named) == len(parents), (q, parents)
    cell_need = {(cell, e) for e in range(1, 10) if e != d and masks[cell] >> (e - 1) & 1}
    unit_needs = [
        {(c, d) for c in u if c != cell and masks[c] >> (d - 1) & 1} for u in _units_of(cell)
    ]
    # every removal the link needs is named, and nothing else
    assert named == cell_need or named in unit_needs, (q, parents)


def _check_rule(masks: list[int], q: tuple[int, int, bool], parents: tuple, rule: str) -> None:
    """A removal made inside the chain: the pattern its words name holds on the candidates
    without its parents (the chain's removals it relies on), and removes *q*."""
    cell, d, on = q
    assert not on
    assert parents
    assert all(not p[2] for p in parents), (q, parents)
    now = list(masks)
    for c, e, _ in parents:
        assert now[c] >> (e - 1) & 1, (q, parents)  # a parent removes a real candidate
        now[c] &= ~(1 << (e - 1))
    assert now[cell] >> (d - 1) & 1
    unit = {name: set(S9.units[u]) for u in range(len(S9.units)) for name in [S9.unit_name(u)]}

    def places(u: set[int], digit: int) -> set[int]:
        return {c for c in u if now[c] >> (digit - 1) & 1}

    if m := re.fullmatch(r"(Pointing|Claiming): in (.+) the (\d) can only go in (.+)", rule):
        _, u, digit, v = m.groups()
        assert int(digit) == d
        assert places(unit[u], d) <= unit[v]
        assert cell in unit[v]
        assert cell not in unit[u]
    elif m := re.fullmatch(
        r"Hidden Pair: in (.+) the (\d) and (\d) can only go in (\S+) and (\S+)", rule
    ):
        u, d1, d2, a, b = m.groups()
        pair = {_pot(a + "=1")[0], _pot(b + "=1")[0]}
        assert places(unit[u], int(d1)) <= pair
        assert places(unit[u], int(d2)) <= pair
        assert cell in pair
        assert d not in (int(d1), int(d2))
    elif m := re.fullmatch(r"Naked Pair: in (.+) (\S+) and (\S+) hold only (\d) and (\d)", rule):
        u, a, b, d1, d2 = m.groups()
        both = (1 << (int(d1) - 1)) | (1 << (int(d2) - 1))
        ca, cb = _pot(a + "=1")[0], _pot(b + "=1")[0]
        assert now[ca] == now[cb] == both
        assert cell in unit[u]
        assert cell not in (ca, cb)
        assert d in (int(d1), int(d2))
    elif m := re.fullmatch(r"X-Wing: in (.+) and (.+) the (\d) can only go in (.+) and (.+)", rule):
        l1, l2, digit, c1, c2 = m.groups()
        cover = unit[c1] | unit[c2]
        assert int(digit) == d
        assert places(unit[l1], d) <= cover
        assert places(unit[l2], d) <= cover
        assert cell in cover
        assert cell not in unit[l1] | unit[l2]
    else:
        assert rule.startswith("a nested "), rule


#: SE's base ratings of the forcing-chain rules without nesting (the rating of a hint is the
#: base plus the length bonus on its complexity: the potentials of all of its chains).
_BASES = {"Nishio": 7.5, "Dynamic": 8.5, "(+)": 9.0}


def _base(technique: str) -> float | None:
    if "(+ " in technique:
        return None  # nested: the nested chains' complexity adds to the hint's
    if technique.endswith("(+)"):
        return _BASES["(+)"]
    if technique.startswith(("Nishio", "Dynamic")):
        return _BASES[technique.split()[0]]
    return 8.0  # multiple forcing chains


def _check_text(step: Step, masks: list[int]) -> int:
    """Check every line of *step*'s text; the number of links with several parents."""
    intro, *lines = step.text.split("\n")
    assert "\n" not in intro
    assert lines
    several = 0
    complexity = 0
    for line in lines:
        links = _parse_line(line)
        complexity += len(links)  # each potential once: the chain's ancestors, all written
        assert len({q for q, _, _ in links}) == len(links)
        written: set[tuple[int, int, bool]] = set()
        for q, parents, rule in links:
            for p in parents:
                assert p in written, (line, p)  # each parent is established before it is used
            if parents:
                _check_link(masks, q, parents, rule)
            several += len(parents) > 1
            written.add(q)
        # the line ends at what the step concludes, or at the contradiction's potential
        cell, d, _ = links[-1][0]
        r, c = divmod(cell, 9)
        assert f"r{r + 1}c{c + 1}=" + str(d) in intro or f"r{r + 1}c{c + 1}<>{d}" in intro
    base = _base(step.technique)
    if base is not None:  # nothing left out and nothing added: SE's rating from the words
        assert se_rating(base, complexity) == step.rating, (step.technique, complexity)
    return several


@pytest.mark.c_only  # the SE walk: slow on the reference engine
def test_dynamic_chain_names_every_parent_of_a_link() -> None:
    steps = _chain_steps(DYNAMIC)
    texts = {s.text.split("\n")[0]: s for s, _ in steps}
    # column 1's 1 in r8c1: the 1 of row 9 has left r9c2 and r9c3, so r9c7 holds it
    step = texts[
        "Dynamic Region Forcing Chains: every place of 1 in column 1 leads to r1c7<>1, "
        "so 1 is removed from r1c7."
    ]
    assert step.text.split("\n")[3] == (
        "If r8c1=1: r8c1=1 -> r9c2<>1; r8c1=1 -> r9c3<>1 -> r9c7=1 (with r9c2<>1) -> r1c7<>1."
    )
    several = 0
    for s, masks in steps:
        several += _check_text(s, masks)
    assert several >= 5  # dynamic links with more than one parent, each checked
    # the check fails on a text that leaves a parent out (as the first-parent texts did)
    masks = next(m for s, m in steps if s is step)
    short = step.text.replace(" (with r9c2<>1)", "")
    with pytest.raises(AssertionError):
        _check_text(step._replace(text=short), masks)


@pytest.mark.c_only
def test_nishio_chain_names_every_parent_and_stays_sound() -> None:
    steps = [(s, m) for s, m in _chain_steps(NISHIO) if s.technique == "Nishio Forcing Chain"]
    assert steps
    for s, masks in steps:
        _check_text(s, masks)
        _intro, *lines = s.text.split("\n")
        assert len(lines) == 2  # the two sides of the contradiction, a line each
        assert {_parse_line(x)[-1][0][2] for x in lines} == {True, False}


@pytest.mark.c_only
def test_plus_chain_names_the_rule_of_each_removal_made_inside_it() -> None:
    steps = [
        (s, m)
        for s, m in _chain_steps(PLUS, stop="Dynamic Contradiction Forcing Chain (+)")
        if s.technique.endswith("(+)")
    ]
    assert steps
    step, masks = steps[0]
    _check_text(step, masks)
    rules = re.findall(r"\[([^\]]*)\]", step.text)
    assert rules  # the (+) links say which rule made them, never the fallback words
    assert "a rule inside the chain" not in step.text
    kinds = {r.split(":")[0] for r in rules}
    assert {"Pointing", "Hidden Pair", "Naked Pair"} <= kinds, kinds


def test_fallback_words_when_the_rule_is_unknown() -> None:
    """A removal made inside a chain whose rule the text could not name still says so."""
    n = 9
    on, off = forcing.on_potential, forcing.off_potential
    parents = {on(n, 0, 0): (), off(n, 1, 0): (on(n, 0, 0),), off(n, 20, 1): (off(n, 1, 0),)}
    line = forcing._written(parents, off(n, 20, 1))
    assert forcing._line_text(n, line, None) == (
        "r1c1=1 -> r1c2<>1 -> r3c3<>2 [a rule inside the chain]"
    )
    assert forcing._line_text(n, line, {off(n, 20, 1): "X-Wing: ..."}).endswith("[X-Wing: ...]")


def test_written_puts_each_potential_after_all_of_its_parents() -> None:
    # a diamond with a long side: 1 -> 2 -> 5, 1 -> 3 -> 4 -> 5 (5's first parent is 2)
    parents = {1: (), 2: (1,), 3: (1,), 4: (3,), 5: (2, 4), 6: (5, 3)}
    order = [q for q, _ in forcing._written(parents, 6)]
    assert sorted(order) == [1, 2, 3, 4, 5, 6]
    for q in order:
        assert all(order.index(p) < order.index(q) for p in parents[q])
    assert order.index(2) == order.index(5) - 1  # the first parent just before: one run
    # deep chains do not recurse
    deep = {0: (), **{k: (k - 1,) for k in range(1, 5000)}}
    assert len(forcing._written(deep, 4999)) == 5000


@pytest.mark.c_only
def test_explain_text_puts_each_branch_on_a_line_of_its_own() -> None:
    result = CliRunner().invoke(cli, ["explain", "--se-only", "-p", DYNAMIC])
    assert result.exit_code == 0, result.output
    lines = result.output.split("\n")
    head = next(
        i for i, x in enumerate(lines) if "every place of 1 in column 1 leads to r1c7<>1" in x
    )
    assert re.match(r" *\d+\. Dynamic Region Forcing Chains \(8\.9\): every place", lines[head])
    branches = lines[head + 1 : head + 4]
    assert [b[:16] for b in branches] == [
        "       If r1c1=1",
        "       If r4c1=1",
        "       If r8c1=1",
    ]
    assert re.match(r" *\d+\. ", lines[head + 4])  # the next step
    # hint keeps one line per puzzle: the branches joined on it
    step = next(s for s, _ in _chain_steps(DYNAMIC) if "every place of 1 in column 1" in s.text)
    assert step_line(step) == step_line(step, "\n").replace("\n\n", " ")
    assert "\n" not in step_line(step)


@pytest.mark.slow
def test_nested_chain_names_the_nested_rule() -> None:
    # SE 10.3 (hardest list): its walk needs "(+ Forcing Chains)" steps, whose removals made
    # by a forcing chain or cycle nested in the chain say so
    puzzle = next(
        line.split("\t")[0]
        for line in rated_file("se_hardest_database_110626.tsv").read_text().splitlines()[1:]
        if line.split("\t")[1] == "10.3"
    )
    steps = [(s, m) for s, m in _chain_steps(puzzle) if s.technique.endswith("(+ Forcing Chains)")]
    assert steps
    with chain_budget(1e-6):  # the words are made when read: a spent search budget is no bound
        time.sleep(0.01)
        text = "\n".join(s.text for s, _ in steps)
    for s, masks in steps:
        _check_text(s, masks)
    assert "[a nested Forcing Chains & Cycles]" in text
    assert "a rule inside the chain" not in text
