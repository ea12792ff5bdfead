"""A zip bomb is refused before it fills memory: the unpacked size and the packing ratio of a DSB list."""

from __future__ import annotations

import io
import struct
import tracemalloc
import zipfile

import pytest

from ratings.formats.dsb_list import Limits, ListError, read_list, read_list_bytes
from tests.dsb_lists import BOMB_HEADER, BOMB_LINE, bomb, generate

HEADER, LINE = BOMB_HEADER, BOMB_LINE
MB = 1024 * 1024


def test_a_bomb_is_refused_unopened_naming_the_member_and_the_limit():
    data = bomb(200)
    assert len(data) < MB
    tracemalloc.start()
    try:
        with pytest.raises(ListError) as error:
            read_list_bytes(data, "LV-0-csv.zip")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "spieler.csv in LV-0-csv.zip ist entpackt größer als erlaubt (höchstens 64 MB" in str(error.value)
    assert peak < 10 * MB  # unpacked it was 200 MB (and 7.5 GB once parsed)


def test_a_member_packed_tighter_than_the_ratio_is_refused_below_the_size_limit():
    data = bomb(4, line=b"\r\n")  # 4 MB of blank lines pack a thousand times
    with pytest.raises(ListError, match=r"spieler\.csv in x\.zip ist mehr als 50-fach gepackt"):
        read_list_bytes(data, "x.zip")
    assert read_list_bytes(data, "x.zip", limits=Limits(ratio=10_000)).players == []


def test_a_small_member_may_pack_at_any_ratio():
    data = HEADER + LINE + b"\r\n" * 500_000  # 1 MB of blank lines
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("spieler.csv", data)
    assert len(buffer.getvalue()) * 500 < len(data)
    assert len(read_list_bytes(buffer.getvalue(), "x.zip").players) == 1


def test_the_limit_counts_the_list_files_together():
    data = generate(3000, seed=1).zip_bytes()  # spieler.csv 253 kB, vereine.csv 3 kB, verbaende.csv 6 kB
    assert len(read_list_bytes(data, "x.zip", limits=Limits(uncompressed=262_000)).players) == 3000
    with pytest.raises(ListError, match=r"in x\.zip ist entpackt größer als erlaubt \(höchstens 0,2 MB"):
        read_list_bytes(data, "x.zip", limits=Limits(uncompressed=256_000))


def test_a_plain_player_file_larger_than_the_limit_is_refused(tmp_path):
    text = HEADER + LINE * 2000  # 130 kB
    limits = Limits(uncompressed=100_000)
    with pytest.raises(ListError, match=r"spieler\.csv ist größer als erlaubt \(höchstens 0,1 MB\)"):
        read_list_bytes(text, "spieler.csv", limits=limits)
    (tmp_path / "spieler.csv").write_bytes(text)
    with pytest.raises(ListError, match=r"spieler\.csv ist größer als erlaubt"):
        read_list(tmp_path / "spieler.csv", limits=limits)
    with pytest.raises(ListError, match=f"{tmp_path.name} ist größer als erlaubt"):
        read_list(tmp_path, limits=limits)
    assert read_list(tmp_path).rows == 2000


def test_a_header_that_understates_the_size_unpacks_no_further():
    """zipfile stops at the declared size (and then fails the checksum): the lie gains nothing."""
    data = bytearray(bomb(20))
    directory = data.rindex(b"PK\x01\x02")
    extra = data.index(b"\x01\x00", directory + 46)  # the zip64 field holds the real sizes
    data[extra + 4 : extra + 12] = struct.pack("<Q", 1000)
    tracemalloc.start()
    try:
        with pytest.raises(ListError, match="kein lesbares Zip-Archiv"):
            read_list_bytes(bytes(data), "x.zip")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * MB
