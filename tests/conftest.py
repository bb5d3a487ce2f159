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


def pytest_xdist_auto_num_workers(config) -> int:
    """`-n auto`: one worker more than the cores. Many tests wait (on a sandboxed worker's time
    limit, a sleeping strategy, Chromium, a subprocess): on 2 cores, a third worker keeps both
    busy meanwhile, and the quick run took 3 min 38 s instead of 4 min 1 s."""
    import os

    return (os.cpu_count() or 1) + 1


# -- CPU time per test ---------------------------------------------------------------------
# `--cpu-times FILE` appends one line per test: its CPU seconds (this process and its child
# processes: workers, subprocesses), then its wall seconds and its id. On a machine shared
# with other work, wall time measures the others too; the CPU time is what marking a test slow
# saves, and the sum over the suite, halved, bounds a run on two cores from below.


def pytest_addoption(parser):
    parser.addoption("--cpu-times", default=None, help="append each test's CPU seconds here")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    path = item.config.getoption("--cpu-times")
    if path is None:
        yield
        return
    import os
    import time

    def cpu() -> float:
        """This process's CPU time, its reaped children's, and its live descendants' (a
        worker pool's processes live on between tests, and are counted only while alive)."""
        times = os.times()
        total = times.user + times.system + times.children_user + times.children_system
        try:
            import psutil
        except ImportError:
            return total
        for process in psutil.Process().children(recursive=True):
            try:
                t = process.cpu_times()
            except psutil.Error:
                continue  # gone meanwhile: its time is its parent's to count
            total += t.user + t.system + t.children_user + t.children_system
        return total

    start_cpu, start_wall = cpu(), time.perf_counter()
    yield
    line = f"{cpu() - start_cpu:.3f} {time.perf_counter() - start_wall:.3f} {item.nodeid}\n"
    with open(path, "a") as out:
        out.write(line)
