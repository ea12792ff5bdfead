"""Final standings of a tournament: placing (Rang) by points, then tie-breaks. Pure Python.

The tie-breaks follow the FIDE Tie-Break Regulations (C.07, 2023/2024) with their handling of unplayed
rounds (Art. 16):

* an opponent's score counts as written, except that a player who stopped playing has every round after
  his last one "available to play" counted as a draw (½) instead of what he got for it;
* a player's own unplayed round (forfeit, bye, absence) counts as a game against a dummy opponent with the
  player's own final score: in Buchholz that score, in Sonneborn-Berger that score times the points he got;
* cut modifiers (``/C1``, ``/M1``) cut the contributions of his voluntarily unplayed rounds first.

Supported codes (TRF26 record 202, formats.md §2.2): ``BH`` (Buchholz, ``/Cn`` cut, ``/Mn`` median), ``SB``
(Sonneborn-Berger, ``/Cn``), ``DE`` (direct encounter), ``WIN``, ``WON``, ``BPG``, ``BWG``, ``PS``
(progressive score), ``ARO`` (average rating of opponents), ``KS`` (Koya). Players equal in points and in
every tie-break share their place (e.g. 1, 2, 2, 4); FIDE would draw lots there.
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal

from .trf import PLAYED_CODES, TrfTournament, round_points

DEFAULT_TIEBREAKS = ("BH", "SB")
_CODE = re.compile(r"(?P<base>[A-Z]+)(?P<mods>(?:/[A-Z0-9]+)*)")
_SIMPLE = frozenset({"BH", "SB", "DE", "WIN", "WON", "BPG", "BWG", "PS", "ARO", "KS"})
HALF = Decimal("0.5")


@dataclass(frozen=True, slots=True)
class RoundScore:
    """One player's round as the standings see it."""

    round: int
    points: Decimal  # tournament points of this round (byes and forfeits included)
    opponent: Hashable | None = None  # None: bye or not paired
    played: bool = False  # over the board (results 1, ½, 0)
    colour: str = ""  # "w", "b" or ""
    voluntary: bool = False  # forfeit loss, half- or zero-point bye, absence (FIDE: voluntarily unplayed)
    win_points: Decimal = Decimal(1)  # what a win is worth (for WIN)


@dataclass(frozen=True, slots=True)
class Tiebreak:
    code: str  # as given, e.g. "BH/C1"
    base: str  # "BH"
    cut: int = 0
    median: int = 0


@dataclass(frozen=True, slots=True)
class Standing:
    player: Hashable
    rank: int
    points: Decimal
    values: tuple[Decimal, ...]  # one per tie-break of ``Standings.tiebreaks``
    shared: bool = False  # the place is shared with another player


@dataclass(frozen=True, slots=True)
class Standings:
    rows: tuple[Standing, ...]
    tiebreaks: tuple[Tiebreak, ...]
    ignored: tuple[str, ...] = ()  # codes of the file that dwzsite does not compute

    def by_player(self) -> dict[Hashable, Standing]:
        return {row.player: row for row in self.rows}


def parse_tiebreaks(codes: Sequence[str]) -> tuple[tuple[Tiebreak, ...], tuple[str, ...]]:
    """The supported tie-breaks of a 202/212 list in order, and the codes left out."""
    out: list[Tiebreak] = []
    ignored: list[str] = []
    for raw in codes:
        code = raw.strip().upper()
        if code in ("", "PTS"):
            continue
        m = _CODE.fullmatch(code)
        if not m or m.group("base") not in _SIMPLE:
            ignored.append(raw.strip())
            continue
        cut = median = 0
        ok = True
        for mod in filter(None, m.group("mods").split("/")):
            if mod in ("P", "U", "V"):
                continue  # forfeit/unplayed options: Art. 16 handling is applied throughout
            if (mm := re.fullmatch(r"([CM])(\d)", mod)) and m.group("base") in ("BH", "SB"):
                cut, median = (int(mm.group(2)), median) if mm.group(1) == "C" else (cut, int(mm.group(2)))
            else:
                ok = False
        if ok:
            out.append(Tiebreak(code, m.group("base"), cut, median))
        else:
            ignored.append(raw.strip())
    return tuple(out), tuple(ignored)


def _half_up(value: Decimal) -> Decimal:
    return value.quantize(Decimal(1), rounding=ROUND_HALF_UP)


class _Calc:
    def __init__(
        self, scores: Mapping[Hashable, Sequence[RoundScore]], rounds: int, ratings: Mapping[Hashable, int]
    ) -> None:
        self.rounds = rounds
        self.ratings = ratings
        self.by_round: dict[Hashable, dict[int, RoundScore]] = {}
        for player, items in scores.items():
            table = {s.round: s for s in items}
            for r in range(1, rounds + 1):
                table.setdefault(r, RoundScore(r, Decimal(0), voluntary=True))
            self.by_round[player] = table
        self.score = {p: sum((s.points for s in t.values()), Decimal(0)) for p, t in self.by_round.items()}
        self.adjusted = {p: self._adjusted(p) for p in self.by_round}

    def _adjusted(self, player: Hashable) -> Decimal:
        table = self.by_round[player]
        last = max((r for r, s in table.items() if not s.voluntary), default=0)
        return sum((table[r].points for r in range(1, last + 1)), Decimal(0)) + HALF * (self.rounds - last)

    def _contributions(self, player: Hashable, sb: bool) -> list[tuple[bool, Decimal]]:
        """(voluntarily unplayed, value) per round: the opponent's or the dummy's score (times the points)."""
        own = self.score[player]
        out = []
        for s in self.by_round[player].values():
            value = self.adjusted[s.opponent] if s.played and s.opponent in self.adjusted else own
            out.append((s.voluntary and not s.played, value * s.points if sb else value))
        return out

    def summed(self, player: Hashable, tb: Tiebreak) -> Decimal:
        items = self._contributions(player, tb.base == "SB")
        low = tb.cut + tb.median
        # Voluntarily unplayed rounds are cut first, then the least significant values.
        ordered = sorted(items, key=lambda item: (not item[0], item[1]))
        kept = ordered[low:]
        if tb.median:
            kept = sorted(kept, key=lambda item: item[1])[: max(len(kept) - tb.median, 0)]
        return sum((value for _v, value in kept), Decimal(0))

    def value(self, player: Hashable, tb: Tiebreak, group: Sequence[Hashable]) -> Decimal:
        table = self.by_round[player]
        if tb.base in ("BH", "SB"):
            return self.summed(player, tb)
        if tb.base == "DE":
            others = set(group) - {player}
            return sum((s.points for s in table.values() if s.opponent in others), Decimal(0))
        if tb.base == "WIN":
            return Decimal(sum(1 for s in table.values() if s.points >= s.win_points and s.points > 0))
        if tb.base == "WON":
            return Decimal(sum(1 for s in table.values() if s.played and s.points >= s.win_points))
        if tb.base == "BPG":
            return Decimal(sum(1 for s in table.values() if s.played and s.colour == "b"))
        if tb.base == "BWG":
            return Decimal(
                sum(1 for s in table.values() if s.played and s.colour == "b" and s.points >= s.win_points)
            )
        if tb.base == "PS":
            total = running = Decimal(0)
            for r in range(1, self.rounds + 1):
                running += table[r].points
                total += running
            return total
        if tb.base == "ARO":
            ratings = [
                self.ratings[s.opponent] for s in table.values() if s.played and s.opponent in self.ratings
            ]
            return _half_up(Decimal(sum(ratings)) / len(ratings)) if ratings else Decimal(0)
        if tb.base == "KS":
            half = Decimal(self.rounds) * HALF
            return sum(
                (
                    s.points
                    for s in table.values()
                    if s.played and self.score.get(s.opponent, Decimal(0)) >= half
                ),
                Decimal(0),
            )
        raise ValueError(tb.code)  # pragma: no cover - parse_tiebreaks admits only the codes above

    def direct_encounter_decides(self, group: Sequence[Hashable]) -> bool:
        """DE only breaks a tie between players who all met each other (FIDE C.07 Art. 6)."""
        members = set(group)
        for p in group:
            met = {s.opponent for s in self.by_round[p].values() if s.opponent in members}
            if met != members - {p}:
                return False
        return True


def compute_standings(
    scores: Mapping[Hashable, Sequence[RoundScore]],
    *,
    rounds: int | None = None,
    tiebreaks: Sequence[str] = (),
    ratings: Mapping[Hashable, int] | None = None,
) -> Standings:
    """Placing by points, then the tie-breaks ``tiebreaks`` (TRF26 202 codes; Buchholz and Sonneborn-Berger
    when none is given or none is supported). ``scores`` holds every player's rounds."""
    parsed, ignored = parse_tiebreaks(tiebreaks)
    if not parsed:
        parsed, _none = parse_tiebreaks(DEFAULT_TIEBREAKS)
    n_rounds = rounds if rounds is not None else max((s.round for v in scores.values() for s in v), default=0)
    calc = _Calc(scores, n_rounds, ratings or {})
    values: dict[Hashable, list[Decimal]] = {p: [] for p in scores}
    # Sort in stages: each tie-break only separates players equal in points and the tie-breaks before it.
    groups: list[list[Hashable]] = []
    for points in sorted({calc.score[p] for p in scores}, reverse=True):
        groups.append([p for p in scores if calc.score[p] == points])
    for tb in parsed:
        refined: list[list[Hashable]] = []
        for group in groups:
            if tb.base == "DE" and (len(group) == 1 or not calc.direct_encounter_decides(group)):
                for p in group:
                    values[p].append(Decimal(0))
                refined.append(group)
                continue
            for p in group:
                values[p].append(calc.value(p, tb, group))
            for v in sorted({values[p][-1] for p in group}, reverse=True):
                refined.append([p for p in group if values[p][-1] == v])
        groups = refined
    rows: list[Standing] = []
    place = 1
    for group in groups:
        for p in group:
            rows.append(Standing(p, place, calc.score[p], tuple(values[p]), shared=len(group) > 1))
        place += len(group)
    return Standings(tuple(rows), parsed, ignored)


def scores_from_trf(tournament: TrfTournament) -> dict[Hashable, list[RoundScore]]:
    """Every player's rounds of a read TRF file (games and byes), keyed by start rank."""
    scoring = tournament.head.scoring
    simple = {k: v for k, v in scoring.items() if len(k) == 1}
    xxs = {k: v for k, v in scoring.items() if len(k) > 1}
    win = round_points("1", "w", simple, xxs)
    out: dict[Hashable, list[RoundScore]] = {p.start_rank: [] for p in tournament.players}
    for g in tournament.games:
        played = g.white_code in PLAYED_CODES
        for me, opp, code, colour in (
            (g.white, g.black, g.white_code, "w"),
            (g.black, g.white, g.black_code, "b"),
        ):
            colour = colour if g.colour_known else ""
            out[me].append(
                RoundScore(
                    g.round,
                    round_points(code, colour, simple, xxs),
                    opp,
                    played=played,
                    colour=colour,
                    voluntary=code == "-",
                    win_points=win,
                )
            )
    for b in tournament.byes:
        out[b.player].append(
            RoundScore(
                b.round, round_points(b.code, "", simple, xxs), voluntary=b.code in "HZ", win_points=win
            )
        )
    return out
