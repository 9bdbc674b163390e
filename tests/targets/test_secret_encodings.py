"""Issue 50: a secret is redacted in every form it is written, not only verbatim.

An attacker's server echoes what it was sent — the ``Authorization: Basic`` header our client builds from
``user:${PASS}@`` in the URL, an API-key header, a query value — percent-encoded, base64-encoded (alone
and inside longer data), JSON- and HTML-escaped. None of it may reach the results database, the reports
or an error. The leak check decodes instead of matching the forms the code computes, so it does not
share the code's mistakes.
"""

from __future__ import annotations

import base64
import html
import json
import random
import re
from pathlib import Path
from urllib.parse import parse_qsl, quote, quote_plus, unquote, unquote_plus, urlsplit

import pytest

from agentunit import evaluate
from agentunit.reporting.json_report import write_json
from agentunit.targets import _secrets
from agentunit.targets._secrets import redact_text
from tests.http_helpers import LocalServer, RecordingServer, Reply

USER = "bob"
PASSWORD = "Pa55-w0rd!x7Q"  # in the URL's userinfo: sent as Basic auth
TOKEN = 'tk-9/Q"z\\w+&<y o~K'  # a header value with every character that some encoder escapes
QUERY_KEY = "clé-ßecret-😀-42/+"  # non-ASCII, in the query string: percent-encoded UTF-8 on the wire
SECRETS = (PASSWORD, TOKEN, QUERY_KEY, f"{USER}:{PASSWORD}")


# -- the leak check ----------------------------------------------------------------------------------------


_JSON_ESCAPE = re.compile(r'\\(?:u([0-9a-fA-F]{4})|(["\\/bfnrt]))')
_JSON_SHORT = {'"': '"', "\\": "\\", "/": "/", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t"}


def _json_unescaped(text: str) -> str:
    r"""``text`` with JSON's escapes (``\uXXXX`` surrogate pairs included, ``\/``) decoded."""
    decoded = _JSON_ESCAPE.sub(lambda m: chr(int(m[1], 16)) if m[1] else _JSON_SHORT[m[2]], text)
    return decoded.encode("utf-16", "surrogatepass").decode("utf-16", "replace")  # join surrogate pairs


def _base64_decoded(text: str) -> list[bytes]:
    """Each base64 (or URL-safe base64) run of ``text``, decoded from each of its first four characters."""
    out = []
    for run in re.findall(r"[A-Za-z0-9+/_-]{8,}", text):
        run = run.translate(str.maketrans("-_", "+/"))
        for offset in range(4):
            chunk = run[offset:]
            out.append(base64.b64decode(chunk[: len(chunk) // 4 * 4]))
    return out


def _leaked(text: str) -> list[str]:
    """The secrets that ``text`` holds in any way a decoder could read them back."""
    views = [text, unquote(text), unquote(unquote(text)), unquote_plus(text), html.unescape(text),
             _json_unescaped(text)]
    blobs = _base64_decoded(text)
    found = []
    for secret in SECRETS:
        raw = {secret.encode()} | ({secret.encode("latin-1")} if max(secret) <= "\xff" else set())
        if any(secret in view for view in views) or any(r in blob for r in raw for blob in blobs):
            found.append(secret)
    return found


def _database_text(db: Path) -> str:
    """Every byte SQLite wrote for ``db`` (the main file, its WAL and journal), as text."""
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*")).decode("utf-8", "replace")


# -- the attacker's server ------------------------------------------------------------------------------------


def _encodings(value: str) -> list[str]:
    """``value`` as the attacker writes it back: every common encoding, and base64 at three offsets."""
    data = value.encode()
    b64 = base64.b64encode(data).decode()
    return [quote(value, safe=""), _lower_hex(quote(value, safe="")), quote_plus(value), b64, b64.rstrip("="),
            base64.urlsafe_b64encode(data).decode(), base64.b64encode(b"<" + data + b">").decode(),
            base64.b64encode(b"<<" + data + b">>").decode(), json.dumps(value)[1:-1],
            json.dumps(value, ensure_ascii=False)[1:-1].replace("/", "\\/"), html.escape(value)]


def _lower_hex(percent_encoded: str) -> str:
    return re.sub(r"%[0-9A-F]{2}", lambda m: m.group().lower(), percent_encoded)


class EchoServer(LocalServer):
    """Answers every POST with text naming what it was sent, each value in every encoding (HTTP 400 on
    ``/deny``, with only the Basic header, the query and one base64 value, so it fits the error cut).
    ``received`` holds the decoded values, to show the secrets did reach the server."""

    def __init__(self) -> None:
        self.received: list[dict[str, str]] = []
        super().__init__(self._echo)

    def _echo(self, request):
        auth = request.headers.get("Authorization", "")
        raw_query = urlsplit(request.path).query
        values = {"authorization": auth,
                  "credential": base64.b64decode(auth.removeprefix("Basic ")).decode("latin-1"),
                  "token": request.headers.get("X-Api-Key", ""),
                  "query": dict(parse_qsl(raw_query.replace("+", "%2B"))).get("k", ""),
                  "raw_query": raw_query}
        self.received.append(values)
        if request.path.startswith("/deny"):
            status, text = 400, f"denied {auth} {raw_query} {base64.b64encode(TOKEN.encode()).decode()}"
        else:  # what was sent as written (the query twice percent-encoded too), then decoded and encoded
            status = 200
            sent = [auth, raw_query, quote(raw_query, safe="")]
            text = "echo " + " | ".join(sent + [form for name in ("credential", "token", "query")
                                                for form in [values[name], *_encodings(values[name])]])
        return Reply(status, text, content_type="text/plain; charset=utf-8")


@pytest.fixture
def secrets_env(monkeypatch):
    monkeypatch.setenv("AU_ENC_PASS", PASSWORD)
    monkeypatch.setenv("AU_ENC_TOKEN", TOKEN)
    monkeypatch.setenv("AU_ENC_QUERY", QUERY_KEY)


def _suite(port: int, path: str = "/agent") -> dict:
    return {"name": "encodings", "target": {
        "type": "http", "url": f"http://{USER}:${{AU_ENC_PASS}}@127.0.0.1:{port}{path}?k=${{AU_ENC_QUERY}}",
        "headers": {"X-Api-Key": "${AU_ENC_TOKEN}"}, "retries": 0},
        "cases": [{"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": "echo"}]}]}


# -- through the public API --------------------------------------------------------------------------------


def test_an_echoed_secret_in_no_encoding_reaches_the_database_the_report_or_the_cache(tmp_path, secrets_env):
    server = EchoServer()
    db = tmp_path / "r.db"
    try:
        result = evaluate(_suite(server.port), db=db)
        rerun = evaluate(_suite(server.port), db=db)  # from the reply cache
    finally:
        server.close()
    sent = server.received[0]
    assert (sent["credential"], sent["token"], sent["query"]) == (f"{USER}:{PASSWORD}", TOKEN, QUERY_KEY)
    case = result.cases[0]
    assert case["status"] == "passed" and case["output"].startswith("echo Basic *** | ")
    assert rerun.cases[0]["cached"]
    write_json(result, tmp_path / "r.json")
    assert _leaked(json.dumps(result.to_dict(), ensure_ascii=False)) == []
    assert _leaked((tmp_path / "r.json").read_text()) == []
    result.store.close()
    rerun.store.close()
    assert _leaked(_database_text(db)) == []


def test_an_error_quoting_the_basic_header_and_encoded_secrets_is_stored_redacted(tmp_path, secrets_env):
    server = EchoServer()
    db = tmp_path / "r.db"
    try:
        result = evaluate(_suite(server.port, "/deny"), db=db)
    finally:
        server.close()
    case = result.cases[0]
    assert case["status"] == "errored" and case["error"].startswith("HTTP 400: denied Basic ***")
    result.store.close()
    assert _leaked(case["error"]) == []
    assert _leaked(_database_text(db)) == []


def test_a_server_that_knows_the_key_cannot_store_it_encoded_in_an_error(tmp_path, secrets_env):
    # An upstream error page quoting the key percent-encoded, base64 at an offset and JSON-escaped.
    page = json.dumps({"error": f"bad key {quote_plus(TOKEN)} in ctx "
                                f"{base64.b64encode(b'key=' + TOKEN.encode()).decode()} ({TOKEN})"})
    server = RecordingServer((502, page))
    db = tmp_path / "r.db"
    try:
        url = server.url.replace("//", f"//{USER}:${{AU_ENC_PASS}}@")
        suite = {"name": "page", "target": {"type": "http", "url": url, "headers": {"X-Api-Key": "${AU_ENC_TOKEN}"},
                                            "retries": 0},
                 "cases": [{"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": "x"}]}]}
        result = evaluate(suite, db=db)
    finally:
        server.close()
    expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
    assert server.requests[0]["headers"]["Authorization"] == expected  # our client did build the header
    error = result.cases[0]["error"]
    assert error.startswith("HTTP 502:") and error.count("***") == 3
    result.store.close()
    assert _leaked(error) == [] and _leaked(_database_text(db)) == []


# -- the forms -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("written", [
    quote(TOKEN, safe=""), _lower_hex(quote(TOKEN, safe="")), quote(TOKEN), quote_plus(TOKEN),
    "tk-9/Q%22z%5cw%2B&<y+o%7EK",  # a client's own mix of escaped and literal characters
    quote(quote(TOKEN, safe=""), safe=""),  # a URL inside a URL: percent-encoded twice
    "tk-9\\/Q\\u0022z\\u005Cw+&<y o~K",  # JSON with \\u escapes where json.dumps writes short ones
    html.escape(TOKEN), html.escape(TOKEN).replace("&quot;", "&#34;").replace("&amp;", "&#x26;")])
def test_escaped_forms_are_redacted(written):
    assert redact_text(f"[{written}]", {TOKEN}) == "[***]"


_ASCII_JSON = json.dumps(QUERY_KEY)[1:-1]


@pytest.mark.parametrize("written", [
    re.sub(r"\\u([0-9a-f]{4})", lambda m: "\\u" + m.group(1).upper(), _ASCII_JSON),  # upper-case hex
    quote(QUERY_KEY), _lower_hex(quote(QUERY_KEY, safe=""))])
def test_non_ascii_is_redacted_as_json_and_percent_encoders_write_it(written):
    assert redact_text(f"<{written}>", {QUERY_KEY}) == "<***>"


@pytest.mark.parametrize("prefix", range(6))
@pytest.mark.parametrize("suffix", [b"", b"!", b"!?", b"tail"])
@pytest.mark.parametrize("encode", [base64.b64encode, base64.urlsafe_b64encode])
def test_base64_of_a_secret_is_redacted_at_every_alignment(prefix, suffix, encode):
    for secret in (TOKEN, QUERY_KEY, f"{USER}:{PASSWORD}"):
        for padded in (True, False):
            blob = encode(b"p" * prefix + secret.encode() + suffix).decode()
            blob = blob if padded else blob.rstrip("=")
            redacted = redact_text(f"data {blob} end", {secret})
            assert "***" in redacted and _leaked(redacted) == [], (secret, blob, redacted)


def test_the_basic_header_is_redacted_in_latin1_as_aiohttp_encodes_it():
    credential = "bob:pässwort-1"
    header = "Basic " + base64.b64encode(credential.encode("latin-1")).decode()
    assert redact_text(header, {credential}) == "Basic ***"


def test_base64_runs_too_short_to_be_told_from_chance_are_kept():
    forms = _secrets._base64_forms("abcdef")
    assert forms and all(len(form.rstrip("=")) >= _secrets.MIN_ENCODED_LENGTH for form in forms)
    assert _secrets._base64_forms("abc") == ()  # "YWJj" would turn up by chance in a large image
    image = base64.b64encode(random.Random(50).randbytes(1 << 16)).decode()
    assert redact_text(image, {"x!y", "hunter2!"}) == image
    assert redact_text("x!y eCF5", {"x!y"}) == "*** eCF5"  # its base64, too short to tell from chance
    assert redact_text("is not set", {"s"}) == "is not set"  # the short-secret rule is unchanged


def test_a_longer_secret_is_removed_whole_in_every_form():
    text = f"{quote('abc/def', safe='')} {quote('abc/', safe='')}"
    assert redact_text(text, {"abc/", "abc/def"}) == "*** ***"


def test_url_credentials_are_what_aiohttp_sends_as_basic_auth():
    credentials = _secrets.url_credentials
    assert credentials("http://bob:p%40ss@h/x", set()) == {"p@ss", "bob:p@ss"}
    assert credentials("http://:p4ss@h/", set()) == {"p4ss", ":p4ss"}
    assert credentials("http://ghp%2Ftok3n@h/", {"ghp%2Ftok3n"}) == {"ghp/tok3n", "ghp/tok3n:"}
    assert credentials("http://admin@h/", set()) == set()  # a plain user name is not a secret
    assert credentials("http://h/?mail=a@b", set()) == set()
    assert credentials("http://h/", set()) == set()


def test_the_forms_are_built_once_per_set_of_secrets():
    _secrets._redactor.cache_clear()
    secrets = {TOKEN, QUERY_KEY}
    for _ in range(3):
        redact_text(f"x {TOKEN}", secrets)
    info = _secrets._redactor.cache_info()
    assert (info.misses, info.hits) == (1, 2)
    plain = "nothing secret here " * 1000
    assert redact_text(plain, secrets) is plain  # no anchor in it: no regex pass


def test_a_password_written_in_the_url_itself_reaches_neither_the_database_nor_the_reply(tmp_path):
    """Not through ${ENV}: typed into the suite's URL. The run's target description keeps the user and the
    host, not the password, and the echoed Basic header is redacted all the same."""
    literal = "L1teral-pa55word"
    server = EchoServer()
    db = tmp_path / "r.db"
    suite = {"name": "literal", "target": {"type": "http", "url": f"http://{USER}:{literal}@127.0.0.1:{server.port}/a",
                                           "retries": 0},
             "cases": [{"id": "c", "prompt": "p", "metrics": [{"metric": "contains", "value": "echo"}]}]}
    try:
        result = evaluate(suite, db=db)
    finally:
        server.close()
    assert server.received[0]["credential"] == f"{USER}:{literal}"
    result.store.close()
    stored = _database_text(db)
    assert f"{USER}:***@127.0.0.1" in stored
    assert literal not in stored and base64.b64encode(f"{USER}:{literal}".encode()).decode() not in stored
