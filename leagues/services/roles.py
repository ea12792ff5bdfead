"""Invitations for the league's roles (spec/leagues.md §2): a director of a division, its rating officer, a
team's captain, a ranking list's club officer is named by e-mail; the user is created if needed and gets
Django's password-reset mail to set his password (as officers do). Who may invite whom:
``leagues.permissions.can_invite``."""

from __future__ import annotations

from enum import StrEnum

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.crypto import get_random_string
from django.utils.translation import gettext as _

from leagues import permissions
from leagues.models import Division, RankingList, Team


class Role(StrEnum):
    DIRECTOR = "director"  # Staffelleiter of a division
    RATING_OFFICER = "rating_officer"  # Wertungsreferent of a division
    CAPTAIN = "captain"  # Mannschaftsführer of a team
    CLUB_OFFICER = "club_officer"  # Vereinsspielleiter of a ranking list


# The model each role's target is, and the target's field naming the user.
_TARGETS: dict[Role, tuple[type[Division | Team | RankingList], str]] = {
    Role.DIRECTOR: (Division, "director"),
    Role.RATING_OFFICER: (Division, "rating_officer"),
    Role.CAPTAIN: (Team, "captain"),
    Role.CLUB_OFFICER: (RankingList, "officer"),
}


def role_invite(
    *, role: Role | str, target: Division | Team | RankingList, email: str, user, request=None
) -> object:
    """Make the user of ``email`` the ``role`` of ``target`` (a division for director and rating officer, a
    team for the captain, a ranking list for the club officer) and send him the mail to set his password.
    Raises ``PermissionDenied`` outside the inviting user's scope, ``ValidationError`` for a bad address."""
    try:
        role = Role(role)
    except ValueError:
        raise ValidationError(_("Unbekannte Rolle.")) from None
    model, field = _TARGETS[role]
    if not isinstance(target, model):
        raise ValidationError(_("Diese Rolle gibt es dafür nicht."))
    if not permissions.can_invite(user, role.value, target):
        raise PermissionDenied(_("Diese Rolle dürfen Sie hier nicht vergeben."))
    email = email.strip().lower()
    validate_email(email)
    with transaction.atomic():
        invited = _user_for(email)
        setattr(target, field, invited)
        fields = [field]
        if isinstance(target, Team):
            target.captain_email = email
            fields.append("captain_email")
        target.save(update_fields=fields)
    _send_reset_mail(email, request)
    return invited


def _user_for(email: str):
    model = get_user_model()
    found = model.objects.filter(email__iexact=email).first()
    if found is not None:
        return found
    if model.objects.filter(username=email).exists():
        raise ValidationError(_("Den Benutzernamen gibt es schon."))
    # A random password: the reset mail (which skips unusable passwords) lets him choose his own.
    return model.objects.create_user(username=email, email=email, password=get_random_string(40))


def _send_reset_mail(email: str, request) -> None:
    form = PasswordResetForm({"email": email})
    if form.is_valid():
        form.save(
            request=request,
            use_https=bool(request and request.is_secure()),
            domain_override=None if request else "localhost",
            subject_template_name="registration/password_reset_subject.txt",
            email_template_name="registration/password_reset_email.txt",
        )


def captain_invite(*, team: Team, email: str, user, request=None) -> object:
    """Make the user of ``email`` the team's captain (``role_invite`` for ``Role.CAPTAIN``)."""
    return role_invite(role=Role.CAPTAIN, target=team, email=email, user=user, request=request)
