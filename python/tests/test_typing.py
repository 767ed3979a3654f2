"""The type stubs (iri_grammar/_iri_grammar.pyi, py.typed): ``mypy --strict`` on a
typed use of the API (typed_usage.py), on code with type errors it must report,
and ``mypy.stubtest`` of the stubs against the installed extension."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

HERE = Path(__file__).parent


def mypy(*args, cwd):
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
         "--cache-dir", str(cwd / ".mypy_cache"), *args],
        capture_output=True, text=True, cwd=cwd,
    )


def test_typed_usage_passes_strict(tmp_path):
    # From a directory outside the source tree: the installed package is checked.
    out = mypy(str(HERE / "typed_usage.py"), cwd=tmp_path)
    assert out.returncode == 0, out.stdout + out.stderr


def test_type_errors_are_found(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text(
        "import iri_grammar as g\n"
        "g.is_valid(b'http://a/')\n"                   # bytes: decode first
        "x: int = g.IriRef('a').scheme\n"              # Optional[str]
        "g.IriRef('a').to_uri(idna='yes')\n"           # bool
        "g.IriRef.build('http')\n"                     # keywords only
        "y: g.AbsoluteIri = g.AbsoluteIri('a:b').relativize('a:c')\n"  # an IriRef
    )
    out = mypy(str(bad), cwd=tmp_path)
    lines = [l for l in out.stdout.splitlines() if ": error:" in l]
    assert sorted({int(l.split(":")[1]) for l in lines}) == [2, 3, 4, 5, 6], out.stdout


def test_stubtest(tmp_path):
    # jsonschema (imported by iri_grammar.jsonschema) ships no types.
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n\n[mypy-jsonschema.*]\nignore_missing_imports = True\n")
    out = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "iri_grammar", "--mypy-config-file", str(config)],
        capture_output=True, text=True, cwd=tmp_path,
    )
    assert out.returncode == 0, out.stdout + out.stderr
