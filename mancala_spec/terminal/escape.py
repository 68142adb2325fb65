"""The one escaping of text the commands show: file names, rule IDs, engine text.

A file name, a rule ID read from a ``--docs`` page or what an engine under
test wrote may hold characters that a terminal obeys rather than shows: ESC
(colours, moving the cursor, retitling the window), BEL, CR (overwriting the
line), other C0 and C1 controls, the bidirectional overrides and isolates
(U+202A-202E, U+2066-2069: text shown in another order than it is), the line
and paragraph separators U+2028/2029 and the zero-width characters. Every
message a command writes passes through :func:`shown`, which writes each such
character as a Python escape (``\\x1b``, ``\\u202e``), so a message is one line
and shows what is there.
"""
from __future__ import annotations

import os

_SHORT = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(char: str) -> str:
    code = ord(char)
    if char in _SHORT:
        return _SHORT[char]
    if 0xDC80 <= code <= 0xDCFF:          # a byte that is not UTF-8 (a file name's)
        return f"\\x{code - 0xDC00:02x}"
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def shown(text: object) -> str:
    """*text* as a message shows it: every character that is not printable
    (:meth:`str.isprintable`: the controls, format characters such as the bidi
    overrides and zero-width characters, separators other than the space,
    unassigned and private-use code points, lone surrogates) escaped; the rest,
    backslashes included, as it is (so escaping twice changes nothing)."""
    string = os.fsdecode(text) if isinstance(text, bytes) else str(text)
    if string.isprintable():
        return string
    return "".join(char if char.isprintable() else _escape(char) for char in string)
