"""Seeded generator of DSB lists of the real shape (spec/formats.md §3.7) for tests and benchmarks.

Real member lists must never be committed: these lists use the real 2019 federation tree (club and
federation codes and names, tests/data/dewis-organizations-2019-08-02.csv) and invented people whose names
come from a small fixed pool with umlauts and ß. Every list covers the cases of §3.7: a person with two
memberships (A + P), players without DWZ (0/0), member numbers 0000 and 0, a name with a third part (Dr.),
the federations' pseudo-clubs in ``vereine.csv``.
"""

from __future__ import annotations

import csv
import datetime
import io
import random
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

from ratings.formats.dsb_list import ClubRow, FederationRow, PlayerRow, write_zip

TREE = Path(__file__).resolve().parent / "data" / "dewis-organizations-2019-08-02.csv"

SURNAMES = [
    "Müller",
    "Schröder",
    "Weiß",
    "Beispiel",
    "Muster",
    "Groß",
    "Köhler",
    "Bäcker",
    "Schütz",
    "Hoffmann",
    "Wagner",
    "Becker",
    "Schäfer",
    "Krüger",
    "Neumann",
    "Schwarz",
    "Zimmermann",
    "Braun",
    "Hofmann",
    "Lößl",
    "Jäger",
    "Fuß",
    "Öztürk",
    "Nowak",
    "Dubois",
    "Šimek",
    "Strauß",
    "Kühn",
    "Vogel",
    "Frank",
    "Meißner",
    "Lang",
]
FIRST_NAMES = {
    "M": [
        "Max",
        "Jürgen",
        "Hans-Peter",
        "Lukas",
        "Jörg",
        "Björn",
        "Matthias",
        "Günter",
        "André",
        "Paul",
        "Felix",
        "Uwe",
        "Erik",
        "Sören",
        "Tim",
        "Karl",
    ],
    "W": [
        "Erika",
        "Jana",
        "Ännchen",
        "Maria",
        "Sophie",
        "Käthe",
        "Lena",
        "Zoë",
        "Birgit",
        "Hannah",
        "Luise",
        "Jördis",
    ],
}


@dataclass
class GeneratedList:
    players: list[PlayerRow] = field(default_factory=list)
    clubs: list[ClubRow] = field(default_factory=list)
    federations: list[FederationRow] = field(default_factory=list)

    def zip_bytes(
        self, *, generation: str = "3b", dos: bool = False, date: datetime.date | None = None
    ) -> bytes:
        return write_zip(
            self.players, self.clubs, self.federations, generation=generation, dos=dos, date=date
        )


def federation_tree() -> tuple[list[FederationRow], list[ClubRow]]:
    """The 2019 tree: federations (with parents) and clubs, in file order."""
    federations, clubs = [], []
    with TREE.open(encoding="utf-8", newline="") as f:
        for line, row in enumerate(csv.DictReader(f), 2):
            code, parent = row["vkz"], row["parent_vkz"]
            if len(code) == 3:
                lv = "" if code == "000" else code[0]
                federations.append(FederationRow(line, code, lv, parent, row["name"]))
            else:
                clubs.append(ClubRow(line, code, code[0], parent, row["name"]))
    return federations, clubs


def generate(
    rows: int = 200,
    *,
    seed: int = 1,
    id_kind: str = "nu",
    clubs: int | None = None,
    pseudo_clubs: bool = True,
) -> GeneratedList:
    """About ``rows`` membership rows (exactly ``rows`` once ``rows`` ≥ 20).

    ``id_kind``: "nu" (NU…), "pkz" (numeric, DeWIS) or "none" (generation 1). ``clubs``: how many clubs of
    the tree get members (default: enough for about 45 rows each).
    """
    rng = random.Random(seed)
    federations, all_clubs = federation_tree()
    n_clubs = clubs or max(2, min(len(all_clubs), rows // 45))
    used = sorted(rng.sample(all_clubs, n_clubs), key=lambda c: c.zps)
    result = GeneratedList(federations=list(federations), clubs=list(used))
    if pseudo_clubs:  # nu's vereine.csv lists the Landesverbände as clubs x0000
        lvs = [f for f in federations if f.code.endswith("00") and f.code != "000"]
        result.clubs += [ClubRow(0, f.code + "00", f.lv, "000", f.name) for f in lvs[:3]]
    next_number = {c.zps: 1001 for c in used}
    person = 4_000_000
    people: list[PlayerRow] = []

    def person_id() -> str | None:
        nonlocal person
        person += rng.randint(1, 40)
        return {"nu": f"NU{person}", "pkz": str(person), "none": None}[id_kind]

    def membership(club: ClubRow, base: PlayerRow | None, status: str) -> PlayerRow:
        number = next_number[club.zps]
        next_number[club.zps] += 1
        if base is not None:
            return PlayerRow(
                **{
                    **_fields(base),
                    "line": 0,
                    "zps": club.zps,
                    "member_number": f"{number:04d}",
                    "status": status,
                }
            )
        sex = "W" if rng.random() < 0.12 else "M"
        rated = rng.random() < 0.88
        dwz = rng.randint(700, 2450) if rated else None
        fide = dwz is not None and dwz > 1800 and rng.random() < 0.6
        return PlayerRow(
            line=0,
            person_id=person_id(),
            zps=club.zps,
            member_number=f"{number:04d}",
            status=status,
            surname=rng.choice(SURNAMES),
            first_name=rng.choice(FIRST_NAMES[sex]),
            sex=sex,
            birth_year=rng.randint(1935, 2018) if rng.random() < 0.98 else None,
            last_evaluation=f"{rng.randint(2015, 2026)}{rng.randint(1, 52):02d}" if rated else "",
            dwz=dwz,
            index=rng.randint(1, 120) if rated else None,
            fide_elo=(dwz or 0) + rng.randint(-80, 80) if fide else None,
            fide_title=rng.choice(["", "", "", "CM", "FM", "IM"]) if fide else "",
            fide_id=rng.randint(4_600_000, 16_000_000) if fide or rng.random() < 0.1 else None,
            fide_federation="GER" if fide or rng.random() < 0.1 else "",
        )

    while len(people) < rows:
        club = used[len(people) % len(used)] if len(people) < len(used) else rng.choice(used)
        row = membership(club, None, "A" if rng.random() < 0.9 else "P")
        people.append(row)
        if rng.random() < 0.03 and len(people) < rows:  # a second club, usually passive
            other = rng.choice([c for c in used if c.zps != club.zps])
            people.append(membership(other, row, "P" if rng.random() < 0.8 else "A"))
    # The cases formats.md §3.7 asks for, at fixed places (overwriting generated rows).
    special = _specials(rng, used, id_kind, person_id)
    people[: len(special)] = special
    rng.shuffle(people)
    people.sort(key=lambda r: (r.zps, r.member_number or "0000"))
    result.players = people[:rows] if rows >= 20 else people
    return result


def _fields(row: PlayerRow) -> dict:
    return {name: getattr(row, name) for name in PlayerRow.__slots__}


def _specials(rng, used, id_kind, person_id) -> list[PlayerRow]:
    a, b = used[0], used[1]
    first = person_id()
    base = {"line": 0, "sex": "M", "eligibility": "", "fide_title": "", "fide_federation": ""}
    return [
        # one person, two memberships: active in one club, passive in the other
        PlayerRow(
            **base,
            person_id=first,
            zps=a.zps,
            member_number="0901",
            status="A",
            surname="Muster",
            first_name="Max",
            birth_year=1963,
            last_evaluation="202611",
            dwz=1802,
            index=45,
            fide_elo=1850,
            fide_id=4711,
        ),
        PlayerRow(
            **base,
            person_id=first,
            zps=b.zps,
            member_number="0902",
            status="P",
            surname="Muster",
            first_name="Max",
            birth_year=1963,
            last_evaluation="202611",
            dwz=1802,
            index=45,
            fide_elo=1850,
            fide_id=4711,
        ),
        # no DWZ (0/0)
        PlayerRow(
            **{**base, "sex": "W"},
            person_id=person_id(),
            zps=a.zps,
            member_number="0903",
            status="A",
            surname="Beispiel",
            first_name="Erika",
            birth_year=2012,
        ),
        # member numbers 0000 and 0 (nu's placeholder; club officials)
        PlayerRow(
            **base,
            person_id=person_id(),
            zps=a.zps,
            member_number=None,
            status="A",
            surname="Weiß",
            first_name="Jürgen",
            birth_year=1970,
            dwz=1500,
            index=12,
        ),
        PlayerRow(
            **base,
            person_id=person_id(),
            zps=b.zps,
            member_number=None,
            status="P",
            surname="Groß",
            first_name="Björn",
            birth_year=1958,
        ),
        # a name with an academic title as third part
        PlayerRow(
            **base,
            person_id=person_id(),
            zps=b.zps,
            member_number="0904",
            status="A",
            surname="Schröder",
            first_name="Hans-Peter",
            academic_title="Dr.",
            birth_year=1949,
            last_evaluation="201907",
            dwz=1951,
            index=88,
        ),
    ]


BOMB_HEADER = (
    b'ID,ZPS,Mitgliedsnummer,Status,"Name,Vorname",Geschlecht,Spielberechtigung,Geburtsjahr,'
    b'"Letzte Auswertung",DWZ,Index,FIDE-Elozahl,FIDE-Titel,FIDE-ID,FIDE-Land,Vorname,Nachname\r\n'
)
BOMB_LINE = b'NU1,C0505,1043,A,"Muster,Max",M,,1963,,1500,45,,,,,Max,Muster\r\n'


def bomb(megabytes: int, *, line: bytes = BOMB_LINE, name: str = "spieler.csv") -> bytes:
    """A zip bomb: a player file of ``megabytes`` MB of one repeated row (200 MB pack into some 600 kB)."""
    buffer = io.BytesIO()
    chunk = line * (2**20 // len(line))
    with (
        zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive,
        archive.open(name, "w", force_zip64=True) as member,
    ):
        member.write(BOMB_HEADER)
        for _ in range(megabytes):
            member.write(chunk)
    return buffer.getvalue()
