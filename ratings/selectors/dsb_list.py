"""Reads for the lists dwzsite gives out: the DSB list shape (``spieler.csv`` 3b, DOS) and Swiss-Chess.

One row per current membership, with dwzsite's current DWZ and index, for a club, a federation (with
everything below it) or all. Players without a current membership have no ZPS and are not in such a list.
"""

from __future__ import annotations

import datetime
import io
import zipfile

from ratings.exports import spreadsheet_safe
from ratings.formats import swiss_chess
from ratings.formats.dsb_list import ClubRow, FederationRow, PlayerRow, write_zip
from ratings.models import Club, Membership, Organisation

WOMEN_TITLES = {"WGM", "WIM", "WFM", "WCM"}


def _memberships(*, club: Club | None, organisation: Organisation | None):
    qs = Membership.objects.current()
    if club is not None:
        qs = qs.filter(club=club)
    elif organisation is not None:
        qs = qs.in_organisation(organisation)
    return qs.order_by("club__zps", "member_number", "pk").values_list(
        "club__zps",
        "member_number",
        "status",
        "player__dsb_id",
        "player__surname",
        "player__first_name",
        "player__sex",
        "player__birth_year",
        "player__last_evaluated",
        "player__dwz",
        "player__index",
        "player__fide_elo",
        "player__fide_title",
        "player__fide_id",
        "player__fide_federation",
        "player_id",
    )


def _week(day: datetime.date | None) -> str:
    if day is None:
        return ""
    year, week, _ = day.isocalendar()
    return f"{year}{week:02d}"


def list_rows(
    *, club: Club | None = None, organisation: Organisation | None = None
) -> tuple[list[PlayerRow], list[ClubRow], list[FederationRow]]:
    """The list of ``club``, of ``organisation`` and below, or of all (neither given)."""
    players: list[PlayerRow] = []
    for line, (
        zps,
        number,
        status,
        dsb_id,
        surname,
        first,
        sex,
        birth,
        last,
        dwz,
        index,
        elo,
        title,
        fide_id,
        federation,
        _pid,
    ) in enumerate(_memberships(club=club, organisation=organisation), 2):
        players.append(
            PlayerRow(
                line=line,
                person_id=dsb_id,
                zps=zps,
                member_number=number or None,
                status=status,
                surname=spreadsheet_safe(surname),  # the CSV is opened in spreadsheets, too
                first_name=spreadsheet_safe(first),
                sex={"m": "M", "w": "W"}.get(sex, ""),
                birth_year=birth,
                last_evaluation=_week(last),
                dwz=dwz,
                index=index if dwz is not None else None,
                fide_elo=elo,
                fide_title="" if title in WOMEN_TITLES else title,
                fide_id=fide_id,
                fide_federation=federation,
                women_title=title if title in WOMEN_TITLES else "",
            )
        )
    codes = {r.zps for r in players}
    clubs = (
        [
            ClubRow(0, c.zps, c.zps[0], c.organisation.code, spreadsheet_safe(c.name))
            for c in Club.objects.filter(zps__in=codes).select_related("organisation").order_by("zps")
        ]
        if len(codes) < 900
        else [
            ClubRow(0, c.zps, c.zps[0], c.organisation.code, spreadsheet_safe(c.name))
            for c in Club.objects.select_related("organisation").order_by("zps")
            if c.zps in codes
        ]
    )
    orgs = {o.pk: o for o in Organisation.objects.all()}
    by_code = {o.code: o for o in orgs.values()}
    needed: dict[str, Organisation] = {}
    for row in clubs:
        node = by_code.get(row.parent)
        while node is not None and node.code not in needed:
            needed[node.code] = node
            node = orgs.get(node.parent_id) if node.parent_id is not None else None
    federations = [
        FederationRow(
            0,
            code,
            "" if code == "000" else code[0],
            orgs[o.parent_id].code if o.parent_id in orgs else "",
            o.name,
        )
        for code, o in sorted(needed.items())
    ]
    return players, clubs, federations


def list_zip(*, club=None, organisation=None, dos: bool = False, date: datetime.date | None = None) -> bytes:
    players, clubs, federations = list_rows(club=club, organisation=organisation)
    return write_zip(players, clubs, federations, dos=dos, date=date or datetime.date.today())


def swiss_chess_files(*, club=None, organisation=None) -> tuple[bytes, bytes]:
    """The ``.LST`` and ``.SWX`` of the players (one line per player: his primary membership)."""
    players, clubs, _ = list_rows(club=club, organisation=organisation)
    names = {c.zps: c.name for c in clubs}
    primary: dict[str, PlayerRow] = {}
    for row in sorted(players, key=lambda r: ({"A": 0, "P": 1}.get(r.status, 2), r.line)):
        primary.setdefault(row.person_id or f"{row.zps}-{row.member_number}-{row.line}", row)
    return swiss_chess.write(
        swiss_chess.SwissChessPlayer(
            surname=r.surname,
            first_name=r.first_name,
            club=names.get(r.zps, ""),
            nation=r.fide_federation,
            elo=r.fide_elo,
            dwz=r.dwz,
            title=r.fide_title,
            birth_year=r.birth_year,
            person_id=r.person_id or "",
            fide_id=r.fide_id,
            member_number=r.member_number or "",
            sex=r.sex,
            zps=r.zps,
            status=r.status,
            women_title=r.women_title,
        )
        for r in primary.values()
    )


def swiss_chess_zip(*, club=None, organisation=None, date: datetime.date | None = None) -> bytes:
    lst, swx = swiss_chess_files(club=club, organisation=organisation)
    lst_name, swx_name = swiss_chess.file_names(date or datetime.date.today())
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(lst_name, lst)
        archive.writestr(swx_name, swx)
    return buffer.getvalue()
