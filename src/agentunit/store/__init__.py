"""Results storage: SQLite (a file, the default) or PostgreSQL (a ``postgresql://`` URL, ``[postgres]`` extra)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.store.location import ENV_VAR, is_postgres_url, redact_url
from agentunit.store.sqlite import DEFAULT_DB, Store

__all__ = ["DEFAULT_DB", "ENV_VAR", "Store", "is_postgres_url", "open_store", "redact_url"]


def open_store(db: str | Path = DEFAULT_DB, **options: Any) -> Store:
    """The results store at ``db``: a ``PostgresStore`` for a ``postgresql://`` URL (psycopg is imported
    only then), else a SQLite ``Store`` (a file path or ``:memory:``). ``options`` go to the store
    (``batch_size``, ``flush_interval``, ``large_text``)."""
    if is_postgres_url(db):
        from agentunit.store.postgres import PostgresStore

        return PostgresStore(str(db), **options)
    return Store(db, **options)
