import pytest

from agentunit import check
from agentunit.errors import MetricConfigError


@pytest.mark.parametrize(("output", "spec", "passed"), [
    ("SELECT id, name FROM users WHERE id = 1", "is-sql", True),
    ("SELECT id FROM users; DELETE FROM logs", "is-sql", True),
    ("hello world", "is-sql", False),
    ("SELECT * FROM", "is-sql", False),
    ("Sure, here you go: SELECT 1", "is-sql", False),
    ("SELECT TOP 3 name FROM users", {"metric": "is-sql", "value": {"databaseType": "MySQL"}}, False),
    ("SELECT TOP 3 name FROM users", {"metric": "is-sql", "value": {"databaseType": "TransactSQL"}}, True),
    ("SELECT name FROM users", {"metric": "is-sql", "value": {"allowedTables": ["users"]}}, True),
    ("SELECT name FROM users JOIN orders ON users.id = orders.uid",
     {"metric": "is-sql", "value": {"allowedTables": ["users"]}}, False),
    ("SELECT name FROM users", {"metric": "is-sql", "value": {"allowedTables": ["select::null::users"]}}, True),
    ("DELETE FROM users", {"metric": "is-sql", "value": {"allowedTables": ["select::null::users"]}}, False),
    ("SELECT name, email FROM users", {"metric": "is-sql", "value": {"allowedColumns": ["name"]}}, False),
    ("SELECT u.name AS n FROM users u ORDER BY n", {"metric": "is-sql", "value": {"allowedColumns": ["name"]}}, True),
    # SQL inside comments and strings does not count as tables
    ("SELECT 'DROP TABLE secrets' AS s FROM users -- JOIN secrets", {"metric": "is-sql",
                                                                     "value": {"allowedTables": ["users"]}}, True),
    ("/* FROM secrets */ SELECT id FROM users", {"metric": "is-sql", "value": {"allowedTables": ["users"]}}, True),
    ("WITH recent AS (SELECT id FROM orders) SELECT id FROM recent",
     {"metric": "is-sql", "value": {"allowedTables": ["orders"]}}, True),
    ("```sql\nselect id from users;\n```", "contains-sql", True),
    ("Run SELECT id FROM users; to see them.", "contains-sql", True),
    ("you can select any item from the list", "contains-sql", False),
    ("Run SELECT id FROM secrets;", {"metric": "contains-sql", "value": {"allowedTables": ["users"]}}, False),
])
def test_sql_metrics(output, spec, passed):
    assert check(output, spec).passed is passed


def test_violations_are_reported():
    result = check("SELECT a.x, b.y FROM a JOIN b ON a.id = b.id", {"metric": "is-sql",
                                                                     "value": {"allowedTables": ["a"]}})
    assert result.detail["violations"] == ["table b (select)"]


@pytest.mark.parametrize("spec", [
    {"metric": "is-sql", "value": {"databaseType": "Klingon"}},
    {"metric": "is-sql", "value": {"allowedTabels": ["x"]}},
    {"metric": "is-sql", "value": "mysql"},
    {"metric": "is-sql", "value": {"allowedTables": ["a::b"]}},
])
def test_bad_sql_options(spec):
    with pytest.raises(MetricConfigError):
        check("SELECT 1", spec)
