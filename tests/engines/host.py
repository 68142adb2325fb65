"""A program that uses the conformance runner as a library while it starts and
waits for children of its own, for tests/cli/test_runaway.py. Usage::

    python host.py PIDFILE

Before the run it starts three children (two that exit at once with 3 and 4, one
that exits 6 when its input closes); when the first case is done (the engine
running) three more (3, 5, and 7 when its input closes). The engine is
``escaping.py all PIDFILE``. After the run it closes the two inputs, waits for
every child it has with ``os.waitpid(-1, 0)`` until none is left, and prints
one JSON object: each child's name and exit status as its parent sees it, and
``"others"``: the statuses of processes it reaped that it did not start.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from mancala_spec.conformance import packaged_suite
from mancala_spec.conformance.runner import run

PY = sys.executable
ENGINE = Path(__file__).parent / "escaping.py"


def child(code, wait_for_input=False):
    script = ("import sys; sys.stdin.read(); " if wait_for_input else "") + f"sys.exit({code})"
    return subprocess.Popen([PY, "-c", "import sys\n" + script],
                            stdin=subprocess.PIPE if wait_for_input else subprocess.DEVNULL)


def main():
    pidfile = sys.argv[1]
    children = {"before-3": child(3), "before-4": child(4), "before-6": child(6, True)}

    def progress(done, failed, case):
        if done == 1:                         # the engine is running now
            children.update({"after-3": child(3), "after-5": child(5),
                             "after-7": child(7, True)})
            time.sleep(0.5)                   # the quick ones have exited: zombies to be reaped

    suite = packaged_suite()
    suite = {**suite, "cases": suite["cases"][:3]}
    report = run([PY, str(ENGINE), "all", pidfile], suite, timeout=60, progress=progress)
    for name in ("before-6", "after-7"):
        if name in children:
            children[name].stdin.close()
    names = {proc.pid: name for name, proc in children.items()}
    seen, others = {}, []
    while True:
        try:
            pid, status = os.waitpid(-1, 0)
        except ChildProcessError:
            break
        code = os.waitstatus_to_exitcode(status)
        if pid in names:
            seen[names[pid]] = code
        else:
            others.append(code)
    for name in names.values():
        seen.setdefault(name, "reaped by someone else")
    print(json.dumps({"children": seen, "others": others,
                      "skipped": report.count("skipped")}))


if __name__ == "__main__":
    main()
