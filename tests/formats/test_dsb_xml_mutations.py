"""Mutated sample reports (byte flips, cut and doubled lines, other encodings): the DSB XML reader either
reads the file or raises its own error, each problem naming a line; never another exception."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from ratings.formats.dsb_xml import DsbXmlError, Report, parse
from tests.conftest import examples
from tests.formats.line_mutations import mutated

DATA = Path(__file__).resolve().parent.parent / "data" / "dsb-xml"
FILES = [p.read_bytes() for p in sorted(DATA.glob("*.xml"))]
FILE_LEVEL = {"Die Datei ist leer – keine XML-Datei."}


MUTATED = mutated(
    FILES,
    kinds=("flip", "truncate", "drop", "duplicate", "encoding", "insert", "swap"),
    codecs=("utf-16", "utf-32", "cp850", "latin-1"),
    reencode=lambda data, codec: data.decode("latin-1").encode(codec, "replace"),
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MUTATED)
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
