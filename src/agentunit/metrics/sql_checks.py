"""SQL metrics: is-sql and contains-sql, parsed with sqlglot (dialects, table and column allow-lists)."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Any

from agentunit.errors import MetricConfigError
from agentunit.metrics._values import as_list
from agentunit.metrics.base import Metric, MetricResult
from agentunit.metrics.registry import register

_DIALECT_ALIASES = {"postgresql": "postgres", "transactsql": "tsql", "sqlserver": "tsql", "mssql": "tsql",
                    "mariadb": "mysql", "db2": "postgres", "hive": "hive", "redshift": "redshift"}
_FENCE = re.compile(r"```(?:sql)?[ \t]*\n(.*?)```", re.DOTALL | re.IGNORECASE)
# Inline statements must start with an upper-case keyword: "just select words" in prose is not SQL.
_STATEMENT = re.compile(r"\b(?:SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|MERGE)\b[^;]*?(?:;|\n\s*\n|$)",
                        re.DOTALL)
_OPTION_KEYS = {"databaseType", "dialect", "allowedTables", "allowedColumns", "allowed_tables", "allowed_columns",
                "max_chars"}
_LEADING_COMMENTS = re.compile(r"\A(?:\s+|--[^\n]*(?:\n|\Z)|/\*.*?\*/)*", re.DOTALL)
_STATEMENT_START = re.compile(r"(?:SELECT|WITH|INSERT|UPDATE|DELETE|CREATE|DROP|ALTER|MERGE|REPLACE|UPSERT|SHOW|"
                              r"DESCRIBE|DESC|EXPLAIN|USE|SET|BEGIN|COMMIT|ROLLBACK|TRUNCATE|GRANT|REVOKE|VALUES|"
                              r"PRAGMA|CALL|EXEC|EXECUTE|COPY|\()\b|\(", re.IGNORECASE)
DEFAULT_MAX_CHARS = 100_000
MAX_INLINE_STATEMENTS = 100


@dataclass(frozen=True)
class _Allowed:
    operation: str | None  # select/insert/update/delete/… or None for any
    qualifier: str | None  # table (for columns) or database (for tables)
    name: str


def _allow_list(value: Any, what: str) -> list[_Allowed] | None:
    """Plain ``users`` / ``db.users`` names, or promptfoo's ``select::null::users`` authority entries."""
    if value is None:
        return None
    allowed = []
    for entry in as_list(value, what):
        entry = entry.strip()
        operation = qualifier = None
        if "::" in entry:
            parts = entry.split("::")
            if len(parts) != 3:
                raise MetricConfigError(f"{what} entry {entry!r}: use NAME, QUALIFIER.NAME or OP::QUALIFIER::NAME")
            operation = parts[0].lower() or None
            qualifier = None if parts[1].lower() in ("", "null") else parts[1].lower()
            name = parts[2]
        elif "." in entry:
            qualifier, name = entry.rsplit(".", 1)
            qualifier = qualifier.lower()
        else:
            name = entry
        allowed.append(_Allowed(operation, qualifier, name.lower()))
    return allowed


def _permitted(allowed: list[_Allowed], operation: str, qualifier: str | None, name: str) -> bool:
    return any(a.name in (name, "*") and _operation_matches(a.operation, operation)
               and (a.qualifier is None or a.qualifier == qualifier) for a in allowed)


def _operation_matches(pattern: str | None, operation: str) -> bool:
    """An entry's operation: any (None), a name, or a regular expression as promptfoo's node-sql-parser
    whitelists take (``(select|update|insert|delete)``)."""
    if pattern is None or pattern == operation:
        return True
    try:
        return re.fullmatch(pattern, operation, re.IGNORECASE) is not None
    except re.error:
        return False


class _SqlMetric(Metric):
    def setup(self) -> None:
        options = dict(self.config)
        if isinstance(self.value, dict):
            options.update(self.value)
        elif self.value is not None:
            raise MetricConfigError(f"{self.name} value must be an object like {{databaseType: MySQL}}")
        unknown = set(options) - _OPTION_KEYS
        if unknown:
            raise MetricConfigError(f"unknown {self.name} option(s) {sorted(unknown)}; use {sorted(_OPTION_KEYS)}")
        self._dialect = _dialect(options.get("dialect", options.get("databaseType")))
        self._tables = _allow_list(options.get("allowedTables", options.get("allowed_tables")), "allowedTables")
        self._columns = _allow_list(options.get("allowedColumns", options.get("allowed_columns")), "allowedColumns")
        self._max_chars = options.get("max_chars", DEFAULT_MAX_CHARS)
        if isinstance(self._max_chars, bool) or not isinstance(self._max_chars, int) or self._max_chars < 1:
            raise MetricConfigError(f"max_chars must be a positive integer, got {self._max_chars!r}")

    def check_sql(self, sql: str) -> tuple[bool, str, dict[str, Any]]:
        """Parse ``sql``; returns (ok, reason, detail) after the statement-type and allow-list checks."""
        import sqlglot
        from sqlglot import exp
        from sqlglot.errors import ParseError, TokenError

        if not sql.strip():
            return False, "empty SQL", {}
        if len(sql) > self._max_chars:
            return False, f"{len(sql):,} characters is longer than max_chars {self._max_chars:,}", {}
        body = sql[_LEADING_COMMENTS.match(sql).end():]
        if not _STATEMENT_START.match(body):
            return False, f"does not start with a SQL statement keyword: {body[:40]!r}", {}
        try:
            statements = [s for s in sqlglot.parse(sql, read=self._dialect) if s is not None]
        except (ParseError, TokenError) as exc:
            return False, f"not valid {self._dialect}: {str(exc).splitlines()[0][:200]}", {}
        if not statements:
            return False, "no SQL statement", {}
        kinds = tuple(getattr(exp, n) for n in ("Query", "DML", "DDL", "Alter", "Merge", "Show", "Describe", "Use",
                                                  "Transaction", "Commit", "Rollback") if hasattr(exp, n))
        for statement in statements:
            if not isinstance(statement, kinds):
                return False, f"{statement.sql()[:60]!r} is not a SQL statement", {}
        problem = _dialect_problem(sql, statements, self._dialect, exp)
        if problem:
            return False, f"not valid {self._dialect}: {problem}", {}
        detail: dict[str, Any] = {"statements": [type(s).__name__.lower() for s in statements]}
        violations = []
        for statement in statements:
            violations += self._violations(statement, exp)
        if violations:
            detail["violations"] = violations
            return False, "not allowed: " + "; ".join(violations), detail
        return True, f"valid {self._dialect} ({', '.join(detail['statements'])})", detail

    def _violations(self, statement: Any, exp: Any) -> list[str]:
        operation = type(statement).__name__.lower()
        if operation in ("union", "intersect", "except", "subquery"):
            operation = "select"
        ctes = {cte.alias_or_name.lower() for cte in statement.find_all(exp.CTE)}
        out = []
        if self._tables is not None:
            for table in statement.find_all(exp.Table):
                name, db = table.name.lower(), (table.db or "").lower() or None
                if name and name not in ctes and not _permitted(self._tables, operation, db, name):
                    out.append(f"table {table.sql()} ({operation})")
        if self._columns is not None:
            aliases = {a.alias.lower() for a in statement.find_all(exp.Alias)}
            # An UPDATE's or INSERT's own columns belong to the one table it writes.
            written = statement.this if isinstance(statement, (exp.Update, exp.Insert)) else None
            if isinstance(written, exp.Schema):  # INSERT INTO t (a, b): the column list
                for identifier in written.expressions:
                    name = identifier.name.lower()
                    if name and not _permitted(self._columns, operation, written.this.name.lower() or None, name):
                        out.append(f"column {identifier.sql()} ({operation})")
                written = written.this
            default_table = written.name.lower() if isinstance(written, exp.Table) else None
            for column in statement.find_all(exp.Column):
                name = column.name.lower()
                if not name or name == "*" or name in aliases:
                    continue
                qualifier = (column.table or "").lower() or default_table
                if not _permitted(self._columns, operation, qualifier, name):
                    out.append(f"column {column.sql()} ({operation})")
        return sorted(set(out))


# MySQL's SELECT modifiers: words between SELECT and the first column that are not columns.
_SELECT_MODIFIERS = frozenset({"sql_no_cache", "sql_cache", "sql_calc_found_rows", "high_priority", "straight_join",
                               "sql_small_result", "sql_big_result", "sql_buffer_result"})
_POSTGRES_ONLY = ("ILike", "GenerateSeries")  # sqlglot reads them under MySQL too, then rewrites them
_MYSQL_LOCK = re.compile(r"\bLOCK\s+IN\s+SHARE\s+MODE\b", re.IGNORECASE)


def _dialect_problem(sql: str, statements: list[Any], dialect: str, exp: Any) -> str | None:
    """What a database of ``dialect`` would refuse that sqlglot's lenient parser read anyway (the checks
    promptfoo's node-sql-parser makes per ``databaseType``); None when nothing.

    Algorithm: a SELECT with no columns (``FROM select`` read as a subquery); two bare names in a row in a
    select list, which is a missing comma far more often than an alias without AS (promptfoo's rule:
    ``SELECT first_name last_name``); a DELETE without FROM under MySQL, PostgreSQL and SQLite; ILIKE and
    generate_series under MySQL; MySQL's ``LOCK IN SHARE MODE`` elsewhere.
    """
    for statement in statements:
        for select in statement.find_all(exp.Select):
            if not select.expressions:
                return "a SELECT without columns (a reserved word used as a name?)"
        if dialect in ("mysql", "postgres", "sqlite") and isinstance(statement, exp.Delete) \
                and not statement.args.get("this"):
            return "DELETE needs FROM before the table"
        if dialect == "mysql":
            for kind in _POSTGRES_ONLY:
                node = getattr(exp, kind, None)
                if node is not None and next(statement.find_all(node), None) is not None:
                    return f"{kind.upper() if kind == 'ILike' else 'generate_series'} is not MySQL"
    if dialect != "mysql" and _MYSQL_LOCK.search(_code_only(sql, dialect)):
        return "LOCK IN SHARE MODE is MySQL's"
    pair = _adjacent_names(sql, dialect)
    if pair:
        return f"{pair[0]} {pair[1]}: a missing comma between columns?"
    return None


def _adjacent_names(sql: str, dialect: str) -> tuple[str, str] | None:
    """Two bare names in a row in a select list (``SELECT a b FROM t``), from sqlglot's tokens."""
    from sqlglot.dialects.dialect import Dialect
    from sqlglot.tokens import TokenType

    tokens = Dialect.get_or_raise(dialect).tokenize(sql)
    in_list: list[bool] = [False]  # per parenthesis depth: inside a select list
    previous = None
    for token in tokens:
        kind = token.token_type
        if kind == TokenType.L_PAREN:
            in_list.append(False)
            previous = None
            continue
        if kind == TokenType.R_PAREN:
            if len(in_list) > 1:
                in_list.pop()
            previous = None
            continue
        if kind == TokenType.SELECT:
            in_list[-1] = True
        elif kind in (TokenType.FROM, TokenType.WHERE, TokenType.GROUP_BY, TokenType.ORDER_BY, TokenType.LIMIT,
                      TokenType.HAVING, TokenType.SEMICOLON, TokenType.UNION, TokenType.INTO):
            in_list[-1] = False
        bare = kind == TokenType.VAR and token.text.lower() not in _SELECT_MODIFIERS and token.text[:1] not in "`\"["
        if in_list[-1] and bare and previous is not None:
            return previous, token.text
        previous = token.text if in_list[-1] and bare else None
    return None


def _code_only(sql: str, dialect: str) -> str:
    """``sql`` without its string literals and comments (sqlglot's tokens joined), for keyword searches."""
    from sqlglot.dialects.dialect import Dialect
    from sqlglot.tokens import TokenType

    return " ".join(t.text for t in Dialect.get_or_raise(dialect).tokenize(sql)
                    if t.token_type not in (TokenType.STRING, TokenType.NATIONAL_STRING))


DEFAULT_DIALECT = "mysql"  # promptfoo's src/assertions/sql.ts: databaseType = value.databaseType || 'MySQL'


def _dialect(name: Any) -> str:
    """The sqlglot dialect for a ``databaseType``/``dialect``; MySQL when none is named, as promptfoo."""
    if name in (None, ""):
        return DEFAULT_DIALECT
    from sqlglot.dialects.dialect import Dialect

    key = str(name).lower().replace(" ", "").replace("-", "")
    key = _DIALECT_ALIASES.get(key, key)
    try:
        Dialect.get_or_raise(key)
    except ValueError as exc:
        raise MetricConfigError(f"unknown SQL dialect {name!r}: {exc}") from None
    return key


@register("is-sql", family="format", value="optional", kind="binary",
          example="{metric: is-sql, value: {databaseType: PostgreSQL, allowedTables: [users, orders]}}")
class IsSql(_SqlMetric):
    """Pass when the whole output parses as SQL statements (sqlglot; ``databaseType``/``dialect``
    picks the dialect, MySQL when none is named, as promptfoo) and every table/column is in
    ``allowedTables``/``allowedColumns`` when given.

    What that database would refuse and sqlglot's lenient parser reads anyway fails too (as promptfoo's
    node-sql-parser does per ``databaseType``): a SELECT without columns, two bare names in a row in a
    select list (a missing comma), DELETE without FROM (MySQL, PostgreSQL, SQLite), ILIKE and
    generate_series under MySQL, ``LOCK IN SHARE MODE`` outside MySQL.

    Allow-list entries are ``name``, ``qualifier.name`` or promptfoo's ``op::qualifier::name``
    (``select::null::users``; the operation may be a regular expression, ``(select|update)``); an UPDATE's
    or INSERT's columns belong to the table it writes. CTE names and select-list aliases are not counted
    as tables/columns.
    A bare phrase that a lenient parser would read as an expression (``hello world``) is not a statement,
    and the text must start (after comments) with a statement keyword. Texts longer than
    ``max_chars`` (default 100,000) fail without parsing.
    """

    def evaluate(self, case, trace, outcome) -> MetricResult:
        ok, reason, detail = self.check_sql(outcome.output)
        return self.result(float(ok), passed=ok, reason=reason, detail=detail)


@register("contains-sql", family="format", value="optional", kind="binary",
          example="{metric: contains-sql, value: {allowedTables: [orders]}}")
class ContainsSql(_SqlMetric):
    """Pass when the output contains SQL that passes is-sql: a fenced ```sql block, the whole output,
    or an inline statement starting at an upper-case SELECT/WITH/INSERT/UPDATE/DELETE/CREATE/DROP/
    ALTER/MERGE and ending at ``;``, a blank line or the end — the first candidate that passes wins."""

    def evaluate(self, case, trace, outcome) -> MetricResult:
        text = outcome.output
        candidates = [m.group(1) for m in _FENCE.finditer(text)] + [text]
        candidates += [m.group(0) for m in itertools.islice(_STATEMENT.finditer(text), MAX_INLINE_STATEMENTS)]
        reason = "no SQL found"
        for candidate in candidates:
            ok, reason_, detail = self.check_sql(candidate)
            if ok:
                return self.result(1.0, passed=True, reason=f"contains {reason_}", detail=detail)
            if "not allowed" in reason_:
                reason = reason_
        return self.result(0.0, passed=False, reason=reason)
