"""A DSB tournament report (``dsb_xml.Report``) as the TRF import's intermediate (``trf.TrfTournament``).

Pure Python, no Django. The XML import reuses the TRF import's matching, review, decisions, plausibility and
save (``ratings.selectors.trf_import``, ``ratings.services.trf_import.trf_save``): :func:`to_trf` is the only
XML-specific step after :func:`ratings.formats.dsb_xml.parse`.

Mapping (formats.md §3.10):

- players: the start number becomes the start rank; the person id the matching uses is the ``dsbId``
  (``NU…``, numeric PKZ, ``FI…``), else ``vkz`` + ``numberClubMember`` as a ZPS-Mitgliedsnummer
  (``21001-17``), else none (name + birth year then). The XML carries no DWZ: a new player starts with
  his ``fideRating`` as a take-over, else without a rating, as a TRF line without GER record.
- games in the TRF codes the import converts (``1``/``0``, ``=``/``=``, ``+``/``-``, ``-``/``-``); a side
  ``noneWhitePlayer``/``noneBlackPlayer`` is a bye of the other side (``+`` spielfrei, ``1`` full point,
  ``0.5`` half point, ``0``/``-`` zero point).
- **Decision** for the scores whose sides do not add up to 1 (§3.10 decision: kept, not rated; dwzsite has
  no result code for them): ``0``/``0`` stays a pairing as ``-``/``-`` (both without a point, never rated);
  any other (``0.5``/``0``, ``0``/``0.5``, ``1``/``1`` …) becomes a bye per side with that side's points
  (``H``, ``F``, ``Z``), as the TRF import stores ``D``/``D``. A forfeit side is a point value too
  (``+`` 1, ``-`` 0): ``0``/``-`` is ``-``/``-``, ``0.5``/``-`` a half- and a zero-point bye. Each such
  conversion is a warning with the game's line, shown on the review page and by the command.
- the ``tournamentUUID`` is not taken as the tournament code (CLM makes a new one for every file; the code is
  the officer's, ``--code`` or the review form).
"""

from __future__ import annotations

from decimal import Decimal

from . import dsb_xml
from .trf import NationalRating, Problem, TrfBye, TrfGame, TrfHead, TrfPlayer, TrfTournament


def gettext_noop(message: str) -> str:
    """Marks a message for translation (picked up by ``makemessages``); translated by the caller."""
    return message


_BOM = b"\xef\xbb\xbf"

# A side's points as a value; the forfeit signs count as their points.
_VALUES = {**dsb_xml.POINT_VALUES}
# Points of one side alone → TRF bye code (U: "spielfrei", the pairing's bye).
_BYE_CODES = {"+": "U", "1": "F", "0.5": "H", "0": "Z", "-": "Z"}
_VALUE_BYE_CODES = {Decimal(1): "F", Decimal("0.5"): "H", Decimal(0): "Z"}


def is_xml(data: bytes) -> bool:
    """Whether an upload is XML (by its content, not its name): after a BOM and blanks it opens with ``<``."""
    head = data[:1024]
    if head.startswith(_BOM):
        head = head[len(_BOM) :]
    elif head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return b"<\x00" in head[:8] or b"\x00<" in head[:8]
    return head.lstrip().startswith(b"<")


def person_id_text(p: dsb_xml.Player) -> str:
    """The id the TRF matching reads (``TrfPlayer.person_id``): DSB id, else ZPS-Mitgliedsnummer, else ""."""
    if p.dsb_id:
        return p.dsb_id.upper()
    if p.vkz and p.member_number is not None:
        return f"{p.vkz.upper()}-{p.member_number}"
    return ""


def _player(p: dsb_xml.Player) -> TrfPlayer:
    pid = person_id_text(p)
    return TrfPlayer(
        start_rank=p.number,
        name=p.name,
        surname=p.surname,
        first_name=p.forename,
        sex=p.sex,
        fide_rating=p.fide_rating,
        fide_id=p.fide_id,
        birth_date=p.birth_date,
        birth_year=p.birth_year,
        national={"GER": NationalRating("GER", number=pid, line=p.line)} if pid else {},
        line=p.line,
    )


def _arbiter_note(g: dsb_xml.Game, stored: str) -> Problem:
    return Problem(
        g.line,
        gettext_noop(
            "Runde %(round)s: %(points)s (%(white)s–%(black)s) ergibt nicht einen Punkt "
            "(Schiedsrichterentscheid): gespeichert als %(stored)s, nicht gewertet."
        ),
        {
            "round": g.round,
            "points": f"{g.point_white}/{g.point_black}",
            "white": g.white,
            "black": g.black,
            "stored": stored,
        },
    )


def _pairing(
    g: dsb_xml.Game, white_rank: int, black_rank: int
) -> tuple[list[TrfGame], list[TrfBye], list[Problem]]:
    """A game between two start numbers in TRF codes (see the module's decision)."""
    if g.is_rated:
        codes = {("1", "0"): ("1", "0"), ("0", "1"): ("0", "1")}.get(
            (g.point_white, g.point_black), ("=", "=")
        )
        return [TrfGame(g.round, white_rank, black_rank, *codes)], [], []
    white, black = _VALUES[g.point_white], _VALUES[g.point_black]
    if g.is_forfeit and (white, black) == (1, 0):
        return [TrfGame(g.round, white_rank, black_rank, "+", "-")], [], []
    if g.is_forfeit and (white, black) == (0, 1):
        return [TrfGame(g.round, white_rank, black_rank, "-", "+")], [], []
    if (white, black) == (0, 0):
        note = [] if (g.point_white, g.point_black) == ("-", "-") else [_arbiter_note(g, "„--“")]
        return [TrfGame(g.round, white_rank, black_rank, "-", "-")], [], note
    byes = [
        TrfBye(g.round, white_rank, _VALUE_BYE_CODES[white]),
        TrfBye(g.round, black_rank, _VALUE_BYE_CODES[black]),
    ]
    return [], byes, [_arbiter_note(g, f"Freilose {byes[0].code}/{byes[1].code}")]


def _games(report: dsb_xml.Report) -> tuple[list[TrfGame], list[TrfBye], list[Problem]]:
    games: list[TrfGame] = []
    byes: list[TrfBye] = []
    notes: list[Problem] = []
    for g in report.games:
        if g.white is not None and g.black is not None:
            more_games, more_byes, more_notes = _pairing(g, g.white, g.black)
        elif g.white is not None:  # noneBlackPlayer: a bye of white
            more_games, more_byes, more_notes = [], [TrfBye(g.round, g.white, _BYE_CODES[g.point_white])], []
        elif g.black is not None:
            more_games, more_byes, more_notes = [], [TrfBye(g.round, g.black, _BYE_CODES[g.point_black])], []
        else:
            continue  # an empty board on both sides: nobody to score
        games += more_games
        byes += more_byes
        notes += more_notes
    return games, byes, notes


def _warning(problem: dsb_xml.Problem) -> Problem:
    """A reader's warning in the TRF problem shape (its line; the element is not part of that shape)."""
    return Problem(problem.line, problem.template, problem.params)


def _warnings(report: dsb_xml.Report, notes: list[Problem]) -> list[Problem]:
    """The reader's warnings and the conversion's notes; a note replaces the reader's warning on its game."""
    noted = {n.line for n in notes}
    kept = [w for w in report.warnings if not (w.element == "game" and w.line in noted)]
    return [*(_warning(w) for w in kept), *notes]


def to_trf(report: dsb_xml.Report) -> TrfTournament:
    """The report as the TRF import's intermediate (matching, review, preview and save read it)."""
    t = report.tournament
    games, byes, notes = _games(report)
    players = [_player(p) for p in report.players]
    points: dict[int, Decimal] = {p.start_rank: Decimal(0) for p in players}
    for g in report.games:
        for number, point in ((g.white, g.point_white), (g.black, g.point_black)):
            if number is not None:
                points[number] = points.get(number, Decimal(0)) + _VALUES[point]
    for p in players:
        p.computed_points = points.get(p.start_rank, Decimal(0))
    head = TrfHead(
        name=t.label,
        city=t.location,
        federation="GER",
        start_date=t.start_date,
        end_date=t.end_date,
        players=len(players),
        time_control=t.time_control,
        rounds=t.rounds,
    )
    rounds = max([t.rounds, *(g.round for g in report.games)])
    return TrfTournament(
        head=head,
        players=players,
        games=games,
        byes=byes,
        rounds=rounds,
        warnings=_warnings(report, notes),
        encoding=report.encoding,
    )
