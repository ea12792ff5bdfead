"""Locale smoke test (djangoproject.com style): each language renders one translated string."""

import pytest
from django.utils import translation
from django.utils.translation import gettext


@pytest.mark.parametrize(
    ("language", "expected"),
    [("de", "Die DWZ für Vereine und Verbände"), ("en", "DWZ for clubs and federations")],
)
def test_translation_catalogue_is_compiled(language, expected):
    with translation.override(language):
        assert gettext("Die DWZ für Vereine und Verbände") == expected


def test_english_catalogue_is_complete():
    """Every German msgid has an English translation that keeps its named placeholders."""
    import re
    from pathlib import Path

    import polib

    placeholders = re.compile(r"%\((\w+)\)")
    po = polib.pofile(str(Path(__file__).resolve().parents[2] / "locale/en/LC_MESSAGES/django.po"))
    assert [entry.msgid for entry in po.untranslated_entries()] == []
    assert [entry.msgid for entry in po.fuzzy_entries()] == []
    for entry in po.translated_entries():
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            source = entry.msgid + entry.msgid_plural
            assert set(placeholders.findall(text)) <= set(placeholders.findall(source))
            if not entry.msgid_plural:
                assert set(placeholders.findall(text)) == set(placeholders.findall(entry.msgid)), entry.msgid


@pytest.mark.parametrize("language", ["de", "en"])
def test_catalogue_entries_each_have_a_msgstr(language):
    """A union merge of .po files can leave a msgid without its msgstr: polib reads past it, msgfmt fails."""
    from pathlib import Path

    catalogue = Path(__file__).resolve().parents[2] / f"locale/{language}/LC_MESSAGES/django.po"
    text = catalogue.read_text("utf-8")
    expecting_msgstr = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(("msgid ", "#")) and expecting_msgstr and not line.startswith("msgid_plural"):
            raise AssertionError(f"line {number}: msgid without msgstr before it")
        if line.startswith("msgid "):
            expecting_msgstr = True
        elif line.startswith("msgstr"):
            expecting_msgstr = False
