"""A worker's replies are bounded data: fuzzed replies never make the parent raise anything but
"broke the protocol", never hang it, and a flood never makes it big.

The decoder is the parent's own chain, as a session runs it: ``Lines`` (bounded reading of
lines and raw blocks), ``parse_message`` (size, depth and items checked before parsing, UTF-8,
one-key records), then ``decode_answer``, ``decode_pass`` or a probe's results.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hogbench.sandbox import protocol
from hogbench.sandbox.protocol import PASS, SMALL, Bounds, Lines, Malformed
from hogbench.tables import CodedAnswers

CORPUS = Path(__file__).parent / "hostile"
FILES = Path(__file__).parent / "files"
COUNT = 100  # states of the pass the fuzzed replies claim to be
FUZZ_CASES = 400  # per property


def decode(stream: bytes, chunks: list[int], kind: str, count: int = COUNT) -> object:
    """What the parent makes of STREAM, read in CHUNKS (sizes), as a reply of KIND: the decoded
    value, None for a stream that ends early, or Malformed."""
    lines = Lines()
    bounds = {"pass": PASS, "probe": protocol.probe_bounds(COUNT)}.get(kind, SMALL) | SMALL
    position = 0
    sizes = iter(chunks)

    def more() -> bool:
        nonlocal position
        if position >= len(stream):
            return False
        step = max(1, next(sizes, 1 << 20))
        lines.feed(stream[position : position + step])
        position += step
        return True

    while (line := lines.next_line(bounds.size)) is None:
        if not more():
            return None
    message = protocol.parse_message(line, bounds)
    key = next(iter(message))
    value = message[key]
    if kind == "answer":
        return protocol.decode_answer(value)
    if kind == "pass":
        size = protocol.pass_size(value, count)
        while (block := lines.take(size)) is None:
            if not more():
                return None
        return protocol.decode_pass(value, block, count)
    return value


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=30),
    lambda children: (
        st.lists(children, max_size=6) | st.dictionaries(st.text(max_size=8), children, max_size=6)
    ),
    max_leaves=60,
)
passes = st.fixed_dictionaries(
    {"values": st.lists(json_values, min_size=0, max_size=300)}
) | st.builds(dict, values=st.lists(st.integers(0, 11), min_size=1, max_size=12, unique=True))
replies = st.one_of(
    json_values.map(lambda v: {"answer": v}),
    passes.map(lambda v: {"first": v}),
    json_values.map(lambda v: {"loaded": v}),
    st.dictionaries(st.text(max_size=10), json_values, max_size=3),
    json_values,
)
encodings = st.sampled_from(["utf-8", "utf-16", "utf-32", "latin-1", "ascii-escaped"])


def encoded(reply: object, encoding: str) -> bytes:
    text = json.dumps(reply, ensure_ascii=encoding == "ascii-escaped")
    codec = "utf-8" if encoding == "ascii-escaped" else encoding
    errors = "replace" if encoding == "latin-1" else "surrogatepass"
    return text.encode(codec, errors)


def check(stream: bytes, chunks: list[int], kind: str) -> None:
    start = time.perf_counter()
    try:
        result = decode(stream, chunks, kind)
    except Malformed as exc:
        assert str(exc)  # a reason, shown as "broke the protocol with hogbench (sent ...)"
    else:
        if kind == "pass" and result is not None:
            assert isinstance(result, CodedAnswers) and len(result) == COUNT
    assert time.perf_counter() - start < 2.0


FUZZ = settings(
    max_examples=FUZZ_CASES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(
    reply=replies,
    encoding=encodings,
    kind=st.sampled_from(["answer", "pass", "loaded", "probe"]),
    cut=st.none() | st.integers(0, 400),
    codes=st.binary(max_size=2 * COUNT + 5),
    chunks=st.lists(st.integers(1, 64), max_size=20),
)
def test_random_replies_are_answers_or_protocol_failures(reply, encoding, kind, cut, codes, chunks):
    """Random JSON of any shape, in any encoding, cut short or whole, with random raw codes."""
    data = encoded(reply, encoding) + b"\n" + codes
    if cut is not None:
        data = data[:cut]  # a partial line: the worker died mid-write
    check(data, chunks, kind)


@FUZZ
@given(data=st.binary(max_size=3000), kind=st.sampled_from(["answer", "pass", "loaded"]))
def test_random_bytes_are_answers_or_protocol_failures(data, kind):
    check(data, [], kind)


@FUZZ
@given(
    depth=st.integers(1, 200_000),
    opener=st.sampled_from([b"[", b'{"a":', b'["x\\"",']),
    kind=st.sampled_from(["answer", "pass", "loaded"]),
)
def test_deep_nesting_is_refused_before_parsing(depth, opener, kind):
    closer = b"]" if opener != b'{"a":' else b"}"
    line = b'{"answer": ' + opener * depth + b"0" + closer * depth + b"}\n"
    check(line, [], kind)


@FUZZ
@given(
    items=st.integers(0, 100_000),
    item=st.sampled_from([b"[]", b"{}", b"0", b'"]"', b'"\\\\"']),
)
def test_many_items_are_refused_before_parsing(items, item):
    line = b'{"loaded": [' + b",".join([item] * items) + b"]}\n"
    check(line, [], "loaded")


def test_the_shape_check_skips_strings_and_escapes():
    """Brackets and commas inside strings are text, not structure; an escaped quote does not
    end a string; a string split across the MB blocks the scan works in keeps its place."""
    text = json.dumps({"answer": {"type": "list", "repr": '[[[[,,,,"\\' * 50}})
    protocol.json_shape(text.encode(), Bounds(1 << 20, depth=2, items=3))
    long = b'{"answer": "' + b"[" * (3 << 20) + b'\\\\"}'
    protocol.json_shape(long, Bounds(len(long), depth=1, items=1))
    with pytest.raises(Malformed, match="nested more than 2 deep"):
        protocol.json_shape(b'{"a": [[0]]}', Bounds(100, depth=2))
    with pytest.raises(Malformed, match="more than 3 items"):
        protocol.json_shape(b"[0,0,0,0]", Bounds(100, items=3))


def _shape_verdict(check, line: bytes, bounds: Bounds) -> str:
    try:
        check(line, bounds)
    except Malformed as exc:
        return str(exc)
    return "accepted"


@FUZZ
@given(
    line=st.lists(st.sampled_from([b"[", b"]", b"{", b"}", b",", b'"', b"\\", b"0", b" "]))
    .map(b"".join)
    .filter(lambda line: len(line) <= 512),
    depth=st.integers(0, 6),
    items=st.integers(0, 12),
)
def test_short_lines_are_checked_as_the_block_scan_checks_them(line, depth, items):
    """Short lines (a worker's usual messages) are scanned byte by byte in plain Python; the
    verdict is the numpy block scan's, on any mix of brackets, commas, quotes and escapes."""
    bounds = Bounds(1 << 20, depth=depth, items=items)
    short = _shape_verdict(protocol._short_shape, line, bounds)
    assert short == _shape_verdict(protocol._long_shape, line, bounds)


def test_a_line_over_its_bound_is_refused_before_it_ends():
    lines = Lines()
    lines.feed(b"7" * (PASS.size + 1))
    with pytest.raises(Malformed, match="longer than"):
        lines.next_line(PASS.size)


def test_a_pass_is_its_values_and_one_or_two_bytes_a_state():
    from hogbench.sandbox import worker

    for answers in ([4] * 99 + [300], [f"s{i}" for i in range(100)], [[i] for i in range(100)]):
        values, codes = worker.coded(answers)
        line = json.dumps({"first": {"values": values}}).encode() + b"\n" + codes
        decoded = decode(line, [7, 1000], "pass")
        assert [repr(a) for a in decoded] == [
            repr(protocol.decode_answer(worker.encode(a))) for a in answers
        ]
    many = [float(i) for i in range(2000)]  # more distinct answers than a pass names
    values, codes = worker.coded(many)
    assert len(values) == worker.MAX_VALUES + 1 and len(codes) == 2 * len(many)
    line = json.dumps({"first": {"values": values}}).encode() + b"\n" + codes
    decoded = decode(line, [], "pass", len(many))
    assert decoded[5] == 5.0 and "more than 1024 distinct answers" in repr(decoded[1999])
    assert isinstance(decoded.codes, np.ndarray)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@FUZZ
@given(value=JSON_VALUES)
def test_the_worker_writes_and_reads_json_as_the_json_module_does(value):
    """The worker's codec (the json module's C encoder and scanner, made without importing
    json) writes what ``json.dumps`` writes and reads it back as ``json.loads`` does."""
    from hogbench.sandbox import worker

    text = json.dumps(value)
    assert worker._dumps(value) == text
    back = worker._loads(text.encode() + b"\n")
    assert json.dumps(back) == json.dumps(json.loads(text))  # NaN != NaN: compared as text


def test_without_the_json_accelerator_the_worker_uses_the_json_module(monkeypatch):
    from hogbench.sandbox import worker

    assert worker._json_codec() != (json.dumps, json.loads)  # the accelerator, here
    monkeypatch.setitem(sys.modules, "_json", None)  # importing it fails
    assert worker._json_codec() == (json.dumps, json.loads)


def peak_rss_mb(args: list[str]) -> float:
    """The peak resident memory, in MB, of a hogbench process running ARGS."""
    probe = (
        "import resource, sys\n"
        "from hogbench.cli import app\n"
        "try:\n"
        "    app(sys.argv[1:], standalone_mode=False)\n"
        "except BaseException:\n"
        "    pass\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe, *args], capture_output=True, text=True, timeout=600
    )
    return float(done.stderr.strip().splitlines()[-1])


@pytest.mark.parametrize("sandboxed", [True, False], ids=["bwrap", "no-sandbox"])
def test_a_reply_flood_leaves_the_parent_within_its_budget(sandboxed, tmp_path, monkeypatch):
    """A worker writing 1.5 GB with no newline: the parent stays within 300 MB of what checking
    a good file costs it (it held 4.7 GB before replies were bounded)."""
    from hogbench import sandbox

    if sandboxed and sandbox.bwrap_path() is None:
        pytest.skip("bwrap (bubblewrap) is missing")
    monkeypatch.setenv("HOGBENCH_CACHE", str(tmp_path / "cache"))
    flags = ["--rules", "hog-su21", "--goal", "10"] + ([] if sandboxed else ["--no-sandbox"])
    baseline = peak_rss_mb(["check", str(FILES / "good_su21.py"), *flags])
    flood = peak_rss_mb(["check", str(CORPUS / "reply_flood.py"), *flags])
    print(f"peak RSS: {baseline:.0f} MB checking a good file, {flood:.0f} MB under the flood")
    assert flood - baseline < 300
