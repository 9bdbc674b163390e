"""Results storage: SQLite (a file, the default) or PostgreSQL (a ``postgresql://`` URL, ``[postgres]`` extra).

``base`` holds the stores' interface and shared SQL (``BaseStore``); ``sqlite`` and ``postgres`` its two
databases. No module of this package imports this facade.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentunit.store.base import DEFAULT_DB, BaseStore
from agentunit.store.location import ENV_VAR, is_postgres_url, redact_url
from agentunit.store.sqlite import Store

__all__ = ["DEFAULT_DB", "ENV_VAR", "BaseStore", "Store", "is_postgres_url", "open_store", "redact_url"]


def open_store(db: str | Path = DEFAULT_DB, **options: Any) -> BaseStore:
    """The results store at ``db``: a ``PostgresStore`` for a ``postgresql://`` URL (psycopg is imported
    only then), else a SQLite ``Store`` (a file path or ``:memory:``). ``options`` go to the store
    (``batch_size``, ``flush_interval``, ``large_text``)."""
    if is_postgres_url(db):
        from agentunit.store.postgres import PostgresStore

        return PostgresStore(str(db), **options)
    return Store(db, **options)
