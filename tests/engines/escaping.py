"""A hostile conformance engine that leaves processes behind, for the runner's
tests (tests/cli/test_runaway.py). Usage::

    python escaping.py MODE PIDFILE [hang]

MODE is how it escapes: ``setsid`` (a grandchild in a session of its own),
``setpgid`` (a child in a process group of its own), ``daemon`` (a double-forked
daemon in a new session, its parent gone), ``hop`` (a helper in a new session that
forks and exits every millisecond, so its PID keeps changing) or ``all`` (the first
three). Each escaped process
writes its pid, one a line, to PIDFILE and sleeps. The engine then answers
every request "unsupported", or, with ``hang``, never answers.
"""
import json
import os
import sys
import time


def sleep_forever():
    while True:
        time.sleep(1000)


def note(pidfile):
    with open(pidfile, "a") as handle:
        handle.write(f"{os.getpid()}\n")


def setsid_grandchild(pidfile):
    if os.fork() == 0:
        if os.fork() == 0:
            os.setsid()
            note(pidfile)
            sleep_forever()
        sleep_forever()                       # the child stays, its child escaped


def setpgid_child(pidfile):
    if os.fork() == 0:
        os.setpgid(0, 0)
        note(pidfile)
        sleep_forever()


def daemon(pidfile):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            note(pidfile)
            sleep_forever()
        os._exit(0)                           # the middle process goes: the daemon is orphaned


def hop(pidfile):
    if os.fork() == 0:
        os.setsid()
        note(pidfile)
        while True:                           # a new PID (and a new session) every millisecond
            if os.fork() != 0:
                os._exit(0)
            os.setsid()
            time.sleep(0.001)


ESCAPES = {"setsid": [setsid_grandchild], "setpgid": [setpgid_child], "daemon": [daemon]}
ESCAPES["all"] = [f for fs in ESCAPES.values() for f in fs]
ESCAPES["hop"] = [hop]


def main():
    mode, pidfile = sys.argv[1], sys.argv[2]
    for escape in ESCAPES[mode]:
        escape(pidfile)
    deadline = time.monotonic() + 30            # answer once every escapee is out
    while time.monotonic() < deadline:
        if os.path.exists(pidfile) and len(open(pidfile).read().split()) >= len(ESCAPES[mode]):
            break
        time.sleep(0.01)
    for line in sys.stdin:
        if "hang" in sys.argv[3:]:
            sleep_forever()
        request = json.loads(line)
        print(json.dumps({"id": request["id"], "unsupported": "escaping"}), flush=True)


if __name__ == "__main__":
    main()
