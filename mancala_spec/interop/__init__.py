"""The games in other programs' frameworks: OpenSpiel and PettingZoo.

* :mod:`mancala_spec.interop.openspiel` (extra ``openspiel``): importing it registers
  ``mancala_spec_ba_awa`` and ``mancala_spec_bakuk`` with OpenSpiel
  (``pyspiel.load_game("mancala_spec_bakuk(chain=backward)")``), and gives a
  perfect player as an OpenSpiel bot.
* :mod:`mancala_spec.interop.pettingzoo` (extra ``pettingzoo``): ``env(game=...,
  **options)``, an AEC environment.
* :mod:`mancala_spec.interop.values`: the exact value of a state of either, and of
  each of its moves, from the solved tables (no extra but the solver's numpy for
  Bakuk's table).
* :mod:`mancala_spec.interop.adapter`: what both share, with the standard library
  only: the parameters (derived from :mod:`mancala_spec.options`), the returns and
  the observation features.

Both adapters play the reference engine (``mancala_spec.engine``): a move of the
frameworks is one :meth:`~mancala_spec.engine.position.Position.play`.
"""
from __future__ import annotations


def missing(extra: str, module: str, what: str) -> str:
    """The one line saying that *what* needs *module*, and which *extra* installs it."""
    return f"{what} needs {module}: pip install 'mancala-spec[{extra}]'"


__all__ = ["missing"]
