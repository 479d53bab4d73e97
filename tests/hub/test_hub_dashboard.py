"""The hub dashboard: its own login (CSRF, rate limit, safe redirects), the tables, the reports."""

from __future__ import annotations

import http.cookiejar
import json
import re
import subprocess
import sys
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from companion.fairness.simulate import simulate_into_store
from companion.hub.dashboard import FREE_FAILURES, LoginGuard, create_hub_app
from companion.hub.messages import add_message
from companion.hub.store import Batch, HubStore
from companion.publish import outbox
from companion.store import Store
from companion.tower.model import TowerParams
from tests.hub.conftest import needs_servers, start_hub
from tests.hub.servers import Mosquitto
from tests.web.test_i18n import untranslated, visible

pytestmark = needs_servers
PASSWORD = "correct horse battery"


@pytest.fixture
def hub_store(database: str, tmp_path: Path) -> Iterator[HubStore]:
    store = HubStore(database)
    store.migrate()
    store.add_user("anna", PASSWORD)
    with Store(tmp_path / "pi.sqlite3") as pi:
        simulate_into_store(pi, 24, TowerParams(), seed=9, tower="Table 1")
        outbox.install(pi)
        batch = Batch()
        for entry in outbox.pending(pi, "Table 1", 0, 100):
            add_message(batch, "keshi", "keshi/table_1/toss", json.dumps(entry.payload).encode())
    add_message(batch, "keshi", "keshi/table_1/state", json.dumps({"tower": "Table 1", "verdict": "not enough data yet",
                                                                   "pieces_held": 4}).encode())
    store.write_batch(batch)
    yield store
    store.close()


@pytest.fixture
def client(hub_store: HubStore) -> FlaskClient:
    status = {"broker": "mqtt://127.0.0.1:1883", "connected": True, "stored": 0, "rejected": 0}
    app = create_hub_app(hub_store, lambda: status)
    return app.test_client()


def csrf(client: FlaskClient) -> str:
    page = client.get("/login").get_data(as_text=True)
    match = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert match
    return match.group(1)


def log_in(client: FlaskClient, password: str = PASSWORD, next_page: str = "") -> TestResponse:
    query = f"?next={urllib.parse.quote(next_page)}" if next_page else ""
    return client.post(f"/login{query}", data={"name": "anna", "password": password, "csrf_token": csrf(client)})


def test_everything_but_login_and_health_needs_a_login(client: FlaskClient) -> None:
    page = client.get("/fairness/?tower=Table+1")
    assert page.status_code == 302 and page.headers["Location"].startswith("/login?next=")
    assert client.get("/api/towers").status_code == 401
    assert client.get("/fairness/report.json").status_code == 401
    health = client.get("/healthz")
    assert health.status_code == 200 and health.get_json()["database"] == "ok"


def test_login_needs_the_form_token_and_the_right_password(client: FlaskClient) -> None:
    assert client.post("/login", data={"name": "anna", "password": PASSWORD}).status_code == 403
    wrong = log_in(client, "wrong password")
    assert wrong.status_code == 401 and "Wrong name or password." in wrong.get_data(as_text=True)
    assert client.get("/api/towers").status_code == 401
    right = log_in(client, next_page="/fairness/?tower=Table+1")
    assert right.status_code == 302 and right.headers["Location"] == "/fairness/?tower=Table+1"
    towers = client.get("/api/towers").get_json()["towers"]
    assert [(t["name"], t["tosses"], t["state"]["pieces_held"]) for t in towers] == [("Table 1", 24, 4)]
    page = client.get("/").get_data(as_text=True)
    assert "Table 1" in page and "not enough data yet" in page


class Clock:
    """A clock the test moves by hand (the guard's waits, without waiting)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_wrong_passwords_from_one_address_wait_longer_each_time_and_never_lock_the_user_out(
    hub_store: HubStore,
) -> None:
    clock = Clock()
    status = {"broker": "mqtt://127.0.0.1:1883", "connected": True, "stored": 0, "rejected": 0}
    app = create_hub_app(hub_store, lambda: status, LoginGuard(clock))
    stranger = app.test_client()
    stranger.environ_base["REMOTE_ADDR"] = "192.0.2.66"
    anna = app.test_client()
    anna.environ_base["REMOTE_ADDR"] = "192.0.2.10"
    for _ in range(FREE_FAILURES):
        assert log_in(stranger, "nope nope nope").status_code == 401
    waits = []
    for _ in range(4):
        blocked = log_in(stranger, "nope nope nope")
        assert blocked.status_code == 429, blocked.get_data(as_text=True)
        waits.append(int(re.findall(r"try again in (\d+) s", blocked.get_data(as_text=True))[0]))
        clock.now += waits[-1]  # the wait is over: one more wrong guess, and a longer wait
        assert log_in(stranger, "nope nope nope").status_code == 401
    assert waits == [2, 4, 8, 16]
    assert log_in(stranger).status_code == 429  # even the right password waits at that address
    # the named user, from their own device, is not locked out by the stranger's guesses
    assert log_in(anna).status_code == 302


def test_login_never_redirects_to_another_site(client: FlaskClient) -> None:
    response = log_in(client, next_page="//evil.example/")
    assert response.headers["Location"] == "/"


def test_fairness_reports_per_tower_and_across(client: FlaskClient) -> None:
    log_in(client)
    one = client.get("/fairness/report.json?tower=Table+1").get_json()
    assert one["tosses"] == 24 and one["scope"]["tower"] == "Table 1"
    assert client.get("/fairness/report.json?tower=Nobody").get_json()["tosses"] == 0
    html = client.get("/fairness/")
    assert html.status_code == 200 and "24" in html.get_data(as_text=True)
    bad = client.get("/fairness/report.json?since=yesterday")
    assert bad.status_code == 400 and "since must be an ISO date" in bad.get_json()["error"]


def test_add_user_and_log_in_to_a_running_hub_without_seeing_credentials(
    tmp_path: Path, broker: Mosquitto, database: str
) -> None:
    added = subprocess.run([sys.executable, "-m", "companion.cli", "hub", "--database", database, "--add-user", "ben"],
                           input="ben's long password\n", capture_output=True, text=True, timeout=30)
    assert added.returncode == 0, added.stderr
    short = subprocess.run([sys.executable, "-m", "companion.cli", "hub", "--database", database, "--add-user", "cy"],
                           input="short\n", capture_output=True, text=True, timeout=30)
    assert short.returncode == 2 and short.stderr.strip().count("\n") == 0 and "at least 8" in short.stderr
    hub = start_hub(broker, database, tmp_path / "hub.log")
    try:
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        form = opener.open(hub.url + "/login", timeout=5).read().decode()
        token = re.search(r'name="csrf_token" value="([^"]+)"', form)
        assert token
        body = urllib.parse.urlencode({"name": "ben", "password": "ben's long password",
                                       "csrf_token": token.group(1)}).encode()
        pages = [opener.open(hub.url + "/login", data=body, timeout=5).read().decode()]
        for path in ("/api/towers", "/healthz", "/fairness/report.json"):
            pages.append(opener.open(hub.url + path, timeout=30).read().decode())
    finally:
        hub.stop()
    assert "Every table" in pages[0] and broker.url in pages[0]  # the broker, shown without credentials
    for text in [*pages, (tmp_path / "hub.log").read_text()]:
        assert broker.password not in text and broker.username not in text


def test_a_german_browser_gets_the_hub_in_german_with_no_english_left(client: FlaskClient) -> None:
    german = {"Accept-Language": "de-DE,de;q=0.9"}
    login = visible(client.get("/login", headers=german).get_data(as_text=True))
    refused = client.get("/api/towers", headers=german).get_json()["error"]
    assert login.lang == "de" and refused == "Melde dich zuerst am Hub-Dashboard an"
    log_in(client)
    pages = {path: visible(client.get(path, headers=german).get_data(as_text=True))
             for path in ("/", "/fairness/?tower=Table+1")}
    [tower] = client.get("/api/towers", headers=german).get_json()["towers"]
    assert (tower["said"]["verdict"], tower["shown"]["verdict"]) == ("noch nicht genug Daten", "not enough data yet")
    assert (tower["said"]["fault"], tower["shown"]["fault"]) == ("keine", "none")
    for page in [login, *pages.values()]:
        text = "\n".join(page.parts)
        assert page.lang == "de" and untranslated(text) == [], text
    assert "noch nicht genug Daten" in pages["/"].parts  # the tower's verdict, in words
    assert untranslated("\n".join(visible(client.get("/").get_data(as_text=True)).parts))  # English is scanned too
