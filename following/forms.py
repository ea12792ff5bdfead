"""The follow form: an address, and a field people never see (bots fill it in)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _


class FollowForm(forms.Form):
    email = forms.EmailField(
        label=_("Ihre E-Mail-Adresse"),
        max_length=254,
        help_text=_(
            "Sie bekommen zuerst eine Mail mit einem Link zum Bestätigen. Die Adresse zeigen wir nie an."
        ),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    # The honeypot: hidden from people (CSS and aria-hidden); a filled one is dropped without a word.
    website = forms.CharField(required=False, label=_("Webseite"), max_length=200)
