"""Mutated real files (byte flips, truncated lines, shifted columns, wrong encodings): the reader either reads
the file or raises its own error naming a line; never another exception."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.formats.trf import TrfError, TrfTournament, read_trf
from tests.conftest import examples

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"
FILES = [p.read_bytes() for p in sorted(DATA.glob("*.trf"))]
# Messages about the file as a whole; every other problem names its line.
FILE_LEVEL = {"Keine Spielersätze (001) gefunden – ist das eine TRF-Datei?"}


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(FILES)))
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "truncate", "shift", "drop", "duplicate", "encoding", "insert"]))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if kind == "flip" and line:
            j = draw(st.integers(0, len(line) - 1))
            line = line[:j] + bytes([draw(st.integers(0, 255))]) + line[j + 1 :]
        elif kind == "truncate":
            line = line[: draw(st.integers(0, max(len(line) - 1, 0)))]
        elif kind == "shift":
            j = draw(st.integers(0, len(line)))
            line = line[:j] + b" " + line[j:] if draw(st.booleans()) else line[:j] + line[j + 1 :]
        elif kind == "drop":
            lines.pop(i)
            continue
        elif kind == "duplicate":
            lines.insert(i, line)
        elif kind == "insert":
            line = line + draw(st.binary(max_size=12))
        elif kind == "encoding":
            codec = draw(st.sampled_from(["utf-16", "utf-16-le", "cp850", "latin-1", "utf-32"]))
            text = (b"\n".join(lines)).decode("ascii", "replace") + "012 Ärger über Öl – €"
            return text.encode(codec, "replace")
        lines[i] = line
    return bytes(b"\n".join(lines))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_files_read_or_fail_naming_a_line(data):
    try:
        result = read_trf(data)
    except TrfError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.line is not None or problem.message in FILE_LEVEL, str(problem)
            assert str(problem)
    else:
        assert isinstance(result, TrfTournament)
        assert all(p.start_rank for p in result.players)
