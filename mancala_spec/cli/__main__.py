"""``python -m mancala_spec.cli``: the command line, as ``mancala-spec``."""
from . import main

raise SystemExit(main())
