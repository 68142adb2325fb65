"""Issue 21: the JSON Schemas have absolute ``$id``s, an exported suite names its
schema in ``$schema``, and ajv (from npm, in strict mode) compiles every schema
and validates the suite and real traffic against them."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from mancala_spec.conformance import packaged_suite, schema
from mancala_spec.conformance.runner import run
from mancala_spec.conformance.wire import SCHEMA_IDS, answer_schema, request_schema

ROOT = Path(__file__).resolve().parents[2]
CHECK = Path(__file__).resolve().parents[1] / "ajv_check.cjs"
SCHEMAS = {"suite": schema, "request": request_schema, "answer": answer_schema}


def ajv(schema_file: Path, *data: Path) -> subprocess.CompletedProcess:
    assert (ROOT / "node_modules" / "ajv").is_dir(), "run npm ci (ajv is a devDependency)"
    return subprocess.run(["node", str(CHECK), str(schema_file), *map(str, data)],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)


@pytest.mark.parametrize("name", SCHEMAS)
def test_each_schema_has_an_absolute_id(name):
    document = SCHEMAS[name]()
    assert document["$id"] == SCHEMA_IDS[name]
    assert urlsplit(document["$id"]).scheme == "urn"      # absolute: a name, not an address


def test_ajv_strict_compiles_the_schemas_and_validates_the_suite_and_traffic(tmp_path):
    exported = subprocess.run([sys.executable, "-m", "mancala_spec", "conformance", "export"],
                              capture_output=True, text=True, timeout=120)
    suite = json.loads(exported.stdout)
    assert next(iter(suite)) == "$schema" and suite["$schema"] == schema()["$id"]
    (tmp_path / "suite-data.json").write_text(exported.stdout)
    traffic: list = []
    small = {**packaged_suite(), "cases": packaged_suite()["cases"][:40]}
    run([sys.executable, "-m", "mancala_spec.conformance.engine"], small, traffic=traffic)
    data = {"request": [], "answer": []}
    for index, (request, answer) in enumerate(traffic):
        for kind, value in (("request", request), ("answer", json.loads(answer))):
            path = tmp_path / f"{kind}-{index}.json"
            path.write_text(json.dumps(value))
            data[kind].append(path)
    for name, make in SCHEMAS.items():
        (tmp_path / f"{name}.json").write_text(json.dumps(make()))
        files = [tmp_path / "suite-data.json"] if name == "suite" else data[name]
        result = ajv(tmp_path / f"{name}.json", *files)
        assert (result.returncode, result.stdout.strip()) == (0, "ok"), \
            result.stdout[-2000:] + result.stderr[-2000:]


def test_ajv_reports_what_does_not_match(tmp_path):
    """The check can fail: a case whose expected events hold a number."""
    suite = packaged_suite()
    suite["cases"][0]["expected"]["events"] = [7]
    (tmp_path / "bad.json").write_text(json.dumps(suite))
    (tmp_path / "suite.json").write_text(json.dumps(schema()))
    result = ajv(tmp_path / "suite.json", tmp_path / "bad.json")
    assert result.returncode == 1 and "must be object" in result.stdout
