"""The rules site's Sphinx extensions: rule objects and traceability
(:mod:`.rules`), sowing diagrams (:mod:`.diagrams`), the command-line and
conformance reference pages (:mod:`.reference`)."""
