"""Path converters: each matches exactly the values its model allows, so anything else (a NUL byte, a slash,
non-ASCII text) is a 404 before a view or the database sees it."""

from django.urls import register_converter

from ratings.models.player import PLAYER_KEY_PATTERN


class _Converter:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class PlayerKeyConverter(_Converter):
    regex = PLAYER_KEY_PATTERN


class ZpsConverter(_Converter):
    # Club ZPS/VKZ; lower case is found too (the selectors compare upper case).
    regex = r"[0-9A-Za-z]{5}"


class OrganisationCodeConverter(_Converter):
    regex = r"[0-9A-Za-z]{3}"


class TokenConverter(_Converter):
    # secrets.token_urlsafe
    regex = r"[0-9A-Za-z_-]{1,64}"


def register() -> None:
    register_converter(PlayerKeyConverter, "player_key")
    register_converter(ZpsConverter, "zps")
    register_converter(OrganisationCodeConverter, "org_code")
    register_converter(TokenConverter, "token")
