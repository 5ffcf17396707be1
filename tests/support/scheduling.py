"""The suite's xdist scheduler: the tests of a group run one after another in one worker.

``--dist loadgroup`` (pyproject's addopts) picks :class:`GroupScheduling`, xdist's scope
scheduler whose scopes are the groups of :func:`support.tiers.group_of` and, for a test in
no group, the test alone. ``tests/conftest.py`` registers this module as a plugin; it is also
one on its own (``-p support.scheduling``), which ``tests/project/test_tiers.py`` uses to run a
small suite over two workers and see where each test ran.

Why not xdist's own ``loadgroup``: it reads ``xdist_group`` marks through node ids that its
collection hook rewrites in each worker (``item._nodeid``). pytest 9 derives ``Item.nodeid``
from a structured id instead, so the rewrite is lost (pytest-dev/pytest-xdist#1386) and every
group was spread over the workers: two Chromiums, the docs site built twice, the timing tests
against each other. A group here follows from the node id's path, which the controller has.
"""

from __future__ import annotations

import pytest
from xdist.remote import Producer
from xdist.scheduler import LoadScopeScheduling

from support.tiers import group_of


class GroupScheduling(LoadScopeScheduling):
    """Load scheduling in units: a group's tests form one unit, every other test its own.

    xdist sends the largest units first (``--loadscope-reorder``, its default), so the long
    groups start at once and the single tests fill in around them."""

    def _split_scope(self, nodeid: str) -> str:
        group = group_of(nodeid)
        return nodeid if group is None else f"@{group}"  # no node id starts with "@"


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Producer) -> GroupScheduling | None:
    """Schedule by :func:`~support.tiers.group_of` under ``--dist loadgroup``; any other
    ``--dist`` keeps xdist's own scheduler."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return GroupScheduling(config, log)
