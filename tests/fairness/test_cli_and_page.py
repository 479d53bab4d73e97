"""``keshi tower simulate`` / ``keshi tower report`` end to end, and the dashboard's fairness page."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from flask import Flask
from flask.testing import FlaskClient

from companion import COLOURS
from companion.cli import main
from companion.fairness.blueprint import bp
from companion.store import open_instance_store


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_simulate_then_report_flags_the_biased_colour(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    instance = str(tmp_path / "instance")
    status, out, _ = run(capsys, "tower", "simulate", "--tosses", "1500", "--bias", "red=0.25",
                         "--seed", "5", "--instance", instance)
    assert status == 0 and "recorded 1500 simulated tosses" in out
    status, out, _ = run(capsys, "tower", "report", "--instance", instance, "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["tosses"] == 1500
    assert [c for c, entry in document["colours"].items() if entry["flagged"]] == ["red"]
    assert document["colours"]["red"]["release_rate"] < document["colours"]["yellow"]["release_rate"]


def test_report_formats_and_scopes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    instance = str(tmp_path / "instance")
    run(capsys, "tower", "simulate", "--tosses", "20", "--layer", "B2", "--seed", "1", "--instance", instance)
    status, out, _ = run(capsys, "tower", "report", "--instance", instance, "--format", "csv")
    assert status == 0 and len(pd.read_csv(io.StringIO(out))) == 24  # 12 "all" rows + 12 for B2
    target = tmp_path / "report.html"
    status, out, _ = run(capsys, "tower", "report", "--instance", instance, "--format", "html", "-o", str(target))
    assert status == 0 and "wrote html report of 20 tosses" in out
    assert "\nTossed-in keshis staying inside: not enough data yet — " in out  # the verdict, in player words
    assert target.read_text().count("data:image/png;base64,") == 3
    _, out, _ = run(capsys, "tower", "report", "--instance", instance, "--layer", "B1")
    assert json.loads(out)["tosses"] == 0
    _, out, _ = run(capsys, "tower", "report", "--instance", instance, "--since", "2999-01-01")
    assert json.loads(out)["tosses"] == 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["tower", "simulate", "--tosses", "5", "--bias", "blue=0.1"], "'blue=0.1'"),
        (["tower", "simulate", "--tosses", "5", "--bias", "red=lots"], "'lots'"),
        (["tower", "simulate", "--tosses", "0"], "'0'"),
        (["tower", "report", "--instance", "/nonexistent/instance"], "/nonexistent/instance does not exist"),
        (["tower", "report", "--instance", ".", "--since", "last tuesday"], "'last tuesday'"),
    ],
)
def test_bad_input_is_one_line_naming_it(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    status: int | str | None
    try:
        status = main(argv)
    except SystemExit as exited:  # argparse usage errors exit; KeshiErrors return the status
        status = exited.code
    _, err = capsys.readouterr()
    assert status == 2
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    with open_instance_store(tmp_path) as store:
        main(["tower", "simulate", "--tosses", "30", "--seed", "2", "--instance", str(tmp_path)])
        app = Flask("fairness-test")
        app.extensions["keshi.store"] = store
        app.register_blueprint(bp)
        yield app.test_client()


def test_page_shows_plots_and_every_colour_by_name(client: FlaskClient) -> None:
    response = client.get("/fairness/")
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert html.count("data:image/png;base64,") == 3
    for colour in COLOURS:
        assert f"</span>{colour}</td>" in html
    assert 'href="/fairness/report.csv"' in html and "not enough data yet" in html


def test_page_downloads_follow_the_filters(client: FlaskClient) -> None:
    page = client.get("/fairness/?layer=B1").get_data(as_text=True)
    assert 'href="/fairness/report.json?layer=B1"' in page
    document = client.get("/fairness/report.json?layer=B2").get_json()
    assert document["tosses"] == 0 and document["scope"]["layer"] == "B2"
    csv = client.get("/fairness/report.csv")
    assert csv.mimetype == "text/csv" and "attachment" in csv.headers["Content-Disposition"]


def test_page_refuses_bad_filters_by_name(client: FlaskClient) -> None:
    response = client.get("/fairness/report.json?since=soon")
    assert response.status_code == 400 and "'soon'" in response.get_data(as_text=True)
    response = client.get("/fairness/?layer=B9")
    assert response.status_code == 400 and "'B9'" in response.get_data(as_text=True)
    assert client.get("/fairness/report.pdf").status_code == 404


def test_report_and_page_state_what_was_set_aside(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    instance = tmp_path / "instance"
    run(capsys, "tower", "simulate", "--tosses", "24", "--seed", "3", "--instance", str(instance))
    with open_instance_store(instance) as store, store.write() as conn:  # a toss from the tower's button
        conn.execute("UPDATE tosses SET pieces_in = ? WHERE id = 5", (json.dumps(dict.fromkeys(COLOURS, 0)),))
    status, out, _ = run(capsys, "tower", "report", "--instance", str(instance), "--format", "json")
    document = json.loads(out)
    assert status == 0 and document["tosses"] == 23 and "set aside" in document["detail"]
    [aside] = document["set_aside"]
    assert aside["toss_id"].endswith("-5") and aside["reason"].startswith("nothing was recorded as tossed in")
    _, out, _ = run(capsys, "tower", "report", "--instance", str(instance), "--format", "csv")
    table = pd.read_csv(io.StringIO(out))
    assert list(table[table.scope == "set-aside"].toss_id) == [aside["toss_id"]]
    _, out, _ = run(capsys, "tower", "report", "--instance", str(instance), "--format", "html")
    assert "Tosses set aside" in out and aside["toss_id"] in out
    with open_instance_store(instance) as store:
        app = Flask("fairness-test")
        app.extensions["keshi.store"] = store
        app.register_blueprint(bp)
        page = app.test_client().get("/fairness/").get_data(as_text=True)
    assert aside["reason"].split(" (")[0] in page


def test_simulate_files_tosses_under_the_instances_tower_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "config.json").write_text(json.dumps({"TOWER_NAME": "Table 4"}))
    run(capsys, "tower", "simulate", "--tosses", "3", "--seed", "1", "--instance", str(tmp_path))
    run(capsys, "tower", "simulate", "--tosses", "2", "--seed", "2", "--instance", str(tmp_path), "--tower", "Other")
    with open_instance_store(tmp_path) as store:
        towers = [row[0] for row in store.query("SELECT tower FROM tosses ORDER BY id")]
    assert towers == ["Table 4"] * 3 + ["Other"] * 2
