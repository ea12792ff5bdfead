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
