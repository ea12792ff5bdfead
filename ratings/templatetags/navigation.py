"""Navigation helpers for the base layout."""

from django import template
from django.urls import NoReverseMatch, reverse

register = template.Library()


@register.simple_tag
def nav_url(name: str, section: str) -> str:
    """The URL of a section's page, or its "coming soon" placeholder while the section is not built."""
    try:
        return reverse(name)
    except NoReverseMatch:
        return reverse("ratings:coming-soon", args=[section])
