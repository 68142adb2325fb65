"""The reference engine, written to be read beside the rules: board geometry,
the sowing primitives, positions, the move's events, one module per game, and
match play."""
