"""What every command (``mancala-spec``, ``python -m mancala_spec.analysis``)
shares with its terminal and streams, below them both: SIGINT, SIGTERM and
SIGHUP from the first line to the last (:mod:`.signals`), the one escaping of
text a message shows (:mod:`.escape`), standard output written whole and
checked, files written atomically (:mod:`.output`), folders written whole
(:mod:`.folders`: the one writer of every folder, replacing only one it wrote),
every table, index and data file read within its bound (:mod:`.reading`), and
the exit statuses with the errors that carry them (:mod:`.status`).
"""
