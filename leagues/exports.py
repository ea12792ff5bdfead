"""A division's files: the table as CSV (German spreadsheets: ``;``, decimal comma, UTF-8 with BOM, formula
cells neutralised), TRF26 with team records and the DSB tournament report XML 2.5 (``TR``) of the division or
one of its parts. The rows come from ``leagues.selectors.divisions``; the files are written by the pure
``leagues.formats.division_files`` over ``ratings.formats``. The rating files hold the rated games only."""

from __future__ import annotations

import csv
import re
import uuid

from django.http import HttpResponse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from leagues.core.rated import RatedGame
from leagues.formats.division_files import (
    ExportPlayer,
    ExportTeam,
    Head,
    dsb_report,
    start_numbers,
    team_of_players,
    trf_text,
)
from leagues.models import DivisionPart
from leagues.selectors.divisions import DivisionData
from ratings.exports import spreadsheet_safe
from ratings.formats import dsb_xml
from ratings.formats.trf_export import dsb_person_id
from ratings.selectors.dsb_xml_export import tournament_xml_uuid

CSV_HEADER = (
    gettext_lazy("Rang"),
    gettext_lazy("Mannschaft"),
    gettext_lazy("Kämpfe"),
    gettext_lazy("Siege"),
    gettext_lazy("Remis"),
    gettext_lazy("Niederlagen"),
    gettext_lazy("Mannschaftspunkte"),
    gettext_lazy("Brettpunkte"),
    gettext_lazy("Berliner Wertung"),
    gettext_lazy("zurückgezogen"),
)


def table_csv_rows(data: DivisionData) -> list[list[object]]:
    """The header and one row per team in the table's order; board points with a decimal comma."""
    rows: list[list[object]] = [[str(h) for h in CSV_HEADER]]
    for row in data.table:
        team = data.teams_by_id[row.team]
        rows.append(
            [
                row.rank,
                spreadsheet_safe(team.name),
                row.played,
                row.wins,
                row.draws,
                row.losses,
                row.match_points,
                _decimal(row.board_points),
                _decimal(row.berlin),
                _("ja") if row.withdrawn else "",
            ]
        )
    return rows


def _decimal(halves: int) -> str:
    whole, half = divmod(abs(halves), 2)
    return f"{'-' if halves < 0 else ''}{whole}{',5' if half else ''}"


def filename(data: DivisionData, suffix: str) -> str:
    text = f"{data.division.name} {data.division.season.name}"
    return (re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-")[:60] or str(data.division.pk)) + suffix


def _attachment(body: bytes | str, content_type: str, name: str) -> HttpResponse:
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def table_csv_response(data: DivisionData) -> HttpResponse:
    response = _attachment("\ufeff", "text/csv; charset=utf-8", filename(data, "-tabelle.csv"))
    csv.writer(response, delimiter=";").writerows(table_csv_rows(data))
    return response


def _teams(data: DivisionData) -> list[ExportTeam]:
    """The teams in the table's order (the draw order when nothing is played yet)."""
    return [
        ExportTeam(row.team, data.teams_by_id[row.team].name, data.teams_by_id[row.team].club.zps)
        for row in data.table
    ]


def _players(data: DivisionData) -> dict[str, ExportPlayer]:
    if data.board_rows is None:
        raise ValueError("the files need the division read with its players (division_data(players=True))")
    return {
        pid: ExportPlayer(
            id=pid, surname=p.surname, first_name=p.first_name, birth_year=p.birth_year, sex=p.sex,
            fide_id=p.fide_id, fide_elo=p.fide_elo, dwz=p.dwz, index=p.index,
            person_id=dsb_person_id(dsb_id=p.dsb_id or "", key=p.key, club_number=None),
            dsb_id=p.dsb_id or "",
        )
        for pid, p in data.players_by_id.items()
    }  # fmt: skip


def _head(data: DivisionData, games: tuple[RatedGame, ...], part: DivisionPart | None) -> Head:
    d = data.division
    name = f"{d.name} {d.season.name}"
    if part is not None and len(data.parts) > 1:
        name += f" ({_('Teil')} {part.number})"
    dates: dict[int, object] = {}
    for match in data.matches:
        dates.setdefault(match.round, match.scheduled_date)
    organisation = d.season.organisation
    return Head(
        name=name,
        start_date=min((g.played_on for g in games), default=d.season.start_date),
        end_date=max((g.played_on for g in games), default=d.season.end_date),
        rounds=d.rounds,
        city=organisation.name if organisation is not None else "",
        time_control=d.time_control,
        round_dates=tuple(dates.get(r) for r in range(1, d.rounds + 1)),  # type: ignore[misc]
    )


def trf_text_of(data: DivisionData) -> str:
    games = data.rated_games
    teams = _teams(data)
    numbers = start_numbers(data.core_matches, teams, games)
    return trf_text(
        _head(data, games, None), teams=teams, players=_players(data), games=games, numbers=numbers,
        team_of=team_of_players(data.core_matches, teams),
    )  # fmt: skip


def trf_response(data: DivisionData) -> HttpResponse:
    return _attachment(trf_text_of(data).encode(), "text/plain; charset=utf-8", filename(data, ".trf"))


def dsb_xml_of(data: DivisionData, *, part: DivisionPart | None = None) -> bytes:
    """The report of the division (``part`` None: all its rated games) or of one part; raises
    ``dsb_xml.DsbXmlError`` when it cannot be written (e.g. a player without a birth year)."""
    games = data.part_games(part) if part is not None else data.rated_games
    teams = _teams(data)
    d = data.division
    key = f"league-division:{d.pk}" + (f":part:{part.number}" if part is not None else "")
    only = data.parts[0] if part is None and len(data.parts) == 1 else part  # a division of one part is it
    tournament = only.tournament if only is not None else None
    # One tournament, one tournamentUUID: the officer's export's (stored at its first export) once the
    # part has its DWZ tournament; before, the one derived from the division (and part).
    tournament_uuid = (
        tournament_xml_uuid(tournament) if tournament is not None else dsb_xml.tournament_uuid(key, "")
    )
    organisation = d.season.organisation
    header = dsb_xml.Header(
        creation_date=timezone.now(),
        sender=dsb_xml.sender_text(organisation.name if organisation else "", _officer_name(d)),
        system=dsb_xml.system_text(""),
        file_uuid=uuid.uuid4(),
    )
    report = dsb_report(
        header=header, head=_head(data, games, part),
        tournament_uuid=tournament_uuid,
        teams=teams, players=_players(data), games=games,
        numbers=start_numbers(data.core_matches, teams, games),
        team_of=team_of_players(data.core_matches, teams),
    )  # fmt: skip
    return dsb_xml.write(report)


def _officer_name(division) -> str:
    officer = division.rating_officer
    return (officer.get_full_name() or officer.get_username()) if officer is not None else ""


def dsb_xml_response(data: DivisionData, *, part: DivisionPart | None = None) -> HttpResponse:
    """The XML file; a report that cannot be written answers 409 with the problems named, one a line."""
    try:
        body = dsb_xml_of(data, part=part)
    except dsb_xml.DsbXmlError as error:
        lines = [_("Die DSB-Meldung kann nicht geschrieben werden:")]
        lines += [_(p.template) % dict(p.params) if p.params else _(p.template) for p in error.problems]
        return HttpResponse("\n".join(lines), content_type="text/plain; charset=utf-8", status=409)
    suffix = f"-teil-{part.number}.xml" if part is not None else ".xml"
    return _attachment(body, "application/xml; charset=utf-8", filename(data, suffix))
