"""``{% load recalculation %}{% recalculation_notice player=player %}`` (or ``tournament=``, or neither: any
job): "Neuberechnung läuft" on the pages whose values a background recalculation may still change."""

from django import template

from ratings.selectors.recalculation import running_recalculation

register = template.Library()


@register.inclusion_tag("ratings/_recalculation_notice.html")
def recalculation_notice(*, player=None, tournament=None) -> dict:
    if player is not None:
        return {"job": running_recalculation(player_id=player.pk)}
    if tournament is not None:
        return {"job": running_recalculation(end_date=tournament.end_date)}
    return {"job": running_recalculation()}
