"""The Django choices cover exactly the engine's enums (plus the byes, which never reach the engine)."""

from ratings.dwz import types as engine
from ratings.enums import BYE_RESULTS, Edition, EvaluationStatus, ResultCode


def test_choices_are_the_engine_enums():
    assert set(EvaluationStatus.values) == {s.value for s in engine.Status}
    assert set(Edition.values) == {e.value for e in engine.EditionName}
    assert set(ResultCode.values) - BYE_RESULTS == engine.RESULT_CODES
