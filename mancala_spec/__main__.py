"""``python -m mancala_spec``: the command line, as ``mancala-spec``."""
from .cli import main

raise SystemExit(main())
