"""django-tables2 tables of the public pages. Display only: the selectors (ratings/selectors/) annotate."""

from __future__ import annotations

import datetime
import html
import operator
from collections.abc import Callable, Iterator
from typing import Any

import django_tables2 as tables
from django.conf import settings
from django.template.loader import get_template
from django.utils.encoding import force_str
from django.utils.formats import date_format, localize
from django.utils.hashable import make_hashable
from django.utils.html import conditional_escape, format_html
from django.utils.http import urlencode
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_tables2.rows import BoundRows
from django_tables2.templatetags.django_tables2 import table_page_range
from django_tables2.utils import Accessor, AttributeDict, signature

from ratings.age_classes import public_birth_year
from ratings.models.player import HIDDEN_NAME
from ratings.selectors import lists
from ratings.web import links


def _dwz_index(record) -> str:
    if record.dwz is None:
        return ""
    return f"{record.dwz}-{record.index}" if record.index is not None else str(record.dwz)


NUM = {"td": {"class": "num"}, "th": {"class": "num"}}
# Secondary columns give way on phones, so that name and DWZ-Index stay in view.
WIDE = {"td": {"class": "d-none d-md-table-cell"}, "th": {"class": "d-none d-md-table-cell"}}
NUM_WIDE = {"td": {"class": "num d-none d-lg-table-cell"}, "th": {"class": "num d-none d-lg-table-cell"}}


class LeanTable(tables.Table):
    """A django-tables2 table (sorting, paging, header, exports) whose body rows are rendered in Python
    (``body_html``): the generic template spent ~2 ms a row resolving every cell's value, attributes and
    render method through template variables and signature inspection.

    The cells are the same as django-tables2's: the accessor's value (``get_FOO_display`` for a field with
    choices), the column's default for empty values, ``render_FOO`` or the column's ``render``, its link,
    then localised and escaped as ``{{ cell }}`` would be. Cell attributes are computed once per column, so
    they must not depend on the record (no callables in ``attrs["td"]``)."""

    class Meta:
        template_name = "ratings/public/_table.html"

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # ``_table_block.html`` boosts the sort and page links to swap only the table; the rows' links lead
        # to other pages (a card, a club), which must load whole.
        self.attrs["tbody"].setdefault("hx-boost", "false")

    def lean_html(self) -> str:
        """The whole table as django-tables2's ``bootstrap5-responsive.html`` renders it (the same elements,
        attributes and text; no blank lines): header with sort links, body, paging links. The template's
        querystring and paging tags cost more than the 50 rows."""
        if self.has_footer():  # no public table has one; the stock template knows how to draw it
            return get_template("django_tables2/bootstrap5-responsive.html").render(
                {"table": self}, self.request
            )
        query = dict(self.request.GET)

        def href(key: str, value: Any) -> str:
            return html.escape("?" + urlencode({**query, key: value}, doseq=True))

        head = ""
        if self.show_header:
            cells = []
            for column in self.columns:
                header: str = conditional_escape(column.header)
                if column.orderable:
                    link = href(self.prefixed_order_by_field, column.order_by_alias.next)
                    header = f'<a href="{link}">{header}</a>'
                cells.append(f'<th {column.attrs["th"].as_html()} scope="col">{header}</th>')
            thead_attrs = self.attrs.get("thead", AttributeDict()).as_html()
            head = f"<thead {thead_attrs}><tr>{''.join(cells)}</tr></thead>"
        table_attrs = AttributeDict({"class": "table", **self.attrs}).as_html()
        tbody_attrs = self.attrs.get("tbody", AttributeDict()).as_html()
        return mark_safe(  # noqa: S308 (escaped above; the body by ``body_html``)
            f'<div class="table-container table-responsive"><table {table_attrs}>{head}'
            f"<tbody {tbody_attrs}>\n{self.body_html()}\n</tbody></table>{self._paging_html(href)}</div>"
        )

    def _paging_html(self, href: Callable[[str, Any], str]) -> str:
        page = getattr(self, "page", None)
        if not page or self.paginator.num_pages <= 1:
            return ""
        key = self.prefixed_page_field
        items = []
        if page.has_previous():
            link = href(key, page.previous_page_number())
            items.append(
                f'<li class="previous page-item"><a href="{link}" class="page-link">'
                f'<span aria-hidden="true">&laquo;</span> {html.escape(gettext("previous"))}</a></li>'
            )
        if page.has_previous() or page.has_next():
            for number in table_page_range(page, self.paginator):
                active = " active" if number == page.number else ""
                link = f'href="{href(key, number)}"' if number != "..." else ""
                items.append(f'<li class="page-item{active}"><a class="page-link" {link}>{number}</a></li>')
        if page.has_next():
            link = href(key, page.next_page_number())
            items.append(
                f'<li class="next page-item"><a href="{link}" class="page-link">'
                f'{html.escape(gettext("next"))} <span aria-hidden="true">&raquo;</span></a></li>'
            )
        return (
            '<nav aria-label="Table navigation"><ul class="pagination justify-content-center">'
            f"{''.join(items)}</ul></nav>"
        )

    def body_html(self) -> SafeString:
        columns = [self._cell_renderer(column) for column in self.columns]
        if not columns:
            return mark_safe("")
        out: list[str] = []
        plain_rows = not self.row_attrs  # then a row's attributes are its even/odd class alone
        for row in self.paginated_rows:
            cells = "".join([f"<td {attrs}>{render(row)}</td>" for attrs, render in columns])
            attrs = f'class="{row.get_even_odd_css_class()}"' if plain_rows else row.attrs.as_html()
            out.append(f"<tr {attrs}>{cells}</tr>")
        if not out and self.empty_text:
            out.append(f'<tr><td colspan="{len(columns)}">{conditional_escape(self.empty_text)}</td></tr>')
        return mark_safe("\n".join(out))  # noqa: S308 (every cell escaped by ``cell``, attributes by as_html)

    def _cell_renderer(self, bound_column) -> tuple[str, Callable[[Any], str]]:  # noqa: C901 -- existing; issue 27
        """The column's ``<td>`` attributes and a function from a bound row to the cell's escaped HTML."""
        column = bound_column.column
        accessor = Accessor(bound_column.accessor)
        model = getattr(self.data, "model", None)
        field = accessor.get_field(model) if model is not None else None
        labels = (
            dict(make_hashable(field.flatchoices))
            if field is not None and getattr(field, "choices", None)
            else None
        )
        default = bound_column.default
        render = bound_column.render
        args, catch_all = signature(render)
        link = bound_column.link
        localise = column.localize

        bits = accessor.bits
        plain_ints = not settings.USE_THOUSAND_SEPARATOR  # then an int localises to str(int)

        def value_of(record):
            current = record
            for bit in bits:
                # Attributes of model instances first: django-tables2 tries a dictionary lookup before each
                # (a raised exception per cell); anything else takes its full path.
                try:
                    if isinstance(current, dict):
                        raise AttributeError(bit)
                    current = getattr(current, bit)
                except AttributeError:
                    try:
                        return accessor.resolve(record)
                    except Exception:  # as django-tables2: a column without a field of its own
                        return None
                if callable(current):
                    return accessor.resolve(record)
                if current is None:
                    break
            if labels is not None and current is not None:
                # get_FOO_display(), without building the dictionary of choices again for every cell
                return force_str(labels.get(make_hashable(current), current), strings_only=True)
            return current

        def cell(row) -> str:
            record = row.record
            value = value_of(record)
            if value in column.empty_values:
                content = default
            else:
                available = {
                    "value": value,
                    "record": record,
                    "column": column,
                    "bound_column": bound_column,
                    "bound_row": row,
                    "table": self,
                }
                if catch_all:
                    kwargs = available
                elif all(a in available for a in args):
                    kwargs = {a: available[a] for a in args}
                else:
                    kwargs = None
                content = None if kwargs is None else render(**kwargs)
                if link:
                    content = link(content, **available)
            if isinstance(content, str):
                return content.__html__() if hasattr(content, "__html__") else html.escape(content)
            if plain_ints and type(content) is int and localise is not False:
                return str(content)
            if localise is None:
                content = localize(content)
            elif localise:
                content = localize(content, use_l10n=True)
            else:
                content = str(content)
            return conditional_escape(content)

        return bound_column.attrs["td"].as_html(), cell


def _this_year() -> int:
    return datetime.date.today().year


class _Private:
    """The export rows' personal cells as public pages show them (issue 30 §4): a player who objected to
    publication without name, birth year and FIDE data; the age class instead of the birth year under 18.
    Rows of others pass unchanged (one comparison each: a federation's list has a million)."""

    HIDDEN_FIELDS = (
        "surname",
        "first_name",
        "birth_year",
        "fide_elo",
        "fide_title",
        "fide_id",
        "fide_federation",
    )

    def __init__(self, fields: list[str]) -> None:
        self.flag = fields.index("publication_objection")
        self.hidden = [i for i, f in enumerate(fields) if f in self.HIDDEN_FIELDS]
        self.birth = fields.index("birth_year") if "birth_year" in fields else None
        self.year = _this_year()
        self.youngest_shown = self.year - 18  # born in or before it: 18 or older this year

    def mask(self, row: tuple) -> tuple:
        birth = row[self.birth] if self.birth is not None else None
        if not row[self.flag] and (birth is None or birth <= self.youngest_shown):
            return row
        cells = list(row)
        if row[self.flag]:
            for i in self.hidden:
                cells[i] = None
            cells[1] = str(HIDDEN_NAME)
        elif self.birth is not None:
            cells[self.birth] = public_birth_year(birth, year=self.year)
        return tuple(cells)


class RatingListTable(LeanTable):
    """The DWZ list (Ranglisten, club and organisation members)."""

    # The rank by DWZ among the filtered rows, asked for the page's rows only (see ``paginate``).
    rank = tables.Column(
        verbose_name=_("Rang"),
        orderable=False,
        default="",
        attrs={"td": {"class": "num"}, "th": {"class": "num"}},
    )
    name = tables.Column(
        verbose_name=_("Name"),
        accessor="surname",
        # DIN 5007 (ratings.folding.name_sort_key); a player who objected to publication sorts at one end,
        # not at his name's place (issue 30 §4).
        order_by=("publication_objection", "name_sort", "pk"),
        attrs={"td": {"class": "name"}},
    )
    club = tables.Column(
        verbose_name=_("Verein"), accessor="club_name", order_by=("club_sort", "name_sort", "pk"), attrs=WIDE
    )
    birth_year = tables.Column(verbose_name=_("Jahrgang"), attrs=NUM_WIDE)
    dwz = tables.Column(
        verbose_name=_("DWZ-Index"),
        order_by=("dwz_sort", "name_sort", "pk"),
        attrs={"td": {"class": "num"}, "th": {"class": "num"}},
        exclude_from_export=True,
    )
    # Exports only: DWZ and Index as numbers of their own (a spreadsheet cannot sort "1802-45").
    dwz_value = tables.Column(verbose_name=_("DWZ"), accessor="dwz", visible=False)
    index = tables.Column(verbose_name=_("Index"), visible=False)
    fide_elo = tables.Column(verbose_name=_("Elo"), order_by=("elo_sort", "name_sort", "pk"), attrs=NUM_WIDE)
    fide_title = tables.Column(verbose_name=_("Titel"), attrs=WIDE)
    fide_id = tables.Column(verbose_name=_("FIDE-ID"), visible=False)
    fide_federation = tables.Column(verbose_name=_("FIDE-Land"), visible=False)
    last_evaluated = tables.Column(
        verbose_name=_("Letzte Auswertung"), order_by=("last_sort", "name_sort", "pk"), attrs=NUM_WIDE
    )

    class Meta(LeanTable.Meta):
        attrs = {
            "class": "table table-sm table-striped table-hover align-middle table-dwz",
            "id": "rating-table",
        }
        per_page = 50
        empty_text = _("Keine Spieler gefunden.")

    # The Stichtag of the rows' values (``lists.as_of``; None: today), kept in the links to cards and clubs.
    stichtag = None

    def __init__(self, *args: Any, stichtag=None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stichtag = stichtag

    def _keep_stichtag(self, url: str) -> str:
        return f"{url}?{urlencode({'stichtag': self.stichtag.isoformat()})}" if self.stichtag else url

    def paginate(self, *args, **kwargs):
        """The page, then its rows' primary clubs and ranks: two queries for the page's rows alone (and their
        last evaluations at a Stichtag)."""
        super().paginate(*args, **kwargs)
        ranked = "rank" not in (self.exclude or ())
        known: dict[int, int] | None = None if ranked else {}
        if self.stichtag is not None:
            # The page's players first, then their rows (``lists.page_records``); in the order of DWZ their
            # ranks from their place.
            sliced = self.page.object_list.data
            records = lists.page_records(sliced)
            self.page.object_list = BoundRows(data=records, table=self)
            if ranked:
                known = lists.page_ranks(sliced, records)
            lists.stichtag_rows(records, stichtag=self.stichtag)
        else:
            records = [row.record for row in self.page.object_list]
        clubs = lists.primary_clubs(player_ids=[r.pk for r in records])
        ranks = (
            known if known is not None else lists.ranks(self.data.data, dwz_values=[r.dwz for r in records])
        )
        for record in records:
            record.club_name, record.club_zps, record.member_number = clubs.get(record.pk, (None, None, None))
            record.rank = ranks.get(record.dwz)

    # HTML
    def render_name(self, record):
        if record.publication_objection:  # issue 30 §4: neither his name nor a link to it
            return record.public_name
        url = self._keep_stichtag(links.url("ratings:player-detail", record.key))
        return format_html('<a href="{}">{}</a>', url, record.name)

    def render_birth_year(self, value, record):
        return "" if record.publication_objection else public_birth_year(value, year=_this_year())

    def _private(self, value, record):
        return "" if record.publication_objection else value

    render_fide_elo = render_fide_title = render_fide_id = render_fide_federation = _private

    def render_club(self, value, record):
        if not value:
            return "—"
        url = self._keep_stichtag(links.url("ratings:club-detail", record.club_zps))
        return format_html('<a href="{}">{}</a>', url, value)

    def render_dwz(self, record):
        return _dwz_index(record)

    def render_last_evaluated(self, value):
        return date_format(value, "SHORT_DATE_FORMAT")

    # Export (plain values)
    def value_name(self, record):
        return record.public_name

    def value_club(self, value):
        return value or ""

    def value_dwz_value(self, value):
        return "" if value is None else value

    def value_index(self, value):
        return "" if value is None else value

    def value_fide_id(self, value):
        return "" if value is None else value

    def value_last_evaluated(self, value):
        return value.isoformat() if value else ""

    def export_rows(self) -> tuple[list[str], Iterator[list[Any]]]:
        """The export's header and rows as the ``value_*`` methods give them, read with ``values_list`` in
        chunks (a whole federation's list: no model instances, no per-cell rendering)."""
        columns = [c for c in self.columns.iterall() if not c.column.exclude_from_export]
        names = {c.name for c in columns}
        queryset = self.data.data
        fields = ["pk", "surname", "first_name", "dwz", "publication_objection"]
        fields += [
            str(c.accessor)
            for c in columns
            if c.name not in ("rank", "club") and str(c.accessor) not in fields
        ]
        if self.stichtag is not None:
            return [str(c.header) for c in columns], self._stichtag_rows(queryset, fields, columns)
        ranks = lists.ranks(queryset) if "rank" in names else {}
        primary = lists.primary_clubs(player_ids=None) if "club" in names else {}
        clubs = {pk: club[0] for pk, club in primary.items()}
        last = fields.index("last_evaluated") if "last_evaluated" in fields else None
        # Each row as the database's values followed by the four computed ones, then the columns picked from
        # that by position (one tuple per row, no function per cell: a federation's list has a million).
        computed = {"rank": 0, "club": 1, "name": 2, "last_evaluated": 3}
        positions = [
            len(fields) + computed[c.name] if c.name in computed else fields.index(str(c.accessor))
            for c in columns
        ]
        pick = operator.itemgetter(*positions) if len(positions) > 1 else (lambda row: (row[positions[0]],))

        private = _Private(fields)

        def values(rows: Iterator[tuple]) -> Iterator[list[Any]]:
            for stored in rows:
                row = private.mask(stored)
                full = (
                    *row,
                    ranks.get(row[3], ""),
                    clubs.get(row[0], ""),
                    f"{row[1]}, {row[2]}" if row[2] else row[1],
                    (row[last] or "") if last is not None else "",  # a date: XLSX date cell, CSV ISO text
                )
                yield ["" if v is None else v for v in pick(full)]

        rows = queryset.values_list(*fields).iterator(chunk_size=2000)
        return [str(c.header) for c in columns], values(rows)

    def _stichtag_rows(self, queryset, fields: list[str], columns) -> Iterator[list[Any]]:
        """``export_rows`` at the table's Stichtag: the day's DWZ, index and last evaluation in place of the
        stored ones (the same cells, from ``stichtag_value`` and ``stichtag_last``)."""
        assert self.stichtag is not None
        names = {c.name for c in columns}
        day_fields = [f for f in fields if f not in ("dwz", "index", "last_evaluated")]
        ranks = lists.ranks(queryset) if "rank" in names else {}
        primary = lists.primary_clubs(player_ids=None) if "club" in names else {}
        private = _Private([*day_fields, lists.STICHTAG_VALUE, lists.STICHTAG_LAST])
        for stored in lists.stichtag_export_rows(queryset, day_fields):
            row = private.mask(stored)
            values = dict(zip(day_fields, row, strict=False))
            dwz, index = lists.split_stichtag_value(row[-2])
            day = row[-1]
            values.update(dwz=dwz, index=index, last_evaluated=day.isoformat() if day else "")
            computed = {
                "rank": ranks.get(dwz, "") if dwz is not None else "",
                "club": primary.get(values["pk"], ("",))[0],
                "name": f"{values['surname']}, {values['first_name']}"
                if values["first_name"]
                else values["surname"],
                "last_evaluated": values["last_evaluated"],
            }
            cells = [computed[c.name] if c.name in computed else values[str(c.accessor)] for c in columns]
            yield ["" if v is None else v for v in cells]


class ClubMembersTable(RatingListTable):
    """A club's members: the member number instead of the club."""

    club_member_number = tables.Column(
        verbose_name=_("Mitgl.-Nr."), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )

    class Meta(RatingListTable.Meta):
        exclude = ("club",)
        sequence = ("rank", "name", "club_member_number", "...")


class PlayerSearchTable(RatingListTable):
    """Search results: the rating list's columns without the rank."""

    class Meta(RatingListTable.Meta):
        exclude = ("rank",)
        order_by = ("name",)
        attrs = {
            "class": "table table-sm table-striped table-hover align-middle table-dwz",
            "id": "player-table",
        }


class ClubTable(LeanTable):
    zps = tables.Column(verbose_name=_("ZPS"))
    name = tables.Column(
        verbose_name=_("Verein"), order_by=("name_sort", "zps"), attrs={"td": {"class": "name"}}
    )
    # On a phone the federation gives way (the filter above names it): ZPS, club and members fit 390 px.
    organisation = tables.Column(verbose_name=_("Verband"), accessor="organisation__name", attrs=WIDE)
    members = tables.Column(
        verbose_name=_("Mitglieder"), attrs={"td": {"class": "num"}, "th": {"class": "num"}}
    )

    class Meta(LeanTable.Meta):
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "club-table"}
        per_page = 50
        empty_text = _("Keine Vereine gefunden.")

    def render_name(self, record):
        return format_html('<a href="{}">{}</a>', links.url("ratings:club-detail", record.zps), record.name)

    def render_organisation(self, record):
        org = record.organisation
        return format_html(
            '<a href="{}">{}</a>', links.url("ratings:organisation-detail", org.code), org.name
        )


class TournamentTable(LeanTable):
    end_date = tables.Column(verbose_name=_("Ende"), attrs={"td": {"class": "num"}})
    code = tables.Column(verbose_name=_("Turniercode"), default="—")
    name = tables.Column(verbose_name=_("Turnier"), attrs={"td": {"class": "name"}})
    place = tables.Column(verbose_name=_("Ort"), default="")
    players = tables.Column(verbose_name=_("Spieler"), attrs={"td": {"class": "num"}, "th": {"class": "num"}})

    class Meta(LeanTable.Meta):
        attrs = {"class": "table table-sm table-striped table-hover align-middle", "id": "tournament-table"}
        per_page = 50
        empty_text = _("Keine Turniere gefunden.")
        order_by = ("-end_date",)

    def render_end_date(self, value):
        return date_format(value, "SHORT_DATE_FORMAT")

    def render_name(self, record):
        url = links.url("ratings:tournament-detail", record.pk)
        return format_html('<a href="{}">{}</a>', url, record.name)
