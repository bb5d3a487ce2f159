"""A tournament's field: every entrant loaded once (in the sandbox) into a decision table, or
disqualified with the reason. A problem with one entrant costs that entrant alone."""

from __future__ import annotations

import dataclasses
import re
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from hogbench import sandbox
from hogbench.discovery import Entry, discover
from hogbench.entrants import Entrant, Spec, clean_name
from hogbench.errors import StrategyError, UsageError
from hogbench.loading import load_entrant
from hogbench.rules.base import RuleSet
from hogbench.submission import snapshot


@dataclass
class Slot:
    """An entrant in a tournament: loaded, or disqualified with the reason."""

    spec: str
    name: str
    entrant: Entrant | None = None
    disqualified: str | None = None
    same_as: list[str] = field(default_factory=list)  # entrants with the very same table
    path: Path | None = None  # the strategy file (None: a built-in)
    folder: Path | None = None  # the student's folder, for a per-student layout


#: Files loading at once for each job (``load_slots``): one answering, one starting.
PIPELINE = 2

#: Stems of the course's own file names: such a file is named after the folder that holds it.
COURSE_STEMS = {"hog", "hog_contest", "contest", "greed", "pig", "big_pig", "bigpig"}


def entry_name(entry: Entry) -> str:
    """An entrant's name when its file has no TEAM_NAME, by one rule for every way the entrant
    was listed (a folder, a glob, a path): the student's folder, or the file's stem for a flat
    file. A file with the course's own name (hog.py, hog_contest.py, ...) is a student's
    folder's file however it was listed, so it is named after its folder. A built-in is named
    by its spec."""
    if entry.path is None:
        return entry.name or entry.spec
    if entry.share is not None and entry.share != entry.path and entry.share.name:
        return entry.share.name
    if entry.path.stem.lower() in COURSE_STEMS and entry.path.parent.name:
        return entry.path.parent.name
    return entry.path.stem


class Progress(Protocol):
    def start(self, label: str, total: int) -> None: ...
    def advance(self, n: int) -> None: ...
    def note(self, text: str) -> None: ...  # what is slow right now, beside the bar
    def stop(self) -> None: ...


def reason(exc: StrategyError) -> str:
    """Why a strategy failed, without its file name (shown beside it anyway)."""
    at = f"at {exc.state}: " if exc.state is not None else ""
    return f"{at}{exc.problem}"


def load_slots(
    specs: list[Entry | str],
    rules: RuleSet,
    jobs: int = 1,
    progress: Progress | None = None,
    allow_live: bool = False,
    **sandbox_options: Any,
) -> list[Slot]:
    """Load every entrant; a problem with one (an odd folder entry, a StrategyError, a
    strategy that is not deterministic where the rules demand one, unless ALLOW_LIVE)
    disqualifies that entrant and nothing else.

    Loading runs submissions in the sandbox, which waits on worker processes, so threads are
    enough to load several at once. Files that are byte for byte the same (``_first_copies``)
    are loaded once, and each file starts one worker.
    """

    def one(item: Entry | str) -> Slot:
        entry = _entry(item)
        spec = entry.spec
        fallback = clean_name(entry_name(entry), None)
        where = _where(entry)
        if progress is not None:
            progress.note(f"loading {fallback}")
        try:
            if entry.problem is not None:
                raise StrategyError(spec, entry.problem)
            what: Spec | str = spec
            if entry.path is not None:
                what = Spec(spec, entry.path, entry.function, share=entry.share)
            entrant = load_entrant(what, rules, **sandbox_options, one_worker=many)
            if entrant.live_reason and rules.requires_deterministic and not allow_live:
                raise StrategyError(spec, live_policy(entrant.live_reason))
        except StrategyError as exc:
            slot = Slot(spec, fallback, disqualified=reason(exc), **where)
        except UsageError as exc:
            raise UsageError(f"entrant {spec}: {exc}") from None
        else:
            if entrant.name == spec:  # no TEAM_NAME: the student's folder, or the spec
                slot = Slot(spec, fallback, entrant=entrant, **where)
            else:
                # The full TEAM_NAME: views shorten it, files keep it whole.
                slot = Slot(spec, clean_name(entrant.name, None), entrant=entrant, **where)
        if progress is not None:
            progress.advance(1)
        return slot

    entries = [_entry(item) for item in specs]
    first = _first_copies(entries)
    loaded = [entries[k] for k in sorted(set(first))]
    # Many files at a time keep the cores busy: each is imported twice in one worker, not in
    # two at once (``sandbox.Request.one_worker``), one cold start of a worker per file.
    many = len(loaded) > 1
    if progress is not None:
        progress.start("loading entrants", len(specs))
    try:
        if jobs == 1 or len(loaded) == 1:
            done = [one(s) for s in loaded]
        else:
            # Two loads a job, pipelined: while one worker answers, the next one starts (a
            # sandboxed worker's start, its namespaces and its interpreter, is most of a
            # file's load, and part of it waits on the kernel rather than computing).
            pool = ThreadPoolExecutor(max_workers=min(PIPELINE * jobs, len(loaded)))
            try:
                done = list(pool.map(one, loaded))
            except BaseException:
                # Ctrl-C: load no more, and end the loads under way now, their workers killed
                # (the terminal's SIGINT does not reach them) and no verdict drawn from them.
                # Waiting for them instead took up to each one's time limit, and longer on a
                # busy machine, before the run ended.
                with sandbox.stop_all():
                    pool.shutdown(wait=True, cancel_futures=True)
                raise
            pool.shutdown()
        by_first = dict(zip(sorted(set(first)), done, strict=True))
        slots = []
        for k, entry in enumerate(entries):
            slot = by_first[first[k]]
            if first[k] != k:
                slot = _copy_slot(slot, entry, entries[first[k]])
                if progress is not None:
                    progress.advance(1)
            slots.append(slot)
    finally:
        if progress is not None:
            progress.stop()
    _unique_names(slots)
    _flag_copies(slots)
    return slots


def _where(entry: Entry) -> dict[str, Path | None]:
    """A slot's file, and its student's folder in a per-student layout."""
    shared = entry.share is not None and entry.share != entry.path
    return {"path": entry.path, "folder": entry.share if shared else None}


def _first_copies(entries: list[Entry]) -> list[int]:
    """For each entry, the first entry whose files are byte for byte its own (names, bytes and
    the function asked for): itself when none before it is. Copies are loaded once."""
    first: list[int] = []
    seen: dict[tuple[str, str | None], int] = {}
    for k, entry in enumerate(entries):
        found = k
        if entry.path is not None and entry.problem is None:
            try:
                digest = snapshot(entry.path, entry.share).digest
            except StrategyError:  # unreadable: loading it says why
                digest = None
            if digest is not None:
                found = seen.setdefault((digest, entry.function), k)
        first.append(found)
    return first


def _copy_slot(slot: Slot, entry: Entry, original: Entry) -> Slot:
    """The slot of ENTRY, whose files are those of ORIGINAL, loaded as SLOT: the same table or
    failure, under its own spec, file and name."""
    where = _where(entry)
    fallback = clean_name(entry_name(entry), None)
    if slot.entrant is None:
        return Slot(entry.spec, fallback, disqualified=slot.disqualified, **where)
    spec = Spec(entry.spec, entry.path, entry.function, share=entry.share)
    if slot.entrant.name == original.spec:  # no TEAM_NAME: named as its own file is
        entrant = dataclasses.replace(slot.entrant, spec=spec, name=entry.spec)
        return Slot(entry.spec, fallback, entrant=entrant, **where)
    entrant = dataclasses.replace(slot.entrant, spec=spec)
    return Slot(entry.spec, slot.name, entrant=entrant, **where)


def _entry(item: Entry | str) -> Entry:
    """An entrant named by a string, found as the command line finds it: a file entrant sees
    itself alone, never the files beside it (which may be its classmates')."""
    if isinstance(item, Entry):
        return item
    try:
        found = discover([item], Path.cwd())
    except UsageError:
        return Entry(item)  # the problem is reported when it is loaded
    # Named as the caller named it (discovery would shorten the path).
    return dataclasses.replace(found[0], spec=item) if len(found) == 1 else Entry(item)


def live_policy(reason: str) -> str:
    """The disqualification of a strategy that is not a pure function, as the contest says."""
    reason = re.sub(r"^.*?:\w+ (?=at \()", "", reason)  # the file is named beside it already
    return (
        f"{reason}; the contest rules require a deterministic strategy of the scores"
        " (--allow-live, or allow_live = true, plays such strategies by Monte Carlo)"
    )


def _flag_copies(slots: list[Slot]) -> None:
    """Entrants with the same decision table say so: a TA sees copies at a glance."""
    groups: dict[str, list[Slot]] = {}
    for slot in slots:
        if slot.entrant is not None and slot.entrant.tableable:
            groups.setdefault(slot.entrant.key, []).append(slot)
    for group in groups.values():
        for slot in group:
            others = [other.name for other in group if other is not slot]
            if others:
                slot.same_as = others


def _unique_names(slots: list[Slot]) -> None:
    """Two entrants with the same TEAM_NAME are told apart by their spec."""
    seen: dict[str, int] = {}
    for slot in slots:
        seen[slot.name] = seen.get(slot.name, 0) + 1
    for slot in slots:
        if seen[slot.name] > 1:
            slot.name = f"{slot.name} ({slot.spec})"
