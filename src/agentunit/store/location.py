"""Where results go: a SQLite file path, or a PostgreSQL database given as a ``postgresql://`` URL or as
libpq's ``key=value`` connection string (``host=db port=5432 dbname=results user=me password=…``), and
how either is shown (its password replaced by ``***``).

A text that starts with one of libpq's keywords and ``=`` (``host=``, ``dbname =``, ``password=``) is a
connection string, so ``host=… password=…`` is never taken for a file name (and its password printed as
part of one), while ``results.db`` or ``a=b.db`` stay file paths. It is read as libpq reads it
(``conninfo_pairs``: ``keyword = value`` pairs, a value bare or single-quoted, a backslash escaping the
next character); one that does not read so is refused before any driver sees it (its message could quote
the password), and is shown cut before its first password. Nothing here imports a database driver: the
SQLite path never loads psycopg.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

URL_SCHEMES = ("postgresql://", "postgres://")
ENV_VAR = "AGENTUNIT_DB"
_MASK = "***"


# libpq's connection parameter keywords (PostgreSQL 17, "Parameter Key Words").
_CONNINFO_KEYWORDS = frozenset({
    "host", "hostaddr", "port", "dbname", "user", "password", "passfile", "require_auth", "channel_binding",
    "connect_timeout", "client_encoding", "options", "application_name", "fallback_application_name",
    "keepalives", "keepalives_idle", "keepalives_interval", "keepalives_count", "tcp_user_timeout", "replication",
    "gssencmode", "sslmode", "requiressl", "sslnegotiation", "sslcompression", "sslcert", "sslkey", "sslpassword",
    "sslcertmode", "sslrootcert", "sslcrl", "sslcrldir", "sslsni", "requirepeer", "ssl_min_protocol_version",
    "ssl_max_protocol_version", "krbsrvname", "gsslib", "gssdelegation", "service", "target_session_attrs",
    "load_balance_hosts"})
_SECRET_KEYWORDS = frozenset({"password", "sslpassword"})
# Compiled when first needed (``_regex``): a run's start-up, which reads no connection string, pays nothing.
_CONNINFO_START = r"\s*([A-Za-z_]+)\s*="
_CONNINFO_PAIR = r"\s*([a-z_]+)\s*=\s*('(?:[^'\\]|\\.)*'|(?:[^\s'\\]|\\.)*)(?=\s|$)"
_SECRET_START = r"(?i)(?:^|\s)(?:ssl)?password\s*="
_ESCAPED = r"\\(.)"


@functools.cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def is_postgres_url(db: str | Path | None) -> bool:
    """Whether ``db`` names a PostgreSQL database rather than a file path: a URL (``postgresql://…`` or
    ``postgres://…``) or a libpq connection string (``is_conninfo``)."""
    if not isinstance(db, str):
        return False
    return db.strip().lower().startswith(URL_SCHEMES) or is_conninfo(db)


def is_conninfo(text: str) -> bool:
    """Whether ``text`` is meant as libpq's ``keyword=value`` connection string: it starts with one of libpq's
    keywords (in any case) and ``=``, whether or not the rest reads as one (``conninfo_pairs``)."""
    if "=" not in text:  # the usual file path: no regular expression run
        return False
    start = _regex(_CONNINFO_START).match(text)
    return start is not None and start.group(1).lower() in _CONNINFO_KEYWORDS


def conninfo_pairs(text: str) -> list[tuple[str, str, str]] | None:
    """``text`` read as libpq reads a connection string: (keyword, value as written, value) per pair, or None
    when it does not read so. Algorithm: match ``keyword = value`` pairs one after another from the start
    (white space around ``=`` allowed; a value single-quoted or running to the next white space, possibly
    empty; a backslash escapes the next character in either); the pairs must cover all of the text and each
    keyword must be one of libpq's, which are lower case."""
    if not is_conninfo(text):
        return None
    pairs: list[tuple[str, str, str]] = []
    position, end = 0, len(text.rstrip())
    while position < end:
        match = _regex(_CONNINFO_PAIR).match(text, position)
        if match is None or match.group(1) not in _CONNINFO_KEYWORDS:
            return None
        written = match.group(2)
        value = written[1:-1] if written.startswith("'") else written
        pairs.append((match.group(1), written, _regex(_ESCAPED).sub(r"\1", value)))
        position = match.end()
    return pairs or None


def _redact_conninfo(text: str) -> str:
    """A connection string as it may be shown: written again from its pairs with each password's value
    replaced by ``***``; one that does not read as pairs is cut where its first password begins."""
    pairs = conninfo_pairs(text)
    if pairs is not None:
        return " ".join(f"{key}={_MASK if key in _SECRET_KEYWORDS else written}" for key, written, _ in pairs)
    secret = _regex(_SECRET_START).search(text)
    return text.strip() if secret is None else f"{text[:secret.end()].strip()}{_MASK}"


def redact_url(db: str | Path) -> str:
    """``db`` as it may be shown: a URL's password (in the user part or a ``password=`` parameter), or a
    connection string's ``password``/``sslpassword`` value, replaced by ``***``; a file path unchanged."""
    text = str(db)
    if not is_postgres_url(text):
        return text
    if is_conninfo(text):
        return _redact_conninfo(text)
    try:
        parts = urlsplit(text.strip())
    except ValueError:
        return re.sub(r"//[^/@]*@", f"//{_MASK}@", text)
    netloc = parts.netloc
    if "@" in netloc:
        userinfo, host = netloc.rsplit("@", 1)
        if ":" in userinfo:
            netloc = f"{userinfo.split(':', 1)[0]}:{_MASK}@{host}"
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        if any(k.lower() == "password" for k, _ in pairs):
            query = urlencode([(k, _MASK if k.lower() == "password" else v) for k, v in pairs], safe="*")
    return urlunsplit((parts.scheme, netloc, parts.path, query, parts.fragment))


def url_secrets(db: str) -> list[str]:
    """The password(s) in a URL, raw and percent-decoded, or in a connection string, as written and
    unescaped (to scrub from driver messages)."""
    found: list[str] = []
    if is_conninfo(db):  # one that does not read as pairs never reaches a driver: it has none to scrub
        pairs = conninfo_pairs(db) or []
        found = [text for key, written, value in pairs if key in _SECRET_KEYWORDS for text in (written, value)]
        return sorted({s for s in found if s}, key=len, reverse=True)
    try:
        parts = urlsplit(db.strip())
    except ValueError:
        return found
    if parts.password:
        found += [parts.password, unquote(parts.password)]
    found += [v for k, v in parse_qsl(parts.query, keep_blank_values=True) if k.lower() == "password"]
    return sorted({s for s in found if s}, key=len, reverse=True)


def scrub(message: str, db: str) -> str:
    """``message`` with every password of ``db`` (and the raw URL) replaced by the redacted form."""
    text = message.replace(db, redact_url(db))
    for secret in url_secrets(db):
        text = text.replace(secret, _MASK)
    return text
