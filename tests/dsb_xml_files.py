"""DSB-XML files for the import tests: a CLM-style report of a tournament read from a TRF file.

``clm_style(tournament)`` writes the TRF file's tournament with ``dsb_xml.write`` and then adds what
ChessLeagueManager does (formats.md §3.10): ``creationDate`` as ``01.07.2026T20:15:00``, a ``notes``
element, no ``dsbId``, umlauts in names replaced by ae/oe/ue/ss, and the whole file converted to Latin-1
bytes under the UTF-8 declaration. Byes and forfeits are written as the writers keep them (a
``none…Player`` side, ``+``/``-``).
"""

from __future__ import annotations

import datetime
import re
import uuid

from ratings.formats import dsb_xml
from ratings.formats.trf import TrfTournament

_CLM_FOLD = str.maketrans({"ä": "ae", "ö": "oe", "ü": "ue", "ß": "ss", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue"})
# TRF byes → the points of the player's side against noneBlackPlayer (U: spielfrei, a "+").
_BYE_POINTS = {"U": "+", "F": "1", "H": "0.5", "Z": "0"}
_GAME_POINTS = {"1": "1", "0": "0", "=": "0.5", "+": "+", "-": "-"}


def report_of(t: TrfTournament, *, fold_names: bool = False) -> dsb_xml.Report:
    """The TRF file's tournament as a DSB report (every player needs a birth year)."""

    def name(text: str) -> str:
        return text.translate(_CLM_FOLD) if fold_names else text

    players = tuple(
        dsb_xml.Player(
            number=p.start_rank,
            surname=name(p.surname or p.name),
            forename=name(p.first_name),
            birth_year=p.birth_year,
            fide_id=p.fide_id,
            fide_rating=p.fide_rating,
            sex=p.sex,
        )
        for p in t.players
    )
    games = [
        dsb_xml.Game(g.round, g.white, g.black, _GAME_POINTS[g.white_code], _GAME_POINTS[g.black_code])
        for g in t.games
    ]
    games += [dsb_xml.Game(b.round, b.player, None, _BYE_POINTS[b.code], "-") for b in t.byes]
    games.sort(key=lambda g: (g.round, g.white or 0))
    head = t.head
    assert head.start_date is not None and head.end_date is not None
    return dsb_xml.Report(
        header=dsb_xml.Header(
            creation_date=datetime.datetime(2026, 7, 1, 20, 15),
            sender="Ergebnisdienst - Test",
            system="ChessLeagueManager 5.0.1",
            file_uuid=uuid.UUID(int=1),
        ),
        tournament=dsb_xml.Tournament(
            uuid=uuid.UUID(int=2),
            label=name(head.name),
            type="SW",
            rounds=t.rounds,
            start_date=head.start_date,
            end_date=head.end_date,
            location=head.city or "-",
            notes="ChessLeagueManager 5.0.1 - Ergebnisdienst - Test",
        ),
        players=players,
        games=tuple(games),
    )


def clm_style(t: TrfTournament) -> bytes:
    """The CLM-style file of the TRF file's tournament (see the module's text)."""
    text = dsb_xml.write(report_of(t, fold_names=True)).decode("utf-8")
    text = re.sub(
        r"<creationDate>[^<]*</creationDate>", "<creationDate>01.07.2026T20:15:00</creationDate>", text
    )
    assert "<dsbId>" not in text and "<notes>" in text
    return text.encode("latin-1", errors="replace")
