"""docs/api.md's examples run and print exactly what the page shows."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"
EXAMPLE = re.compile(r"```python\n(.*?)```\s*\n+prints\s*\n+```text\n(.*?)```", re.S)


def examples() -> list[tuple[str, str]]:
    return EXAMPLE.findall(PAGE.read_text(encoding="utf-8"))


def test_the_page_has_examples() -> None:
    assert len(examples()) >= 2


@pytest.mark.parametrize("code,shown", examples())
def test_an_example_prints_what_the_page_shows(code: str, shown: str, tmp_path: Path) -> None:
    # Run from an empty folder: the example needs only the installed package.
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout == shown
