"""The pure parts of a division's exports (spec/leagues.md §5, formats.md §1.2 and §3.10): start numbers by
team, the TRF26 tournament with its team records (``013``) and the DSB tournament report (``TR``).

Both files hold the rated games only, exactly as the division's DWZ tournament does (``rated.rated_games``):
forfeits, empty boards and matches lost by forfeit are in the table and its CSV, never in a rating file. Each
game carries its own date; the team's name goes into each player's ``club`` (DSB XML) and each team's start
numbers into its ``013`` record (TRF).
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from leagues.core.player_scores import player_scores
from leagues.core.rated import RatedGame
from leagues.core.types import Match
from ratings.formats import dsb_xml
from ratings.formats.trf import NationalRating, TrfGame, TrfHead, TrfPlayer, TrfTournament, write_trf

TRF_CODES = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("=", "=")}
DSB_POINTS = {"1-0": ("1", "0"), "0-1": ("0", "1"), "1/2-1/2": ("0.5", "0.5")}


@dataclass(frozen=True, slots=True)
class ExportPlayer:
    id: str
    surname: str
    first_name: str = ""
    birth_year: int | None = None
    sex: str = ""  # "m", "w" or ""
    fide_id: int | None = None
    fide_elo: int | None = None
    dwz: int | None = None
    index: int | None = None
    person_id: str = ""  # the GER line's id (nu id, PKZ or ZPS-Mitgliedsnummer)
    dsb_id: str = ""  # dsbId of the DSB report ("" = left out)


@dataclass(frozen=True, slots=True)
class ExportTeam:
    id: str
    name: str
    zps: str = ""


def games_between(
    games: Iterable[RatedGame], since: datetime.date | None = None, until: datetime.date | None = None
) -> tuple[RatedGame, ...]:
    """The games played on or after ``since`` and before ``until`` (a part of the division, WO 2.2.2)."""
    return tuple(
        g for g in games if (since is None or g.played_on >= since) and (until is None or g.played_on < until)
    )


def team_of_players(matches: Iterable[Match], teams: Sequence[ExportTeam]) -> dict[str, str]:
    """Each player's team: the first of the teams' order he played for."""
    order = {t.id: i for i, t in enumerate(teams)}
    result: dict[str, str] = {}
    for score in sorted(player_scores(matches), key=lambda s: order.get(s.team, len(order))):
        result.setdefault(score.player, score.team)
    return result


def start_numbers(
    matches: Iterable[Match], teams: Sequence[ExportTeam], games: Iterable[RatedGame]
) -> dict[str, int]:
    """Start numbers 1, 2, … of the players of ``games``: team by team in the teams' order, within a team by
    the first board he played, so that each team's players are consecutive."""
    in_games = {p for g in games for p in (g.white, g.black)}
    order = {t.id: i for i, t in enumerate(teams)}
    ranked = sorted(
        (s for s in player_scores(matches) if s.player in in_games),
        key=lambda s: (order.get(s.team, len(order)), s.first_board, s.player),
    )
    numbers: dict[str, int] = {}
    for score in ranked:
        if score.player not in numbers:
            numbers[score.player] = len(numbers) + 1
    for player in sorted(in_games - set(numbers)):
        numbers[player] = len(numbers) + 1
    return numbers


def team_record(name: str, start_ranks: Sequence[int]) -> str:
    """A TRF ``013`` line: the name in columns 5–36, the start ranks at 37–40, 42–45, … (formats.md §1.2)."""
    ranks = "".join(f"{rank:4d} " for rank in start_ranks)
    return f"013 {' '.join(name.split())[:32]:<32}{ranks}".rstrip()


@dataclass(frozen=True, slots=True)
class Head:
    name: str
    start_date: datetime.date | None
    end_date: datetime.date | None
    rounds: int
    city: str = ""
    time_control: str = ""
    round_dates: tuple[datetime.date | None, ...] = ()


def trf_text(
    head: Head,
    *,
    teams: Sequence[ExportTeam],
    players: Mapping[str, ExportPlayer],
    games: Sequence[RatedGame],
    numbers: Mapping[str, int],
    team_of: Mapping[str, str],
) -> str:
    """TRF26 of the games with a GER line per player and one ``013`` record per team (``082``: the teams)."""
    trf_players = []
    for player_id, number in sorted(numbers.items(), key=lambda item: item[1]):
        p = players[player_id]
        national = {}
        if p.dwz is not None or p.person_id:
            national["GER"] = NationalRating(
                "GER", rating=p.dwz, index=p.index, number=p.person_id, name=_name(p)
            )
        trf_players.append(
            TrfPlayer(
                start_rank=number, name=_name(p), surname=p.surname, first_name=p.first_name, sex=p.sex,
                fide_rating=p.fide_elo, fide_id=p.fide_id, birth_year=p.birth_year, national=national,
            )
        )  # fmt: skip
    trf_games = [TrfGame(g.round, numbers[g.white], numbers[g.black], *TRF_CODES[g.result]) for g in games]
    kept = [f"082 {len(teams)}"]
    for team in teams:
        ranks = sorted(n for p, n in numbers.items() if team_of.get(p) == team.id)
        kept.append(team_record(team.name, ranks))
    trf_head = TrfHead(
        name=head.name, city=head.city, federation="GER", start_date=head.start_date, end_date=head.end_date,
        kind="Team: Round Robin", time_control=head.time_control, round_dates=list(head.round_dates),
        rounds=head.rounds,
    )  # fmt: skip
    tournament = TrfTournament(
        head=trf_head, players=trf_players, games=trf_games, rounds=head.rounds, kept_lines=kept
    )
    return write_trf(tournament)


def _name(p: ExportPlayer) -> str:
    return f"{p.surname}, {p.first_name}" if p.first_name else p.surname


def dsb_report(
    *,
    header: dsb_xml.Header,
    head: Head,
    tournament_uuid: uuid.UUID,
    teams: Sequence[ExportTeam],
    players: Mapping[str, ExportPlayer],
    games: Sequence[RatedGame],
    numbers: Mapping[str, int],
    team_of: Mapping[str, str],
) -> dsb_xml.Report:
    """The DSB tournament report 2.5 of the games: ``tournamentType`` ``TR``, the team's name in each player's
    ``club`` and its club's ZPS in ``vkz``, each game with its own date; the dates are those of the games."""
    by_id = {t.id: t for t in teams}
    report_players = []
    for player_id, number in sorted(numbers.items(), key=lambda item: item[1]):
        p = players[player_id]
        team = by_id.get(team_of.get(player_id, ""))
        report_players.append(
            dsb_xml.Player(
                number=number, surname=p.surname, forename=p.first_name, birth_year=p.birth_year,
                dsb_id=p.dsb_id, vkz=team.zps if team else "", club=team.name if team else "",
                fide_id=p.fide_id, fide_rating=p.fide_elo, sex=p.sex if p.sex in ("m", "w") else "",
            )
        )  # fmt: skip
    report_games = tuple(
        dsb_xml.Game(g.round, numbers[g.white], numbers[g.black], *DSB_POINTS[g.result], date=g.played_on)
        for g in games
    )
    days = [g.played_on for g in games]
    start = min(days, default=head.start_date) or datetime.date.today()
    end = max(days, default=head.end_date) or start
    tournament = dsb_xml.Tournament(
        uuid=tournament_uuid, label=head.name, type=dsb_xml.tournament_type("rr", team=True),
        rounds=head.rounds, start_date=start, end_date=end, location=head.city,
        time_control=head.time_control,
    )  # fmt: skip
    return dsb_xml.Report(header, tournament, tuple(report_players), report_games)
