"""``{% load drafts %}{% if tournament.pk|has_draft %}``: the pages that show the stored state point to a
tournament's unevaluated draft."""

from django import template

from ratings.selectors.drafts import has_draft

register = template.Library()


@register.filter(name="has_draft")
def has_draft_filter(tournament_id) -> bool:
    return bool(tournament_id) and has_draft(tournament_id=tournament_id)
