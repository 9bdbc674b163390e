import pytest

from agentunit.errors import MetricConfigError
from agentunit.metrics import DEFAULT_METRICS, Metric, MetricResult, create_metric, registry, resolve_metrics
from agentunit.metrics.registry import UnknownMetricError, all_metrics, lookup, register_metric

FIRST_METRICS = ["equals", "contains", "regex", "starts-with", "latency", "tool_success", "cost", "token_usage"]


@pytest.mark.parametrize("name", FIRST_METRICS)
def test_first_metrics_are_registered_with_a_documented_algorithm(name):
    info, negated = lookup(name)
    assert not negated and info.summary and info.doc and info.example
    assert lookup(f"not-{name}") == (info, True)


def test_snake_and_kebab_names_and_aliases_resolve_to_one_entry():
    assert lookup("tool-success")[0] is lookup("tool_success")[0]
    assert lookup("Starts_With")[0].name == "starts-with"
    assert lookup("token-usage-metric")[0].name == "token_usage"
    names = [i.name for i in all_metrics()]
    assert len(names) == len(set(names))


def test_unknown_names_suggest_close_ones():
    with pytest.raises(UnknownMetricError) as info:
        lookup("contians")
    assert info.value.suggestions[0] == "contains"
    with pytest.raises(UnknownMetricError) as info:
        lookup("not-contians")
    assert info.value.suggestions[0] == "not-contains"


def test_resolve_metrics_defaults_and_specs():
    assert [m.name for m in resolve_metrics()] == list(DEFAULT_METRICS)
    built = resolve_metrics(["contains", {"metric": "latency", "threshold": 5}])
    assert built[1].threshold == 5


def test_register_metric_for_a_user_class_with_and_without_the_base():
    class WordCount:
        def evaluate(self, case, trace, outcome):
            return MetricResult("my-words", float(len(outcome.output.split())))

    register_metric("my-words", WordCount)
    metric = create_metric("not-my-words")
    assert metric.negate is True and lookup("my-words")[0].family == "custom"

    class Shouting(Metric):
        """Pass when the output is upper case."""

        def evaluate(self, case, trace, outcome):
            ok = outcome.output.isupper()
            return self.result(float(ok), passed=ok, reason="upper" if ok else "not upper")

    register_metric("shouting", Shouting, kind="binary")
    from agentunit import check

    assert check("HEY", "shouting").passed is True
    assert check("HEY", "not-shouting").passed is False
    with pytest.raises(TypeError):
        register_metric("bad", object)


@pytest.fixture
def restore_registry():
    with registry.restored():
        yield


class _Budget(Metric):
    """A subclass with its own constructor that does not take the spec."""

    def __init__(self, limit: float, unit: str = "ms"):
        self.limit, self.unit = limit, unit

    def evaluate(self, case, trace, outcome):
        return self.result(1.0, reason=f"{self.limit} {self.unit}")


def test_a_class_with_its_own_constructor_gets_its_arguments_from_config(restore_registry):
    register_metric("budget", _Budget)
    metric = create_metric("not-budget", threshold=0.5, config={"limit": 3, "unit": "s"}, weight=2)
    assert (metric.limit, metric.unit, metric.threshold, metric.weight) == (3, "s", 0.5, 2)
    assert metric.negate is True and metric.display_name == "not-budget" and metric.config == {"limit": 3, "unit": "s"}
    from agentunit import check

    assert check("x", {"metric": "budget", "config": {"limit": 1}}).reason == "1 ms"
    with pytest.raises(MetricConfigError, match=r"cannot build metric 'budget' \(_Budget\).*takes limit, unit"):
        create_metric("budget")


def test_a_users_metric_takes_over_a_builtin_name_or_alias(restore_registry):
    class Mine:
        def evaluate(self, case, trace, outcome):
            return MetricResult("faithfulness", 1.0)

    register_metric("faithfulness", Mine)
    assert lookup("faithfulness")[0].cls is Mine
    assert lookup("context-faithfulness")[0].cls.__name__ == "FaithfulnessMetric"  # its other names stay
    register_metric("my-latency", Mine, aliases=("latency",))
    assert lookup("latency")[0].cls is Mine and "latency" not in {i.name for i in all_metrics()}


def test_two_builtins_sharing_a_name_is_a_bug(restore_registry):
    class Clash:
        def evaluate(self, case, trace, outcome):
            return MetricResult("x", 1.0)

    Clash.__module__ = "agentunit.metrics.fake"
    with pytest.raises(ValueError, match="already used by 'contains'"):
        registry.register("new-one", family="text", aliases=("contains",))(Clash)
