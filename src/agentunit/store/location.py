"""Where results go: a SQLite file path or a ``postgresql://`` URL, and how a URL is shown.

Nothing here imports a database driver: the SQLite path never loads psycopg.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit, urlunsplit

URL_SCHEMES = ("postgresql://", "postgres://")
ENV_VAR = "AGENTUNIT_DB"
_MASK = "***"


def is_postgres_url(db: str | Path | None) -> bool:
    """Whether ``db`` is a PostgreSQL URL (``postgresql://…`` or ``postgres://…``) rather than a file path."""
    return isinstance(db, str) and db.strip().lower().startswith(URL_SCHEMES)


def redact_url(db: str | Path) -> str:
    """``db`` as it may be shown: a URL's password (in the user part or a ``password=`` parameter)
    replaced by ``***``; a file path unchanged."""
    text = str(db)
    if not is_postgres_url(text):
        return text
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
    """The password(s) in a URL, raw and percent-decoded (to scrub from driver messages)."""
    found: list[str] = []
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
