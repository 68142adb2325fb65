"""Licences (issue 12, section 2): the wheel carries both licence texts and the
SPDX licence expression, and the data the catalogue needs."""
from __future__ import annotations

import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_wheel_carries_both_licences_and_the_catalogue(wheel):
    # wheel: conftest's, built once a run by pip wheel <checkout> --no-deps
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = next(archive.read(n).decode() for n in names if n.endswith("/METADATA"))
        licences = {n.rsplit("/", 1)[-1]: archive.read(n).decode("utf-8")
                    for n in names if "/licenses/" in n}
    assert ("License-Expression: MIT AND CC-BY-SA-4.0 AND LicenseRef-MancalaWorld-CC-BY-SA"
            in metadata)
    assert "Mancala World" in licences["LicenseRef-MancalaWorld-CC-BY-SA.txt"]
    assert licences["MIT.txt"].startswith("MIT License")
    assert "Attribution-ShareAlike 4.0 International" in licences["CC-BY-SA-4.0.txt"]
    for data in ("mancala_spec/catalogue/catalogue.toml", "mancala_spec/catalogue/registry.toml",
                 "mancala_spec/sources/001_1132cff477fa5791.txt",
                 "mancala_spec/sphinx/rule_domain.py",
                 "mancala_spec/solve/ba_awa_run.json",      # the solves the site quotes
                 "mancala_spec/solve/ba_awa_variants.json"):
        assert data in names, data
