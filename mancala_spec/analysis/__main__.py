"""``python -m mancala_spec.analysis``: see :mod:`mancala_spec.analysis.cli`."""
import sys

from .cli import main

sys.exit(main())
