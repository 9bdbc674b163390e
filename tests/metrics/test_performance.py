from agentunit import check


def test_latency_threshold_direction_and_not_measured():
    assert check("x", {"metric": "latency", "threshold": 100}, latency_ms=80.0).passed is True
    assert check("x", {"metric": "latency", "threshold": 100}, latency_ms=120.0).passed is False
    assert check("x", {"metric": "not-latency", "threshold": 100}, latency_ms=120.0).passed is True
    result = check("x", {"metric": "latency", "threshold": 100})
    assert result.value is None and result.passed is None and result.reason.startswith("not measured")


def test_cost_sums_call_and_tool_costs():
    r = check("x", "cost", cost=0.01, tool_calls=[{"name": "a", "cost": 0.005}, {"name": "b"}])
    assert abs(r.value - 0.015) < 1e-12 and r.detail["tool_calls"] == 1 and r.passed is None
    assert check("x", {"metric": "cost", "threshold": 0.01}, cost=0.02).passed is False
    assert check("x", "cost").status == "not_measured"


def test_token_usage_from_openai_and_anthropic_shapes():
    assert check("x", "token_usage", usage={"prompt_tokens": 5, "completion_tokens": 2}).value == 7
    assert check("x", "token_usage", usage={"input_tokens": 5, "output_tokens": 3}).value == 8
    assert check("x", "token_usage", usage={"total_tokens": 9, "prompt_tokens": 1}).value == 9
    assert check("x", {"metric": "token_usage", "threshold": 5}, usage={"total_tokens": 9}).passed is False
    assert check("x", "token_usage", usage={"model": "m"}).status == "not_measured"
    assert check("x", "token_usage").status == "not_measured"


def test_perplexity_from_logprobs():
    import math

    logprobs = [-0.1, -2.0, -0.5]
    ppl = math.exp(-sum(logprobs) / 3)
    result = check("abc", "perplexity", logprobs=logprobs)
    assert result.value == ppl and result.passed is None and result.detail["tokens"] == 3
    assert check("abc", {"metric": "perplexity", "threshold": 2}, logprobs=logprobs).passed is False
    assert check("abc", "perplexity-score", logprobs=logprobs).value == 1 / (1 + ppl)
    assert check("abc", {"metric": "perplexity-score", "threshold": 0.25}, logprobs=logprobs).passed is True
    short = check("ok", "perplexity")
    assert short.status == "not_measured" and "too short" in short.reason
