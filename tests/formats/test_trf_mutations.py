"""Mutated real files (byte flips, truncated lines, shifted columns, wrong encodings): the reader either reads
the file or raises its own error naming a line; never another exception."""

from pathlib import Path

from hypothesis import HealthCheck, given, settings

from ratings.formats.trf import TrfError, TrfTournament, read_trf
from tests.conftest import examples
from tests.formats.line_mutations import mutated

DATA = Path(__file__).resolve().parent.parent / "data" / "trf"
FILES = [p.read_bytes() for p in sorted(DATA.glob("*.trf"))]
# Messages about the file as a whole; every other problem names its line.
FILE_LEVEL = {"Keine Spielersätze (001) gefunden – ist das eine TRF-Datei?"}
FILE_LEVEL_START = "Keine TRF-Datei: "  # a file without any TRF record (ratings.formats.trf.not_trf)


MUTATED = mutated(
    FILES,
    kinds=("flip", "truncate", "shift", "drop", "duplicate", "encoding", "insert"),
    codecs=("utf-16", "utf-16-le", "cp850", "latin-1", "utf-32"),
    reencode=lambda data, codec: (data.decode("ascii", "replace") + "012 Ärger über Öl – €").encode(
        codec, "replace"
    ),
)


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(MUTATED)
def test_mutated_files_read_or_fail_naming_a_line(data):
    try:
        result = read_trf(data)
    except TrfError as exc:
        assert exc.problems
        for problem in exc.problems:
            assert (
                problem.line is not None
                or problem.message in FILE_LEVEL
                or problem.message.startswith(FILE_LEVEL_START)
            ), str(problem)
            assert str(problem)
    else:
        assert isinstance(result, TrfTournament)
        assert all(p.start_rank for p in result.players)
