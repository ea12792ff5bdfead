"""The name folds of ratings.folding: the DIN 5007 sort key (ä = a, ß = ss, case and accents folded)."""

import unicodedata

from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.folding import SORT_FOLDS, SORT_SEPARATOR, name_sort_key, sort_key
from tests.conftest import examples


def test_sort_key_folds_umlauts_sharp_s_case_and_accents():
    assert sort_key("Schäfer") == "schafer"
    assert sort_key("ÖZTÜRK") == "ozturk"
    assert sort_key("Strauß") == sort_key("STRAUẞ") == "strauss"
    assert sort_key("Łukasz Dvořák Ştefan Ærø Œuvre") == "lukasz dvorak stefan aero oeuvre"
    assert sort_key("d'Agostino") == "d'agostino"
    assert sort_key("Mueller") == "mueller"  # variant 1: the spelling as it stands


def test_din_5007_order():
    names = ["Schumacher", "Zander", "Schulze", "Strauß", "Öztürk", "Ostermann", "Schäfer", "Ärger", "Abel"]
    assert sorted(names, key=sort_key) == [
        "Abel",
        "Ärger",
        "Ostermann",
        "Öztürk",
        "Schäfer",
        "Schulze",
        "Schumacher",
        "Strauß",
        "Zander",
    ]


def test_names_folding_alike_keep_one_order():
    names = [
        ("muller", "Hans"),
        ("Müller", "Hans"),
        ("Muller", "Hans"),
        ("Müller", "Anna"),
        ("Mueller", "Zoe"),
    ]
    ordered = sorted(names, key=lambda n: name_sort_key(*n))
    # The folded names first (Müller, Anna before any Hans), then the spelling by code point.
    assert ordered == [
        ("Mueller", "Zoe"),
        ("Müller", "Anna"),
        ("Muller", "Hans"),
        ("Müller", "Hans"),
        ("muller", "Hans"),
    ]


def test_every_fold_is_lower_case_ascii_letters():
    assert all(v.isascii() and v.isalpha() and v.islower() for v in SORT_FOLDS.values())
    # Every Latin-1 and Latin Extended-A letter is in the table (× and ÷ are no letters).
    letters = [chr(c) for c in range(0xC0, 0x180) if unicodedata.category(chr(c)).startswith("L")]
    assert set(letters) <= SORT_FOLDS.keys()


@given(st.text(max_size=30), st.text(max_size=30))
@settings(max_examples=examples(200))
def test_the_separator_sorts_the_surname_first(a, b):
    """A shorter surname sorts before a longer one it begins (Berg < Bergmann), whatever the first names."""
    a, b = a.replace(SORT_SEPARATOR, ""), b.replace(SORT_SEPARATOR, "")
    assert name_sort_key("Berg", a) < name_sort_key("Bergmann", b)
