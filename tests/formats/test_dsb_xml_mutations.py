"""Mutated sample reports (byte flips, cut and doubled lines, other encodings): the DSB XML reader either
reads the file or raises its own error, each problem naming a line; never another exception."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings.formats.dsb_xml import DsbXmlError, Report, parse
from tests.conftest import examples

DATA = Path(__file__).resolve().parent.parent / "data" / "dsb-xml"
FILES = [p.read_bytes() for p in sorted(DATA.glob("*.xml"))]
FILE_LEVEL = {"Die Datei ist leer – keine XML-Datei."}


@st.composite
def mutated(draw) -> bytes:
    data = bytearray(draw(st.sampled_from(FILES)))
    lines = data.split(b"\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "truncate", "drop", "duplicate", "encoding", "insert", "swap"]))
        i = draw(st.integers(0, len(lines) - 1))
        line = lines[i]
        if kind == "flip" and line:
            j = draw(st.integers(0, len(line) - 1))
            line = line[:j] + bytes([draw(st.integers(0, 255))]) + line[j + 1 :]
        elif kind == "truncate":
            line = line[: draw(st.integers(0, max(len(line) - 1, 0)))]
        elif kind == "drop":
            lines.pop(i)
            continue
        elif kind == "duplicate":
            lines.insert(i, line)
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
            continue
        elif kind == "insert":
            line = line + draw(st.binary(max_size=12))
        elif kind == "encoding":
            codec = draw(st.sampled_from(["utf-16", "utf-32", "cp850", "latin-1"]))
            return b"\n".join(lines).decode("latin-1").encode(codec, "replace")
        lines[i] = line
    return bytes(b"\n".join(lines))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_mutated_reports_read_or_fail_naming_a_line(data):
    try:
        report = parse(data)
    except DsbXmlError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert problem.line is not None or problem.message in FILE_LEVEL, str(problem)
            assert str(problem)
    else:
        assert isinstance(report, Report)
        assert all(p.number >= 1 for p in report.players)
        numbers = {p.number for p in report.players}
        assert all(n in numbers for g in report.games for n in (g.white, g.black) if n is not None)
