"""The ``conformance`` subcommand: export the suite, or run it against an engine.
"""
from __future__ import annotations

import argparse
import json
import stat
import sys
from pathlib import Path
from typing import Any

from ..terminal.escape import shown
from ..terminal.output import write_atomic
from ..terminal.status import EngineFailure, UsageError
from .arguments import MAX_SUITE_BYTES, read_text, size_text, write_out
from .command_registry import command


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, more than 0 and at most an hour."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (0 < value <= 3600):     # also refuses nan and inf
        raise argparse.ArgumentTypeError(
            f"must be more than 0 and at most 3600 seconds, not {text}")
    return value


def count_or_all(text: str) -> int | None:
    """An argparse type: a count of cases (0 or more), or ``all`` (``None``)."""
    if text.strip().lower() == "all":
        return None
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a count or 'all': {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, not {value}")
    return value


def non_negative(text: str) -> int:
    value = count_or_all(text)
    if value is None:
        raise argparse.ArgumentTypeError("give a number")
    return value


def _conformance_arguments(parser):
    sub = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    export = sub.add_parser("export", help="write the suite as JSON")
    export.add_argument("-o", "--output", default="-",
                        help="file to write (default: stdout); written whole or not at all")
    export.add_argument("--docs", type=Path, default=None,
                        help="extract the suite from these rules pages instead of using "
                             "the suite shipped with the package")
    runner = sub.add_parser(
        "run", help="run the suite against an engine",
        description="Run the suite against an engine speaking the protocol (see the "
                    "protocol page): one JSON request per line on its stdin, one JSON "
                    "answer per line on its stdout.")
    runner.add_argument("--engine", required=True,
                        help='the command that starts the engine, e.g. '
                             '"node examples/engine.js"')
    runner.add_argument("--suite", type=Path, default=None,
                        help="an exported suite (default: the suite shipped with the package)")
    runner.add_argument("--docs", type=Path, default=None, help="as for export")
    runner.add_argument("--timeout", type=positive_seconds, default=10.0,
                        help="seconds to wait for each answer (default 10, at most 3600)")
    runner.add_argument("--max-failures", type=non_negative, default=5, metavar="N",
                        help="stop after N consecutive engine failures: timeouts, crashes, "
                             "bad answers (default 5; 0 never stops)")
    runner.add_argument("--min-supported", type=count_or_all, default=None, metavar="N",
                        help="how many cases the engine must support, not answer "
                             "'unsupported' (default: all)")
    runner.add_argument("--rules", action="store_true",
                        help="also compare the rule ID of every event")
    runner.add_argument("--no-progress", action="store_true", help="no progress lines")
    runner.add_argument("--verbose", "-v", action="store_true",
                        help="list every case one by one, the passing and the skipped too "
                             "(without it, the skipped cases are counted by reason)")


#: The largest rules page ``--docs`` reads (bytes), and the most pages and bytes in all.
MAX_PAGE_BYTES = 4 << 20
MAX_PAGES = 1000
MAX_PAGES_BYTES = 64 << 20


def check_pages(docs: Path) -> None:
    """Refuse, before anything is read, a ``--docs`` folder whose Markdown pages
    are not all regular files (a FIFO named ``page.md`` would wait forever) or
    are too large or too many."""
    total = 0
    pages = 0
    for page in sorted(docs.rglob("*.md")):
        if "auto_examples" in page.parts:
            continue
        pages += 1
        if pages > MAX_PAGES:
            raise UsageError(f"--docs {docs}: more than {MAX_PAGES:,} pages")
        try:
            info = page.stat()
        except OSError as error:
            raise UsageError(f"--docs {docs}: cannot read {page}: "
                             f"{error.strerror or error}") from None
        if not stat.S_ISREG(info.st_mode):
            raise UsageError(f"--docs {docs}: {page} is not a regular file")
        if info.st_size > MAX_PAGE_BYTES:
            raise UsageError(f"--docs {docs}: {page} is larger than {size_text(MAX_PAGE_BYTES)}, "
                             "the limit for a page")
        total += info.st_size
        if total > MAX_PAGES_BYTES:
            raise UsageError(f"--docs {docs}: its pages hold more than "
                             f"{size_text(MAX_PAGES_BYTES)}")


def _suite(args: argparse.Namespace) -> dict[str, Any]:
    from ..conformance import build_suite, extract_examples, packaged_suite
    from ..conformance.suite_check import suite_problem

    if getattr(args, "suite", None) is not None:
        text = read_text(args.suite, MAX_SUITE_BYTES, "suite")
        try:
            suite = json.loads(text)
        except RecursionError:
            raise UsageError(f"{args.suite} is not a suite: nested too deeply") from None
        except ValueError as error:
            raise UsageError(f"{args.suite} is not JSON: {error}") from None
        problem = suite_problem(suite)
        if problem:
            raise UsageError(f"{args.suite} is not a suite: {problem}")
        return suite
    if args.docs is None:
        return packaged_suite()
    if not args.docs.is_dir():
        raise UsageError(f"--docs {args.docs}: no such folder")
    check_pages(args.docs)
    examples = extract_examples(args.docs)
    if not examples:
        raise UsageError(f"--docs {args.docs}: no worked examples inside rule blocks there; "
                         "it is not the rules site's pages")
    return build_suite(examples)


@command("conformance", "export the conformance suite, or run it against an engine",
         _conformance_arguments)
def run_conformance(args) -> int:
    if args.action == "export":
        from ..conformance.wire import SCHEMA_IDS

        # the exported document names its JSON Schema first
        suite = {"$schema": SCHEMA_IDS["suite"], **_suite(args)}
        text = json.dumps(suite, indent=1, ensure_ascii=False) + "\n"
        if args.output == "-":
            write_out(text)
        else:
            write_atomic(args.output, text.encode("utf-8"))
            print(f"wrote {shown(args.output)}", file=sys.stderr)
        return 0
    from ..conformance.process import EngineStartError, engine_argv
    from ..conformance.runner import Progress, run

    engine_argv(args.engine)                  # an empty or badly quoted command: exit 2
    suite = _suite(args)
    progress = None if args.no_progress else Progress(len(suite["cases"]))

    def shown_progress(done: int, failed: int, case: str) -> None:
        if progress is not None:
            progress(done, failed, shown(case))     # a suite's case ID, shown escaped

    try:
        report = run(args.engine, suite, timeout=args.timeout, rules=args.rules,
                     max_failures=args.max_failures, min_supported=args.min_supported,
                     progress=None if progress is None else shown_progress)
    except EngineStartError as error:
        raise EngineFailure(str(error)) from None
    finally:
        if progress is not None:
            progress.close()
    text = "\n".join(report.lines(verbose=args.verbose))
    print("\n".join(shown(line) for line in text.split("\n")))    # engine text, escaped
    if report.stopped:
        print(shown(f"mancala-spec conformance: error: {report.stopped}"), file=sys.stderr)
    return report.exit_code
