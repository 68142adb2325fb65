"""How much memory ``solve`` has: ``--memory``'s value, the address-space limit
(``ulimit -v``), the memory available, and the peak a solve reached; and the
refusal when numpy cannot be loaded (not installed, or no room for it)."""
from __future__ import annotations

import argparse

from ..terminal.escape import shown as escaped
from ..terminal.status import MissingExtraError, UsageError

#: the most GiB ``--memory`` takes (a pebibyte: more is no machine's memory)
MAX_MEMORY_GIB = 2**20


def memory_gib(text: str) -> float:
    """``--memory``'s value: a number of GiB, more than 0 and at most
    :data:`MAX_MEMORY_GIB` (not ``inf``, ``nan`` or ``1e400``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of GiB: {escaped(text)}") from None
    if not (0 < value <= MAX_MEMORY_GIB):           # (nan fails both)
        raise argparse.ArgumentTypeError(f"must be more than 0 and at most {MAX_MEMORY_GIB:,} "
                                         f"GiB, not {escaped(text)}")
    return value


#: the address space that loading numpy and the solver takes (OpenBLAS, loaded
#: with numpy, ends the process with its own message when it has less: 100 MiB)
LOAD_BYTES = 256 * 2**20


def check_room_to_load() -> None:
    """Refuse, before numpy is imported, an address-space limit (``ulimit -v``)
    that leaves too little to load it (:data:`LOAD_BYTES`)."""
    room = address_space_room()
    if room is not None and room < LOAD_BYTES:
        raise UsageError(f"solve needs {LOAD_BYTES // 2**20} MiB of address space to load "
                         f"numpy; the address-space limit (ulimit -v) leaves "
                         f"{room / 2**20:,.0f} MiB")


def numpy_unloadable(error: ImportError) -> UsageError:
    """The error for ``solve`` when numpy cannot be imported: not installed (the
    extra to install), or installed and not loadable (a memory limit too low to
    load it, say: the message names the limit, not a missing package)."""
    import importlib.util

    try:
        installed = importlib.util.find_spec("numpy") is not None
    except (ImportError, ValueError):
        installed = False
    if not installed:
        return MissingExtraError("solve", "numpy", "solve")
    limit = address_space_limit()
    cause = error.__cause__ or error.__context__ or error
    return UsageError("solve: numpy is installed but could not be loaded ("
                      + escaped(str(cause))[:200] + ")"
                      + ("" if limit is None else
                         f"; the address-space limit (ulimit -v) is {limit / 2**20:,.0f} MiB"))


def address_space_limit() -> int | None:
    """This process's address-space limit (RLIMIT_AS, ``ulimit -v``), or None."""
    try:
        import resource
        soft, _ = resource.getrlimit(resource.RLIMIT_AS)
    except (ImportError, OSError, ValueError, AttributeError):
        return None
    return None if soft == resource.RLIM_INFINITY or soft < 0 else int(soft)


def address_space_room() -> int | None:
    """What the address-space limit leaves this process beyond what it has
    mapped already (VmSize of /proc/self/status), or None without a limit."""
    limit = address_space_limit()
    if limit is None:
        return None
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return max(0, limit - int(line.split()[1]) * 1024)
    except (OSError, ValueError, IndexError):
        pass
    return limit


def gib(size: int) -> str:
    return f"{size / 2**30:.1f} GiB" if size >= 2**30 else f"{size / 2**20:,.0f} MiB"


def available_memory() -> int | None:
    """The memory available now (MemAvailable of /proc/meminfo), or None."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def peak_bytes() -> int | None:
    """This process's peak resident memory, in bytes (None where not known)."""
    try:
        import resource
    except ImportError:
        return None
    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) * 1024
