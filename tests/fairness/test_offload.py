"""The fairness report runs in a child process, is cached per toss log, and renders as Flask would."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask, render_template

from companion import COLOURS
from companion.fairness import offload
from companion.fairness.blueprint import bp
from companion.fairness.load import load_tosses
from companion.fairness.render import REPORT_TEMPLATE, html_context
from companion.fairness.report import build_report
from companion.fairness.simulate import simulate_into_store
from companion.i18n.web import LANGUAGE_NAMES
from companion.store import Store, open_instance_store
from companion.tower.model import TowerParams
from companion.tower.record import iter_tosses, record_correction

FILTERS: dict[str, str | None] = dict.fromkeys(("tower", "since", "layer", "game", "session"))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    with open_instance_store(tmp_path) as opened:
        simulate_into_store(opened, 30, TowerParams(layer="B1"), seed=4)
        yield opened


def test_the_page_renders_as_flask_renders_the_template(store: Store) -> None:
    report = build_report(load_tosses(store), scope=FILTERS)
    dashboard = {**FILTERS, "action": "/fairness/", "download": {"csv": "/fairness/report.csv?layer=B1"},
                 "stylesheet": "/static/app.css", "nav": {"games": "/", "tower": "/tower", "board": "/profile"},
                 "languages": [("de", "/language/de?next=/fairness/")]}
    app = Flask("fairness-render")
    app.register_blueprint(bp)
    with app.test_request_context("/fairness/"):
        flask_page = render_template(REPORT_TEMPLATE, **html_context(report, "de"), dashboard=dashboard,
                                     language_names=LANGUAGE_NAMES)
    assert offload.render_page(report, "de", dashboard, dict(LANGUAGE_NAMES)) == flask_page


def test_a_report_is_cached_until_a_toss_or_a_correction_changes_the_log(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = offload.report_text(store, FILTERS, None, "json", "en")
    assert json.loads(first)["tosses"] == 30

    def no_child(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("a cached report started a child")

    real_executor = offload.ProcessPoolExecutor
    monkeypatch.setattr(offload, "ProcessPoolExecutor", no_child)
    assert offload.report_text(store, FILTERS, None, "json", "en") == first  # the same log: from the cache
    monkeypatch.setattr(offload, "ProcessPoolExecutor", real_executor)

    toss = next(iter_tosses(store))
    with store.write() as conn:
        colour = COLOURS[0]
        record_correction(conn, toss.toss_id, {**toss.pieces_out, colour: toss.pieces_out[colour] + 1})
    corrected = json.loads(offload.report_text(store, FILTERS, None, "json", "en"))
    assert corrected["tosses"] == 30 and corrected != json.loads(first)
    simulate_into_store(store, 3, TowerParams(layer="B1"), seed=5)
    assert json.loads(offload.report_text(store, FILTERS, None, "json", "en"))["tosses"] == 33


def test_a_bad_filter_comes_back_as_the_reports_own_words(store: Store) -> None:
    with pytest.raises(offload.KeshiError, match="layer must be B1 or B2"):
        offload.report_text(store, {**FILTERS, "layer": "B9"}, None, "json", "en")


def test_the_server_process_never_loads_the_statistics(store: Store) -> None:
    script = (
        "import sys\n"
        "from flask import Flask\n"
        "from companion.fairness.blueprint import bp\n"
        "from companion.store import Store\n"
        f"store = Store({str(store.path)!r})\n"
        "app = Flask('fairness-process')\n"
        "app.extensions['keshi.store'] = store\n"
        "app.register_blueprint(bp)\n"
        "page = app.test_client().get('/fairness/')\n"
        "assert page.status_code == 200 and 'data:image/png;base64,' in page.get_data(as_text=True)\n"
        "print(sorted(m for m in ('numpy', 'scipy', 'matplotlib') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
