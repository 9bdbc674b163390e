"""docs/results.md names every table and column of the results schema (agentunit.store.schema)."""

import re

from agentunit.store.schema import TABLES
from tests.conftest import ROOT


def _documented() -> dict[str, set[str]]:
    """Per table, the columns the doc's column table names (a row may name several: `a`, `b`)."""
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    found: dict[str, set[str]] = {}
    for table, columns in re.findall(r"^\| `(\w+)` \| ((?:`\w+`(?:, )?)+) \| \w", text, re.M):
        found.setdefault(table, set()).update(re.findall(r"`(\w+)`", columns))
    return found


def test_every_schema_column_is_documented():
    documented = _documented()
    for table in TABLES:
        missing = set(table.column_names) - documented.get(table.name, set())
        assert not missing, f"docs/results.md does not describe {table.name}: {', '.join(sorted(missing))}"


def test_the_doc_names_no_column_the_schema_lacks():
    columns = {t.name: set(t.column_names) for t in TABLES}
    for table, names in _documented().items():
        assert table in columns, f"docs/results.md describes a table {table!r} the schema lacks"
        assert names <= columns[table], f"{table}: {', '.join(sorted(names - columns[table]))} not in the schema"
