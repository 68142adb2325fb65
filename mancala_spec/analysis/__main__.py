"""``python -m mancala_spec.analysis``: see :mod:`mancala_spec.analysis.cli`."""
from .cli import main

raise SystemExit(main())
