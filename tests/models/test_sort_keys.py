"""The stored DIN 5007 sort keys (ratings.models.search_keys.SortKeyField): set by every save of a name, by
``bulk_create``, by a save naming only the name in ``update_fields``, by the migration for the rows there."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection

from ratings.folding import name_sort_key
from ratings.models import Club, Player
from tests.factories import ClubFactory, OrganisationFactory

pytestmark = pytest.mark.django_db


def _stored(model, pk):
    return model.objects.values_list("name_sort", flat=True).get(pk=pk)


def test_a_save_writes_the_key_of_the_name():
    player = Player.objects.create(key="K1", surname="Schäfer", first_name="Jürgen")
    assert _stored(Player, player.pk) == "schafer\x01jurgen\x01Schäfer\x01Jürgen"
    player.surname = "Strauß"
    player.save()
    assert _stored(Player, player.pk) == name_sort_key("Strauß", "Jürgen")


@pytest.mark.parametrize("field", ["surname", "first_name"])
def test_a_save_of_the_name_alone_writes_the_key_too(field):
    player = Player.objects.create(key="K1", surname="Muller", first_name="Hans")
    setattr(player, field, "Öztürk")
    player.save(update_fields=[field])
    player.refresh_from_db()
    assert player.name_sort == name_sort_key(player.surname, player.first_name)
    player.birth_year = 1990
    player.save(update_fields=["birth_year"])  # a save of other fields leaves the key alone
    assert _stored(Player, player.pk) == name_sort_key(player.surname, player.first_name)


def test_bulk_create_writes_the_keys():
    Player.objects.bulk_create(
        [Player(key="A", surname="Ärger"), Player(key="B", surname="Zander", first_name="Ö")]
    )
    assert dict(Player.objects.values_list("key", "name_sort")) == {
        "A": name_sort_key("Ärger", ""),
        "B": name_sort_key("Zander", "Ö"),
    }
    club = ClubFactory(name="SK Ödland")
    club.name = "SG Überlingen"
    club.save(update_fields=["name"])
    assert _stored(Club, club.pk) == "sg uberlingen\x01SG Überlingen"


def test_the_migration_fills_the_keys_of_the_rows_there():
    Player.objects.create(key="K1", surname="Öztürk", first_name="Ümit")
    ClubFactory(name="Schachfreunde Ärger", organisation=OrganisationFactory(code="C05", name="Bezirk"))
    Player.objects.update(name_sort="")
    Club.objects.update(name_sort="")
    migration = importlib.import_module("ratings.migrations.0007_name_sort")
    migration.fill_keys(apps, SimpleNamespace(connection=connection))
    assert list(Player.objects.values_list("name_sort", flat=True)) == [name_sort_key("Öztürk", "Ümit")]
    assert list(Club.objects.values_list("name_sort", flat=True)) == [name_sort_key("Schachfreunde Ärger")]


def test_the_key_compares_by_code_point_on_either_database():
    """PostgreSQL compares the column by code point (``COLLATE "C"``) whatever the database's locale; SQLite
    by its ``BINARY`` default: the same order as Python's ``str``."""
    names = [("zeta", ""), ("Zeta", ""), ("a b", ""), ("a-b", ""), ("ab", ""), ("a'b", ""), ("Ab", "")]
    for n, (surname, first) in enumerate(names):
        Player.objects.create(key=f"K{n}", surname=surname, first_name=first)
    in_python = sorted(names, key=lambda n: name_sort_key(*n))
    assert list(Player.objects.order_by("name_sort").values_list("surname", "first_name")) == in_python
