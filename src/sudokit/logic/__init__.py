"""Human-style solving: candidates, techniques (one module per family), steps, paths (layer 2).

The techniques never call the backtracking search. :mod:`sudokit.rating` (layer 5) uses the
solver to prove uniqueness before it lets uniqueness techniques run.
"""

from __future__ import annotations

from .candidates import CandidateGrid
from .step import Step

__all__ = ["CandidateGrid", "Step"]
