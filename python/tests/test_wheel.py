"""The abi3 wheel installs into a fresh virtualenv and works there (outside the source tree).

Uses the wheel named by FOLIO_WHEEL (scripts/test.sh builds it with scripts/build-wheel.sh);
skipped without it.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
WHEEL = os.environ.get("FOLIO_WHEEL")


@pytest.mark.skipif(not WHEEL, reason="FOLIO_WHEEL not set (scripts/test.sh sets it)")
def test_wheel_in_a_fresh_virtualenv(tmp_path: pathlib.Path) -> None:
    assert WHEEL and "abi3" in pathlib.Path(WHEEL).name
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    py = venv / "bin" / "python"
    pip = subprocess.run(
        [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", WHEEL],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stdout + pip.stderr
    check = (
        "import folio, sys\n"
        f"r = folio.recognize({str(ROOT / 'fixtures/docs/invoice_de_text.pdf')!r})\n"
        "assert r['document']['number'] == 'RE-2024-10457', r['document']\n"
        "assert folio.__file__.startswith(sys.prefix), folio.__file__\n"
        "try:\n"
        "    folio.recognize(b'')\n"
        "except folio.EmptyFileError as e:\n"
        "    assert e.code == 'EMPTY_FILE'\n"
        "print('wheel ok', folio.__version__)\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("FOLIO_PDFIUM_LIB", "PYTHONPATH")}
    run = subprocess.run([str(py), "-c", check], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "wheel ok 0.1.0" in run.stdout
