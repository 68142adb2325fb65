"""Every install command the project advises names what exists (issue 43, item 6):
an extra of pyproject.toml in brackets, a dependency group with ``--group``. Two
messages advised ``pip install -e '.[test]'`` (``test`` is a dependency group, not an
extra) and one ``mancala-spec[docs]``."""
from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ADVICE = re.compile(r"pip install[^\n\"]*?(?:mancala-spec|\.)\[([\w,]+)\]")
GROUP = re.compile(r"--group (\w+)")


def _texts() -> dict[str, str]:
    listed = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                            timeout=60).stdout.split()
    names = listed or [p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*")
                       if p.is_file() and ".venv" not in p.parts]
    out = {}
    for name in names:
        path = ROOT / name
        if path.suffix in (".py", ".md", ".toml", ".cff", ".js", ".txt", ".rst", "") \
                and path.is_file() and "node_modules" not in path.parts:
            try:
                out[name] = path.read_text("utf-8")
            except UnicodeDecodeError:
                continue
    return out


def test_every_advised_extra_and_group_exists():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    extras = set(project["project"]["optional-dependencies"])
    groups = set(project["dependency-groups"])
    wrong = []
    for name, text in _texts().items():
        if name == "tests/packaging/test_install_advice.py":
            continue
        for match in ADVICE.finditer(text):
            for extra in match.group(1).split(","):
                if extra not in extras and extra != "EXTRA":
                    wrong.append(f"{name}: {match.group(0)}")
        for match in GROUP.finditer(text):
            if match.group(1) not in groups:
                wrong.append(f"{name}: {match.group(0)}")
    assert not wrong, "\n".join(wrong)
