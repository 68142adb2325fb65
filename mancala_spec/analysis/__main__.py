"""``python -m mancala_spec.analysis``: see :mod:`mancala_spec.analysis.cli`."""
import os
import sys

from .cli import main

try:
    sys.exit(main())
except BrokenPipeError:          # the reader stopped reading (``| head``): not an error
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(0)
except KeyboardInterrupt:
    sys.exit(130)
