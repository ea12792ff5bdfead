"""The TRF export's pure part: its result tables spell out every result code of the site."""

from ratings.enums import BYE_RESULTS, PAIRING_RESULTS, ResultCode
from ratings.formats import trf_export


def test_every_result_has_a_trf_code_and_points():
    assert set(trf_export.TRF_GAME_CODES) == set(PAIRING_RESULTS) == set(trf_export.GAME_POINTS)
    assert set(trf_export.TRF_BYE_CODES) == set(BYE_RESULTS) == set(trf_export.BYE_POINTS)
    assert set(trf_export.TRF_GAME_CODES) | set(trf_export.TRF_BYE_CODES) == {r.value for r in ResultCode}
    assert {r.value for r in ResultCode} >= trf_export.PLAYED | trf_export.VOLUNTARY_BYES


def test_start_numbers_are_the_start_ranks_where_unique():
    class E:
        def __init__(self, player_id, start_rank):
            self.player_id, self.start_rank = player_id, start_rank

    assert trf_export.start_numbers([E(7, 2), E(8, 1)]) == {7: 2, 8: 1}
    assert trf_export.start_numbers([E(7, 1), E(8, 1)]) == {7: 1, 8: 2}
    assert trf_export.start_numbers([E(7, None), E(8, 1)]) == {7: 1, 8: 2}


def test_the_dsb_person_id():
    assert trf_export.dsb_person_id(dsb_id="NU123", key="C0501-12", club_number="C0501-12") == "NU123"
    assert trf_export.dsb_person_id(dsb_id="", key="10012345", club_number=None) == "10012345"
    assert trf_export.dsb_person_id(dsb_id="", key="x", club_number="C0501-12") == "C0501-12"
    assert trf_export.dsb_person_id(dsb_id="", key="x", club_number=None) == ""
