"""The concurrency run of issue 26 ("Done when"): N officers at once, each logged in through the real login
form, each posting W writes through the real officer pages of a gunicorn server with production settings,
a background ``db_worker`` beside it; afterwards ``recalculate --verify`` and the audit trail are checked.

    .venv/bin/python bench/officers.py                           # 10 officers x 100 writes, PostgreSQL
    .venv/bin/python bench/officers.py --officers 3 --writes 10  # quick try-out
    .venv/bin/python bench/officers.py --db sqlite:///bench/officers.sqlite3
    .venv/bin/python bench/officers.py --keep-db --log-dir /tmp/officers # keep the database and the logs

By hand, not in CI (several minutes, it owns the whole machine's two cores for a while).

Set-up (untimed): the database named in ``--db`` is dropped and created (PostgreSQL: through the server's
``postgres`` database; SQLite: the file is removed), then ``migrate``, ``seed_demo``, ``collectstatic`` and
``--officers`` accounts ``bench-officer-N`` (password ``bench-password-N``) with an ``OfficerScope`` on the
demo's Bezirk C05, all of them the same Bezirk: every officer may edit every other officer's tournaments,
and all of them draw their players from one pool of C05 players (``--pool``), their end dates from a few
days (``--days``) that already carry demo tournaments, so same-day tournaments of shared players are the
rule. One staff account (``bench-admin``) restores deleted tournaments through the admin's audit log action
(officers have no restore page).

The run: gunicorn (``gunicorn.conf.py``, ``--workers`` processes, DEBUG off, a secret key, secure cookies off,
bound to a free port on 127.0.0.1 only) and ``manage.py db_worker``; the background threshold is lowered
(``--background-seconds``) so longer chains go to the worker. One thread per officer (``urllib`` with a
cookie jar; CSRF tokens and form fields parsed from the HTML, nothing posted that the page does not offer):
log in, then ``--writes`` writes, each one POST that saves:

* create: the head form (``/turniere/neu/``, round robin), then the grid (``…/kreuztabelle/``) with 4-6
  players of the pool and every result (a round robin is two writes); the grid's preview is posted first, as
  the page's live preview does;
* correct: one or two results of a tournament (his own mostly, one in five another officer's), mirror cell
  included;
* move: the head form with another end date from the same few days (start date the same day);
* delete: the confirmation page, then its form (with the ``version`` it was loaded at);
* restore: the admin's audit log, the "Gelöschtes Turnier wiederherstellen" action on one deleted
  tournament.

A 409 (someone else saved meanwhile), a 410 (deleted meanwhile) and a 503 (lock wait) are expected answers:
counted, the page reloaded, on to the next write. A save is *acknowledged* when its POST answers 302 (the
report) or, for a restore, when the admin shows the success message.

Afterwards: wait for every ``RecalculationJob`` to finish, run ``manage.py recalculate --verify`` (one line
per differing value), count the tournament audit rows written by the bench accounts against the acknowledged
saves. One JSON line: officers, writes attempted, the write POSTs' status codes, every request's status
codes, acknowledged saves, audit rows, verify differences, jobs (by status), seconds (the run, without
set-up and checks), ``reference_seconds`` and ``commit`` (as in ``bench/federation.py``). Exit status 1 if
any 500, any difference, audit != acknowledged or a job failed; gunicorn's and the worker's stderr are
kept in the log directory and the first traceback is printed on a 500.
"""

from __future__ import annotations

import argparse
import collections
import http.cookiejar
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from federation import commit, reference_seconds  # noqa: E402 - the shared host figures

DEFAULT_DB = "postgres://postgres@127.0.0.1:5432/dwz_officers"
BEZIRK = "C05"
ADMIN = ("bench-admin", "bench-admin-password")
# Writes an officer picks from, with weights; "create" is two writes (head, then the results).
OPERATIONS = {"create": 30, "correct": 35, "move": 15, "delete": 10, "restore": 10}
RESULTS = ("1", "0", "5")  # the grid's codes: win, loss, draw (5 = ½)
MIRROR = {"1": "0", "0": "1", "5": "5"}


CONFIRM = re.compile(r'name="save" value="(confirm:[0-9a-f]+)"')


def officer_credentials(number: int) -> tuple[str, str]:
    return f"bench-officer-{number}", f"bench-password-{number}"


# --- HTML forms ------------------------------------------------------------------------------------------


@dataclass
class Form:
    action: str
    fields: list[tuple[str, str]] = field(default_factory=list)  # successful controls, no buttons
    attrs: dict[str, str] = field(default_factory=dict)

    def value(self, name: str) -> str | None:
        return next((v for n, v in self.fields if n == name), None)

    def values(self, name: str) -> list[str]:
        return [v for n, v in self.fields if n == name]

    def replace(self, name: str, value: str) -> None:
        self.fields = [(n, value if n == name else v) for n, v in self.fields]
        if self.value(name) is None:
            self.fields.append((name, value))


class FormParser(HTMLParser):
    """The forms of a page as a browser would submit them: inputs (checked boxes only), selected options,
    textareas; submit buttons are left out (the caller names the one it presses)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[Form] = []
        self.form: Form | None = None
        self.select: str | None = None
        self.select_first: str | None = None
        self.select_chosen = False
        self.option: dict | None = None
        self.textarea: str | None = None
        self.text = ""

    def handle_starttag(self, tag: str, attrs) -> None:
        a = {k: (v or "") for k, v in attrs}
        if tag == "form":
            self.form = Form(action=a.get("action", ""), attrs=a)
            self.forms.append(self.form)
        elif self.form is None:
            return
        elif tag == "input" and a.get("name") and "disabled" not in a:
            kind = a.get("type", "text").lower()
            if kind in ("submit", "button", "image", "reset", "file"):
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                return
            self.form.fields.append((a["name"], a.get("value", "on" if kind == "checkbox" else "")))
        elif tag == "select" and a.get("name"):
            self.select, self.select_first, self.select_chosen = a["name"], None, False
        elif tag == "option" and self.select:
            self.option = a
        elif tag == "textarea" and a.get("name"):
            self.textarea, self.text = a["name"], ""

    def handle_data(self, data: str) -> None:
        if self.textarea is not None:
            self.text += data

    def handle_endtag(self, tag: str) -> None:
        if self.form is None:
            return
        if tag == "option" and self.select and self.option is not None:
            value = self.option.get("value", "")
            if self.select_first is None:
                self.select_first = value
            if "selected" in self.option and not self.select_chosen:
                self.form.fields.append((self.select, value))
                self.select_chosen = True
            self.option = None
        elif tag == "select" and self.select:
            if not self.select_chosen and self.select_first is not None:
                self.form.fields.append((self.select, self.select_first))
            self.select = None
        elif tag == "textarea" and self.textarea is not None:
            self.form.fields.append((self.textarea, self.text.removeprefix("\n")))
            self.textarea = None
        elif tag == "form":
            self.form = None


def forms_of(html: str) -> list[Form]:
    parser = FormParser()
    parser.feed(html)
    return parser.forms


def results_form(html: str) -> Form | None:
    return next((f for f in forms_of(html) if f.attrs.get("id") == "results-form"), None)


def form_with(html: str, name: str) -> Form | None:
    """The first form that has a control ``name``."""
    return next((f for f in forms_of(html) if f.value(name) is not None), None)


# --- a browser -------------------------------------------------------------------------------------------


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the caller sees the 302 and follows it itself


@dataclass
class Response:
    status: int
    url: str
    text: str
    location: str = ""


class Browser:
    """One officer's browser: cookies, no automatic redirects, every status counted."""

    def __init__(self, base: str, counts: collections.Counter, errors: list[str]) -> None:
        self.base = base
        self.counts = counts
        self.errors = errors
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)

    def request(self, path: str, data: list[tuple[str, str]] | None = None) -> Response:
        url = urllib.parse.urljoin(self.base, path)
        body = urllib.parse.urlencode(data).encode() if data is not None else None
        headers = {"User-Agent": "dwzsite-bench-officers"}
        if body is not None:
            headers["Origin"] = self.base.rstrip("/")  # as a browser sends it with a form post
            headers["Referer"] = url
        req = urllib.request.Request(url, data=body, headers=headers)  # noqa: S310 - our own http:// base
        try:
            with self.opener.open(req, timeout=120) as r:
                status, text, location = r.status, r.read().decode("utf-8", "replace"), ""
        except urllib.error.HTTPError as exc:
            status, text = exc.code, exc.read().decode("utf-8", "replace")
            location = exc.headers.get("Location", "")
        self.counts[status] += 1
        if status >= 500:
            self.errors.append(f"{status} {'POST' if body is not None else 'GET'} {path}")
        return Response(status, url, text, location)

    def get(self, path: str) -> Response:
        return self.request(path)

    def post(self, path: str, fields: list[tuple[str, str]]) -> Response:
        return self.request(path, fields)

    def login(self, username: str, password: str, path: str = "/anmelden/") -> bool:
        page = self.get(path)
        form = form_with(page.text, "password")
        if form is None:
            return False
        form.replace("username", username)
        form.replace("password", password)
        return self.post(form.action or path, form.fields).status == 302


# --- the officers ----------------------------------------------------------------------------------------


@dataclass
class Shared:
    """What the officers know of each other: live bench tournaments (pk -> owner) and the deleted ones."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    live: dict[int, int] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)  # pk -> name (unique: "Bench O<officer>-<serial>")
    deleted: list[str] = field(default_factory=list)  # names of deleted tournaments not yet restored
    statuses: collections.Counter = field(default_factory=collections.Counter)  # write POSTs
    requests: collections.Counter = field(default_factory=collections.Counter)  # every request
    outcomes: collections.Counter = field(default_factory=collections.Counter)  # per operation and answer
    errors: list[str] = field(default_factory=list)
    acknowledged: int = 0
    attempted: int = 0


class Officer:
    def __init__(self, number: int, *, args, base: str, pool: list[int], days: list[str], org: int, shared):
        self.number = number
        self.username, self.password = officer_credentials(number)
        self.rng = random.Random(args.seed * 1000 + number)
        self.writes = args.writes
        self.base = base
        self.pool = pool
        self.days = days
        self.org = org
        self.shared = shared
        self.counts: collections.Counter = collections.Counter()
        self.browser = Browser(base, self.counts, shared.errors)
        self.admin: Browser | None = None
        self.done = 0
        self.serial = 0

    # Every write goes through here: one POST, its status counted, 302 = acknowledged.
    def write(self, kind: str, browser: Browser, path: str, fields) -> Response:
        self.done += 1
        response = browser.post(path, fields)
        confirm = CONFIRM.search(response.text) if response.status == 200 else None
        if confirm is not None:  # plausibility warnings (issue 26 §3): read, then "Trotzdem speichern"
            with self.shared.lock:
                self.shared.outcomes[f"{kind} confirmed warnings"] += 1
            fields = [(n, v) for n, v in fields if n != "save"] + [("save", confirm.group(1))]
            response = browser.post(path, fields)
        with self.shared.lock:
            self.shared.attempted += 1
            self.shared.statuses[response.status] += 1
            self.shared.outcomes[f"{kind} {response.status}"] += 1
            if response.status == 302:
                self.shared.acknowledged += 1
        return response

    def run(self) -> None:
        try:
            self.work()
        except Exception as exc:  # a bench bug or an unexpected page: fail the run, do not hide it
            self.shared.errors.append(f"{self.username}: {type(exc).__name__}: {exc}")
            raise
        finally:
            with self.shared.lock:
                self.shared.requests.update(self.counts)

    def work(self) -> None:
        if not self.browser.login(self.username, self.password):
            self.shared.errors.append(f"{self.username}: login failed")
            return
        idle = 0  # operations in a row that posted nothing (their page was gone or refused): a guard
        while self.done < self.writes and idle < 50:
            before = self.done
            getattr(self, self.pick())()
            idle = 0 if self.done > before else idle + 1
        if idle >= 50:
            self.shared.errors.append(f"{self.username}: 50 operations in a row without a write")

    def pick(self) -> str:
        """Create until he has two tournaments; then any operation by weight (restore if something is
        deleted). A create with one write left posts the head only."""
        with self.shared.lock:
            mine = sum(1 for owner in self.shared.live.values() if owner == self.number)
            deleted = bool(self.shared.deleted)
        if mine < 2:
            return "create"
        options = {k: w for k, w in OPERATIONS.items() if k != "restore" or deleted}
        return self.rng.choices(list(options), weights=list(options.values()))[0]

    def target(self) -> int | None:
        """His own tournament mostly; one time in five any bench tournament (another officer's)."""
        with self.shared.lock:
            mine = [pk for pk, owner in self.shared.live.items() if owner == self.number]
            every = list(self.shared.live)
        choices = every if every and (self.rng.random() < 0.2 or not mine) else mine
        return self.rng.choice(choices) if choices else None

    def skipped(self, kind: str, status: int) -> None:
        with self.shared.lock:
            self.shared.outcomes[f"{kind} skipped ({status})"] += 1

    def load(self, kind: str, pk: int, path: str, find) -> Form | None:
        """GET an officer page of tournament ``pk`` and its form (``find(html)``); None (counted) if the
        tournament is gone (404/410: forgotten) or the page has no such form."""
        page = self.browser.get(path)
        form = find(page.text) if page.status == 200 else None
        if form is None:
            self.skipped(kind, page.status)
            if page.status in (404, 410):
                self.gone(pk)
        return form

    def gone(self, pk: int) -> None:
        with self.shared.lock:
            self.shared.live.pop(pk, None)

    # --- create: head, then participants and every result ---

    def create(self) -> None:
        page = self.browser.get("/turniere/neu/")
        form = form_with(page.text, "end_date")
        if form is None:
            return self.skipped("create", page.status)
        self.serial += 1
        size = self.rng.randint(4, 6)
        end = self.rng.choice(self.days)
        form.replace("name", f"Bench O{self.number}-{self.serial}")
        form.replace("place", "Stuttgart")
        form.replace("start_date", end)
        form.replace("end_date", end)
        form.replace("rounds", str(size if size % 2 else size - 1))
        form.replace("organiser", f"org:{self.org}")
        form.replace("mode", "rr")
        response = self.write("create-head", self.browser, "/turniere/neu/", form.fields)
        match = re.search(r"/turniere/(\d+)/teilnehmer/", response.location)
        if response.status != 302 or not match:
            return
        pk = int(match.group(1))
        with self.shared.lock:
            self.shared.live[pk] = self.number
            self.shared.names[pk] = f"Bench O{self.number}-{self.serial}"
        players = self.rng.sample(self.pool, size)
        form = self.load("results", pk, f"/turniere/{pk}/kreuztabelle/", results_form)
        if form is None:
            return
        fields = [(n, v) for n, v in form.fields if n != "p" and not n.startswith("rr-")]
        fields += [("p", str(p)) for p in players]
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                result = self.rng.choice(RESULTS)
                fields += [(f"rr-{a}-{b}", result), (f"rr-{b}-{a}", MIRROR[result])]
        self.browser.post(f"/turniere/{pk}/vorschau/", fields)  # the live preview, as the page posts it
        self.save_results(pk, [*fields, ("save", "1")])

    def save_results(self, pk: int, fields, kind: str = "results") -> None:
        if self.done >= self.writes:
            return
        response = self.write(kind, self.browser, f"/turniere/{pk}/kreuztabelle/", fields)
        if response.status == 410:
            self.gone(pk)
        elif response.status == 200:
            self.note_refusal(kind, response.text)

    def note_refusal(self, kind: str, html: str) -> None:
        """A save answered 200: the page shows why (a validation message); kept for the report."""
        messages = re.findall(
            r'class="[^"]*(?:invalid-feedback|alert-danger)[^"]*"[^>]*>\s*([^<]{1,200})', html
        )
        with self.shared.lock:
            self.shared.outcomes[f"{kind} refused: {(messages or ['?'])[0].strip()[:80]}"] += 1

    # --- correct one or two results ---

    def correct(self) -> None:
        pk = self.target()
        if pk is None:
            return
        form = self.load("correct", pk, f"/turniere/{pk}/kreuztabelle/", results_form)
        players = form.values("p") if form else []
        if form is None or len(players) < 2:
            return
        for _ in range(self.rng.randint(1, 2)):
            a, b = self.rng.sample(players, 2)
            old = form.value(f"rr-{a}-{b}") or ""
            result = self.rng.choice([r for r in RESULTS if r != old])
            form.replace(f"rr-{a}-{b}", result)
            form.replace(f"rr-{b}-{a}", MIRROR[result])
        self.save_results(pk, [*form.fields, ("save", "1")], kind="correct")

    # --- move the end date ---

    def move(self) -> None:
        pk = self.target()
        if pk is None:
            return
        form = self.load("move", pk, f"/turniere/{pk}/bearbeiten/", lambda html: form_with(html, "end_date"))
        if form is None:
            return
        others = [d for d in self.days if d != form.value("end_date")]
        day = self.rng.choice(others)
        form.replace("start_date", day)
        form.replace("end_date", day)
        response = self.write("move", self.browser, f"/turniere/{pk}/bearbeiten/", form.fields)
        if response.status == 410:
            self.gone(pk)
        elif response.status == 200:
            self.note_refusal("move", response.text)

    # --- delete ---

    def delete(self) -> None:
        pk = self.target()
        if pk is None:
            return
        form = self.load("delete", pk, f"/turniere/{pk}/loeschen/", lambda html: form_with(html, "version"))
        if form is None:
            return
        response = self.write("delete", self.browser, f"/turniere/{pk}/loeschen/", form.fields)
        if response.status in (302, 410):
            self.gone(pk)
        if response.status == 302:
            with self.shared.lock:
                self.shared.deleted.append(self.shared.names[pk])

    # --- restore through the admin's audit log ---

    def restore(self) -> None:
        if self.admin is None:
            self.admin = Browser(self.base, self.counts, self.shared.errors)
            if not self.admin.login(*ADMIN, path="/admin/login/?next=/admin/"):
                self.shared.errors.append("bench-admin: login failed")
                self.admin = None
                return
        with self.shared.lock:
            if not self.shared.deleted:
                return
            name = self.shared.deleted.pop(self.rng.randrange(len(self.shared.deleted)))
        changelist = "/admin/ratings/auditevent/"
        query = urllib.parse.urlencode(
            {"action__exact": "delete", "object_type__exact": "tournament", "q": name}
        )
        page = self.admin.get(f"{changelist}?{query}")
        form = form_with(page.text, "action")
        event = self.delete_event(page.text, name)
        if form is None or event is None:
            return
        fields = [(n, v) for n, v in form.fields if n not in ("action", "_selected_action")]
        fields += [("action", "restore_tournament"), ("_selected_action", event), ("index", "0")]
        response = self.write("restore", self.admin, changelist, fields)
        if response.status != 302:
            return
        shown = self.admin.get(changelist).text
        restored = re.search(r"„(Bench O\d+-\d+)“ wiederhergestellt", shown)
        if not restored:
            with self.shared.lock:  # refused (a message says why): the write was answered, not acknowledged
                self.shared.acknowledged -= 1
                self.shared.outcomes["restore refused"] += 1
            return
        dashboard = self.browser.get("/referent/").text
        found = re.findall(rf'href="/turniere/(\d+)/">{re.escape(restored.group(1))}</a>', dashboard)
        with self.shared.lock:
            for new in found:
                self.shared.live.setdefault(int(new), self.number)
                self.shared.names[int(new)] = restored.group(1)

    @staticmethod
    def delete_event(html: str, name: str) -> str | None:
        """The newest audit log row of the deletion of tournament ``name``: its checkbox value (the
        changelist is searched by name, newest first; "O1-1" must not match "O1-17")."""
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", html, flags=re.S):
            box = re.search(r'name="_selected_action" value="(\d+)"', row)
            if box and re.search(rf"{re.escape(name)}(?!\d)", row):
                return box.group(1)
        return None


# --- set-up, servers, checks -----------------------------------------------------------------------------


def environment(args, port: int) -> dict[str, str]:
    return {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "dwzsite.settings",
        "DATABASE_URL": args.db,
        "DJANGO_DEBUG": "False",
        "DJANGO_SECRET_KEY": f"bench-officers-{random.SystemRandom().getrandbits(128):032x}",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1",
        "DJANGO_SECURE_COOKIES": "False",
        "DJANGO_SECURE_SSL_REDIRECT": "False",
        "DJANGO_LOG_LEVEL": "ERROR",  # 500s with their traceback; 4xx warnings are counted, not logged
        "DJANGO_SESSION_IDLE_MINUTES": "120",
        "DWZ_BACKGROUND_SECONDS": str(args.background_seconds),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(args.workers),
        "PYTHONUNBUFFERED": "1",
    }


def recreate_database(url: str) -> None:
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "sqlite":
        for suffix in ("", "-wal", "-shm", "-journal"):
            Path(parsed.path + suffix).unlink(missing_ok=True)
        return
    drop_database(url)
    import psycopg

    name = parsed.path.lstrip("/")
    with psycopg.connect(url.replace(parsed.path, "/postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    parsed = urllib.parse.urlparse(url)
    if parsed.scheme == "sqlite":
        return recreate_database(url)
    import psycopg

    name = parsed.path.lstrip("/")
    with psycopg.connect(url.replace(parsed.path, "/postgres"), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(env, *command: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *command], cwd=ROOT, env=env, check=True, capture_output=True, **kwargs
    )


SETUP = """
import json, sys
from django.contrib.auth import get_user_model
from ratings.models import Membership, Organisation
from ratings.models.officer import OfficerScope
officers, pool_size, admin, password = json.loads(sys.argv[-1])
org = Organisation.objects.get(code="C05")
User = get_user_model()
for username, pw in officers:
    user = User.objects.create_user(username=username, password=pw, first_name="Bench", last_name=username)
    OfficerScope.objects.create(user=user, organisation=org)
User.objects.create_superuser(username=admin, password=password, email="")
players = sorted(set(Membership.objects.filter(club__organisation=org).values_list("player_id", flat=True)))
from ratings.models import Tournament
days = sorted({t.isoformat() for t in Tournament.objects.filter(
    organiser_club__organisation=org, end_date__year__gte=2025).values_list("end_date", flat=True)})
print(json.dumps({"org": org.pk, "pool": players[:pool_size], "days": days}))
"""


def set_up(args, env) -> dict:
    recreate_database(args.db)
    manage(env, "migrate", "--no-input", "-v", "0")
    manage(env, "seed_demo")
    manage(env, "collectstatic", "--no-input", "-v", "0")
    subprocess.run([sys.executable, "scripts/compile_messages.py"], cwd=ROOT, check=True, capture_output=True)
    officers = [officer_credentials(n) for n in range(1, args.officers + 1)]
    payload = json.dumps([officers, args.pool, *ADMIN])
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + SETUP, payload],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    facts = json.loads(out.strip().splitlines()[-1])
    facts["days"] = facts["days"][-args.days :]
    return facts


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(base: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(base + "health/", timeout=5) as r:  # noqa: S310 - http://127.0.0.1
                if r.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, OSError):
            pass
        time.sleep(0.3)
    raise SystemExit(f"gunicorn did not answer at {base}")


AFTER = """
import json, sys, time
from django.db.models import Count
from ratings.models import RecalculationJob
from ratings.models.audit import AuditEvent, AuditObjectType
from ratings.models.recalculation import UNFINISHED
users, wait = json.loads(sys.argv[-1])
deadline = time.monotonic() + wait
while RecalculationJob.objects.filter(status__in=UNFINISHED).exists() and time.monotonic() < deadline:
    time.sleep(1)
jobs = dict(RecalculationJob.objects.values_list("status").annotate(n=Count("pk")))
audit = AuditEvent.objects.filter(username__in=users, object_type=AuditObjectType.TOURNAMENT).count()
print(json.dumps({"jobs": jobs, "audit": audit}))
"""


def after(env, users: list[str], wait: float) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", "import django; django.setup()\n" + AFTER, json.dumps([users, wait])],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def verify(env) -> list[str]:
    """``recalculate --verify``: one stdout line per differing value (exit 1), none when clean."""
    run = subprocess.run(
        [sys.executable, "manage.py", "recalculate", "--verify"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    if run.returncode == 0:
        return []
    return lines or [run.stderr.strip() or f"exit {run.returncode}"]


def first_traceback(path: Path) -> str | None:
    text = path.read_text(errors="replace") if path.exists() else ""
    start = text.find("Traceback (most recent call last)")
    if start < 0:
        return None
    block = text[max(0, text.rfind("\n", 0, max(0, start - 300))) : start + 6000]
    return block.strip()


def stop(process: subprocess.Popen | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--db", default=DEFAULT_DB, help=f"DATABASE_URL, dropped and created (default {DEFAULT_DB})"
    )
    parser.add_argument("--officers", type=int, default=10)
    parser.add_argument("--writes", type=int, default=100, help="writes (saving POSTs) per officer")
    parser.add_argument("--workers", type=int, default=4, help="gunicorn workers")
    parser.add_argument("--pool", type=int, default=24, help="players of Bezirk C05 the officers share")
    parser.add_argument(
        "--days", type=int, default=6, help="end dates to choose from (the demo's latest C05 days)"
    )
    parser.add_argument(
        "--background-seconds",
        type=float,
        default=0.02,
        help="DWZ_BACKGROUND_SECONDS for the run: a chain estimated longer goes to the worker",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-db", action="store_true", help="keep the database (kept anyway on a failure)")
    parser.add_argument("--log-dir", help="where gunicorn's and the worker's logs go (default: a temp dir)")
    args = parser.parse_args()

    logs = Path(args.log_dir or tempfile.mkdtemp(prefix="bench-officers-"))
    logs.mkdir(parents=True, exist_ok=True)
    port = free_port()
    env = environment(args, port)
    base = f"http://127.0.0.1:{port}/"
    facts = set_up(args, env)

    shared = Shared()
    server = worker = None
    started = time.monotonic()
    try:
        with open(logs / "gunicorn.err", "w") as err, open(logs / "gunicorn.out", "w") as out:
            server = subprocess.Popen(
                [str(Path(sys.executable).parent / "gunicorn"), "-c", "gunicorn.conf.py", "dwzsite.wsgi"],
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=err,
            )
        with open(logs / "worker.err", "w") as err:
            worker = subprocess.Popen(
                [sys.executable, "manage.py", "db_worker", "--interval", "0.5", "--no-startup-delay"],
                cwd=ROOT,
                env=env,
                stdout=subprocess.DEVNULL,
                stderr=err,
            )
        wait_for(base)
        started = time.monotonic()
        officers = [
            Officer(
                n,
                args=args,
                base=base,
                pool=facts["pool"],
                days=facts["days"],
                org=facts["org"],
                shared=shared,
            )
            for n in range(1, args.officers + 1)
        ]
        threads = [threading.Thread(target=o.run, name=o.username) for o in officers]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        seconds = time.monotonic() - started
        users = [officer_credentials(n)[0] for n in range(1, args.officers + 1)] + [ADMIN[0]]
        state = after(env, users, wait=600)
    finally:
        stop(server)
    try:
        differences = verify(env)
    finally:
        stop(worker)

    jobs = state["jobs"]
    failed_jobs = sum(n for status, n in jobs.items() if status not in ("done",))
    line = {
        "bench": "officers",
        "db": urllib.parse.urlparse(args.db).scheme,
        "officers": args.officers,
        "writes": shared.attempted,
        "statuses": dict(sorted(shared.statuses.items())),
        "requests": dict(sorted(shared.requests.items())),
        "acknowledged": shared.acknowledged,
        "audit": state["audit"],
        "audit_equals_acknowledged": state["audit"] == shared.acknowledged,
        "verify_differences": len(differences),
        "jobs": jobs,
        "outcomes": dict(sorted(shared.outcomes.items())),
        "seconds": round(seconds, 1),
        "workers": args.workers,
        "background_seconds": args.background_seconds,
        "days": facts["days"],
        "pool": len(facts["pool"]),
        "reference_seconds": reference_seconds(),
        "commit": commit(),
        "logs": str(logs),
    }
    print(json.dumps(line, ensure_ascii=False))
    errors = shared.errors
    bad = bool(
        shared.statuses.get(500) or shared.requests.get(500) or differences or errors or failed_jobs
    ) or (state["audit"] != shared.acknowledged)
    if errors:
        print("errors:", *errors[:20], sep="\n  ", file=sys.stderr)
    if differences:
        print("recalculate --verify:", *differences[:20], sep="\n  ", file=sys.stderr)
    traceback = first_traceback(logs / "gunicorn.err")
    if traceback:
        print("first traceback in gunicorn.err:\n" + traceback, file=sys.stderr)
    if bad or args.keep_db:
        print(f"database kept: {args.db}", file=sys.stderr)
    else:
        drop_database(args.db)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
