"""The engine never imports Django, DRF or Celery: it runs anywhere plain Python runs."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Import every module of the engine in a fresh interpreter, then look at what came in.
PROBE = """
import importlib, pkgutil, sys
import engine
engine.GAMES
import engine.match, engine.__main__
for module in pkgutil.walk_packages(engine.__path__, "engine."):
    importlib.import_module(module.name)
frameworks = {"django", "rest_framework", "celery"}
loaded = sorted(name for name in sys.modules if name.split(".")[0] in frameworks)
print(",".join(loaded))
"""


def test_importing_every_engine_module_loads_no_django_drf_or_celery() -> None:
    done = subprocess.run(
        [sys.executable, "-c", PROBE], capture_output=True, text=True, cwd=ROOT, timeout=60, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == ""


def test_no_engine_source_file_imports_a_web_framework() -> None:
    for source in (ROOT / "engine").rglob("*.py"):
        for line in source.read_text(encoding="utf-8").splitlines():
            words = line.split()
            if words[:1] in (["import"], ["from"]) and len(words) > 1:
                assert words[1].split(".")[0] not in {"django", "rest_framework", "celery"}, (source, line)
