"""The viewer over HTTP: its pages, its headers, loopback only by default, a token everywhere else."""

import socket
import threading
from urllib.parse import quote

import pytest
from click.testing import CliRunner

from agentunit.cli import app
from agentunit.viewer import make_server
from agentunit.viewer.server import CSP, is_loopback
from tests.viewer.conftest import fetch


def test_every_page_answers_with_a_strict_policy(viewer, results):
    for path in ("", "?suite=demo", "run/run-b", "run/run-b?status=failed&q=c0&page=1",
                 "run/run-a/case?id=c03", "compare?a=run-a&b=run-b", "compare"):
        status, headers, body = fetch(viewer.url + path)
        assert status == 200, path
        assert headers["Content-Security-Policy"] == CSP and "script-src 'none'" in CSP
        assert headers["X-Content-Type-Options"] == "nosniff" and body.startswith("<!doctype html>")
    status, headers, css = fetch(viewer.url + "static/viewer.css")
    assert status == 200 and headers["Content-Type"].startswith("text/css") and "body{" in css


def test_a_run_page_shows_rates_with_intervals_and_a_page_of_cases(viewer):
    _, _, body = fetch(viewer.url + "run/run-b?size=10")
    assert "90.0% [76.9%–96.0%] n=40" in body  # equals: 36 of 40, Wilson 95 %
    assert body.count("<tr class='case'") == 10 and "next →" in body
    _, _, page4 = fetch(viewer.url + "run/run-b?size=10&page=4")
    assert page4.count("<tr class='case'") == 10 and "next →" not in page4 and "← previous" in page4
    _, _, failed = fetch(viewer.url + "run/run-b?status=failed")
    assert failed.count("<tr class='case'") == 4 and "data-status='passed'" not in failed


def test_the_comparison_lists_the_flipped_cases(viewer, results):
    _, _, body = fetch(viewer.url + "compare?a=run-a&b=run-b")
    broken = body.split("id='broken'>", 1)[1].split("</ul>", 1)[0]
    fixed = body.split("id='fixed'>", 1)[1].split("</ul>", 1)[0]
    assert all(f">{case_id}</a>" in broken for case_id in results["broken"])
    assert all(f">{case_id}</a>" in fixed for case_id in results["fixed"])
    assert ">c40</a>" in body.split("id='added'>", 1)[1] and ">c00</a>" in body.split("id='removed'>", 1)[1]
    _, _, latest = fetch(viewer.url + "compare?a=latest~1&b=latest&suite=demo")  # latest~N counts demo's runs
    assert latest.split("<form", 1)[0] == body.split("<form", 1)[0]


def test_unknown_things_are_404s_and_writes_are_refused(viewer):
    for path in ("run/nope", "run/run-a/case?id=nope", "nowhere", "compare?a=nope&b=latest"):
        status, _, body = fetch(viewer.url + path)
        assert status == 404 and "Traceback" not in body, path
    assert fetch(viewer.url + "run/run-a/case")[0] == 400
    status, headers, _ = fetch(viewer.url, method="POST")
    assert status == 405 and headers["Allow"] == "GET, HEAD"


def test_a_loopback_viewer_answers_only_to_its_own_host_name(viewer):
    port = viewer.server_address[1]
    assert fetch(viewer.url, headers={"Host": f"localhost:{port}"})[0] == 200
    assert fetch(viewer.url, headers={"Host": f"evil.example:{port}"})[0] == 421  # DNS rebinding
    assert viewer.token is None and is_loopback("127.0.0.1") and is_loopback("::1") and not is_loopback("0.0.0.0")


@pytest.fixture
def exposed(results):
    server = make_server(results["db"], host="0.0.0.0", port=0)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    yield server
    server.shutdown()
    server.server_close()


def test_off_loopback_every_request_needs_the_token(exposed):
    url = f"http://127.0.0.1:{exposed.server_address[1]}/"
    token = exposed.token
    assert token and len(token) >= 32
    for path in ("", "run/run-a", "static/viewer.css", f"?token={quote(token[:-1])}"):
        status, _, body = fetch(url + path)
        assert status == 401 and "run-a" not in body, path
    status, headers, _ = fetch(url + f"run/run-a?status=failed&token={quote(token)}")
    assert status == 303 and headers["Location"] == "/run/run-a?status=failed"
    cookie = headers["Set-Cookie"].split(";", 1)[0]
    assert "HttpOnly" in headers["Set-Cookie"] and "SameSite=Strict" in headers["Set-Cookie"]
    assert fetch(url + "run/run-a", headers={"Cookie": cookie})[0] == 200
    assert fetch(url + "run/run-a", headers={"Authorization": f"Bearer {token}"})[0] == 200
    assert fetch(url + "run/run-a", headers={"Authorization": "Bearer nope", "Cookie": "x=1"})[0] == 401


def test_the_command_names_a_missing_database_and_a_busy_port_in_one_line(tmp_path, results):
    runner = CliRunner()
    missing = runner.invoke(app, ["view", "--db", str(tmp_path / "none.db")])
    assert missing.exit_code == 2 and f"no results database at {tmp_path / 'none.db'}" in missing.output
    assert "Traceback" not in missing.output
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        taken = runner.invoke(app, ["view", "--db", str(results["db"]), "--port", str(busy.getsockname()[1])])
    assert taken.exit_code == 2 and "cannot listen on 127.0.0.1:" in taken.output and "--port 0" in taken.output
