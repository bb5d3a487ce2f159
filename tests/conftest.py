import warnings
from pathlib import Path

import pytest

FILES = Path(__file__).parent / "files"


@pytest.fixture
def files() -> Path:
    return FILES


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory, monkeypatch):
    """Each test session gets its own table cache, so tests never read a stale one."""
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))


warnings.filterwarnings("ignore", message=".*First-class function type.*")
