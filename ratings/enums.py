"""Choices shared by models, services, forms and tables (no Django model imports here).

Where the engine has the enum (result codes, evaluation status, rule edition), the choices take its values,
so the two cannot drift apart; the Django side only adds the labels.
"""

from django.db import models
from django.utils.translation import gettext_lazy as _

from ratings.dwz import types as engine


class Sex(models.TextChoices):
    MALE = "m", _("männlich")
    FEMALE = "w", _("weiblich")
    DIVERSE = "d", _("divers")


class PlayerStatus(models.TextChoices):
    ACTIVE = "A", _("aktiv")
    PASSIVE = "P", _("passiv")


class FideTitle(models.TextChoices):
    GM = "GM", "GM"
    IM = "IM", "IM"
    FM = "FM", "FM"
    CM = "CM", "CM"
    WGM = "WGM", "WGM"
    WIM = "WIM", "WIM"
    WFM = "WFM", "WFM"
    WCM = "WCM", "WCM"


class ResultCode(models.TextChoices):
    """Result of one pairing. The six contract codes (spec §3) plus byes, which have no black player."""

    WHITE_WINS = engine.Result.WHITE_WINS.value, "1-0"
    BLACK_WINS = engine.Result.BLACK_WINS.value, "0-1"
    DRAW = engine.Result.DRAW.value, "½-½"
    WHITE_WINS_FORFEIT = engine.Result.WHITE_WINS_FORFEIT.value, _("+- (kampflos für Weiß)")
    BLACK_WINS_FORFEIT = engine.Result.BLACK_WINS_FORFEIT.value, _("-+ (kampflos für Schwarz)")
    DOUBLE_FORFEIT = engine.Result.DOUBLE_FORFEIT.value, _("-- (beide kampflos verloren)")
    BYE = "+", _("spielfrei (1 Punkt)")
    HALF_POINT_BYE = "H", _("Halbpunkt-Freilos")
    FULL_POINT_BYE = "F", _("Vollpunkt-Freilos")
    UNPAIRED = "U", _("nicht gepaart (0 Punkte)")
    ZERO_POINT_BYE = "Z", _("Nullpunkt-Freilos")


PLAYED_RESULTS: frozenset[str] = engine.PLAYED_RESULTS
FORFEIT_RESULTS: frozenset[str] = engine.FORFEIT_RESULTS
# Pairings with two players (these reach the engine; forfeits are dropped there).
PAIRING_RESULTS: frozenset[str] = PLAYED_RESULTS | FORFEIT_RESULTS
BYE_RESULTS: frozenset[str] = frozenset(
    {
        ResultCode.BYE,
        ResultCode.HALF_POINT_BYE,
        ResultCode.FULL_POINT_BYE,
        ResultCode.UNPAIRED,
        ResultCode.ZERO_POINT_BYE,
    }
)


class EvaluationStatus(models.TextChoices):
    RATED = engine.Status.RATED.value, _("ausgewertet")
    FIRST = engine.Status.FIRST.value, _("Erst-DWZ")
    NOT_RATED = engine.Status.NOT_RATED.value, _("nicht ausgewertet")
    NON_MEMBER = engine.Status.NON_MEMBER.value, _("Nichtmitglied")


class Edition(models.TextChoices):
    CLASSIC = engine.EditionName.CLASSIC.value, _("klassisch (bis 07.06.2026)")
    WO2026 = engine.EditionName.WO2026.value, _("WO 2026 (ab 08.06.2026)")


class RatingChangeCause(models.TextChoices):
    """What a recalculation that changed ratings was caused by (``ratings.signals.ratings_changed``)."""

    TOURNAMENT = "tournament", _("Turnier")
    ADJUSTMENT = "adjustment", _("DWZ-Korrektur")
    MERGE = "merge", _("Zusammenführung")
    LIST_IMPORT = "list_import", _("DSB-Liste")
    PLAYER = "player", _("Spielerdaten")


class AdjustmentKind(models.TextChoices):
    START = "start", _("Startwert")
    DSB_LIST = "dsb_list", _("Übernahme aus DSB-Liste")
    CORRECTION = "correction", _("Korrektur")
    PROMOTION = "promotion", _("Hochstufung")
    # dwz-rules.md §16: the DSB's one-off re-rating of every player on 2026-06-08.
    UMSTUFUNG = "umstufung", _("Umstufung 2026")
