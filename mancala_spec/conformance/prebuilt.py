"""Regenerate the suite shipped in the package from the rules pages (a dev command).

    python -m mancala_spec.conformance.prebuilt          # rewrite suite.json
    python -m mancala_spec.conformance.prebuilt --check  # exit 1 if it is stale
"""
from __future__ import annotations

import sys
from pathlib import Path

from . import SUITE_FILE, build_suite, extract_examples, suite_text

DOCS = Path(__file__).resolve().parents[2] / "docs"
TARGET = Path(__file__).resolve().parent / SUITE_FILE


def fresh() -> str:
    """The suite's text as extracted from the rules pages now."""
    return suite_text(build_suite(extract_examples(DOCS)))


def main(argv: list[str]) -> int:
    text = fresh()
    if argv == ["--check"]:
        stale = not TARGET.exists() or TARGET.read_text("utf-8") != text
        state = "stale: run python -m mancala_spec.conformance.prebuilt" if stale else "up to date"
        print(f"{TARGET.name} is {state}")
        return 1 if stale else 0
    from ..terminal.output import write_atomic

    write_atomic(TARGET, text.encode("utf-8"))          # whole or not at all
    print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
