"""The real embedded judge (installed by `make test` with `agentunit models install judge`) on clear cases."""

import pytest

from agentunit import check
from agentunit.models.store import ModelNotInstalled, require


@pytest.fixture(scope="module", autouse=True)
def installed():
    try:
        require("judge")
        require("embeddings")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")


def test_llm_rubric_on_clear_cases():
    good = check("The capital of France is Paris.", {"metric": "llm-rubric", "value": "Correctly names the capital"},
                 query="What is the capital of France?")
    bad = check("Figure it out yourself, I'm busy.", {"metric": "llm-rubric", "value": "The reply is polite."})
    assert good.passed is True and bad.passed is False
    assert good.detail["judge"]["source"] == "logprobs" and good.value > bad.value


def test_llm_rubric_correctness_is_compared_with_the_judges_own_answer():
    rubric = {"metric": "llm-rubric", "value": "Correctly answers the question."}
    question = "What is the largest ocean?"
    wrong = check("The Atlantic is the largest ocean on Earth.", rubric, query=question)
    right = check("The Pacific is the largest ocean on Earth.", rubric, query=question)
    lowered = wrong.detail["criteria"][0]
    assert lowered["judge_probability"] >= 0.75  # asked to grade, the small judge passes the wrong answer
    assert "pacific" in lowered["judge_answer"].lower() and lowered["judge_answer_found"] == 0
    assert wrong.passed is False and right.passed is True


def test_factuality_and_g_eval_on_clear_cases():
    agree = check("Paris is the capital of France.",
                  {"metric": "factuality", "value": "The capital of France is Paris."},
                  query="What is the capital of France?")
    disagree = check("Berlin is the capital of France.",
                     {"metric": "factuality", "value": "The capital of France is Paris."},
                     query="What is the capital of France?")
    assert agree.value > disagree.value and disagree.detail["category"] == "disagrees"
    polite = check("Thank you for your patience! Your refund was issued today.",
                   {"metric": "g-eval", "value": "Politeness of a customer support reply"})
    rude = check("Not my problem.", {"metric": "g-eval", "value": "Politeness of a customer support reply"})
    assert polite.value > rude.value and len(polite.detail["steps"]) >= 2


def test_answer_correctness_uses_statements_and_embeddings():
    exact = check("paris", {"metric": "answer_correctness", "value": "Paris."})
    assert exact.value == 1.0 and exact.detail["method"] == "exact"
    close = check("Paris is the capital of France.", {"metric": "answer_correctness",
                                                      "value": "The capital of France is Paris."})
    wrong = check("Rome is the capital of France.", {"metric": "answer_correctness",
                                                     "value": "The capital of France is Paris."})
    assert close.detail["method"] == "statements+embeddings" and close.value > wrong.value


def test_context_faithfulness_on_clear_cases():
    context = ["The Eiffel Tower is in Paris. It was completed in 1889 and is about 330 metres tall."]
    grounded = check("The Eiffel Tower was completed in 1889.", "context-faithfulness", context=context)
    invented = check("The Eiffel Tower was completed in 1925 by Gustave Roux.", "context-faithfulness",
                     context=context)
    assert grounded.passed is True and invented.passed is False
    assert invented.detail["claims"][0]["missing_numbers"] == ["1925"]


def test_a_short_answer_is_compared_with_the_real_judges_own_answer():
    context = ["The Eiffel Tower is in Paris. It was completed in 1889 and is about 330 metres tall."]
    result = check("Paris.", "context-faithfulness", query="In which city is the Eiffel Tower?", context=context)
    claim = result.detail["claims"][0]
    assert "paris" in claim["judge_answer"].lower() and claim["answer_f1"] >= 0.7
    assert result.passed and claim["support"] > claim["judge_probability"]


RUBRIC_SYSTEM = "You are a strict grader. Reply FAIL or PASS."
ORDER_CASES = [("Correctly names the capital", "The capital of France is Paris."),
               ("The reply is polite.", "Figure it out yourself, I'm busy."),
               ("Mentions the 30-day refund period", "Yes, you can return them within 30 days for a full refund.")]


def _rubric_request(rubric, response):
    from agentunit.judges.base import JudgeRequest

    user = (f"Requirement: {rubric}\nResponse: {response}\n\nIf the response does not meet the requirement, or states "
            "anything false, reply FAIL. Otherwise reply PASS.")
    return JudgeRequest((("system", RUBRIC_SYSTEM), ("user", user)), options=("PASS", "FAIL"))


def _p_pass(provider, request):
    from agentunit.judges.base import read_decision

    return read_decision(provider._call(request), request.options)[1]["PASS"]


@pytest.mark.slow
def test_the_same_request_gets_the_same_probabilities_whatever_ran_before():
    import subprocess
    import sys

    from agentunit.judges.base import JudgeRequest
    from agentunit.judges.local import LocalProvider
    from tests.conftest import ROOT

    provider = LocalProvider({})  # a model of its own: nothing in its prompt cache yet
    requests = [_rubric_request(*case) for case in ORDER_CASES]
    forward = [_p_pass(provider, r) for r in requests]  # the first on a fresh model, each later one after others
    provider._call(JudgeRequest((("user", "Name three colours."),), max_tokens=8))  # free text in between
    backward = [_p_pass(provider, r) for r in reversed(requests)][::-1]
    third = _p_pass(provider, requests[0])  # seen three times: its shared prefix is restored from a saved state
    assert backward == forward and third == forward[0]
    assert provider._prefill.restored >= 1
    # alone in a fresh process, the second request (asked after the first here) scores the same, exactly
    script = ("import sys; sys.path.insert(0, 'src'); from tests.judges.test_local import _rubric_request, _p_pass, "
              "ORDER_CASES; from agentunit.judges.local import LocalProvider; "
              "print(repr(_p_pass(LocalProvider({}), _rubric_request(*ORDER_CASES[1]))))")
    alone = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert alone.returncode == 0, alone.stderr[-2000:]
    assert float(alone.stdout.strip().splitlines()[-1]) == forward[1]


def test_any_gguf_file_is_a_judge_with_its_own_verdicts(tmp_path, monkeypatch):
    import asyncio

    from agentunit.judges.service import JudgeService
    from agentunit.models.catalog import MODELS

    path = require("perplexity") / "smollm2-135m.gguf"  # a 135M model stands in for "any.gguf"
    monkeypatch.setenv("AGENTUNIT_HOME", str(tmp_path))  # the fingerprint memo goes here
    service = JudgeService({"provider": "local", "model_path": str(path)})
    described = service.provider.describe()
    pinned = MODELS["perplexity"].files[0].sha256
    assert described["sha256"] == pinned and described["path"] == str(path.resolve())
    assert described["model"] == f"smollm2-135m@{pinned[:12]}"
    request = _rubric_request(*ORDER_CASES[0])
    assert service.key(request) != JudgeService({"provider": "local"}).key(request)  # never the embedded judge's
    decision = asyncio.run(service.decide(request))
    assert decision.option in ("PASS", "FAIL") and sum(decision.probabilities.values()) == pytest.approx(1)
    assert decision.usage["prompt_tokens"] > 20 and service.stats.calls == 1
    again = asyncio.run(service.decide(request))
    assert again.cached and again.probabilities == decision.probabilities and service.stats.calls == 1
    assert pinned in (tmp_path / "fingerprints.json").read_text()


def test_gpu_layers_reach_the_llama_cpp_parameters(monkeypatch):
    import xllamacpp

    from agentunit.errors import AgentUnitError
    from agentunit.judges import local
    from agentunit.judges.service import JudgeService

    gpus = [d for d in xllamacpp.get_device_info() if d["type"].name.endswith(("_GPU", "_IGPU"))]
    assert local.has_gpu() is bool(gpus)
    assert local.llama_params({}, "m.gguf").n_gpu_layers == (local.ALL_LAYERS if gpus else 0)
    assert local.llama_params({"n_gpu_layers": 7}, "m.gguf").n_gpu_layers == 7
    gpu = xllamacpp.ggml_backend_dev_type.GGML_BACKEND_DEVICE_TYPE_GPU
    monkeypatch.setattr(xllamacpp, "get_device_info", lambda: [{"name": "CUDA0", "type": gpu}])
    assert local.has_gpu() and local.llama_params({}, "m.gguf").n_gpu_layers == local.ALL_LAYERS
    assert local.llama_params({"n_gpu_layers": 0}, "m.gguf").n_gpu_layers == 0
    params = local.llama_params({}, "m.gguf", "/tmp/states/")
    assert params.slot_save_path == "/tmp/states/" and params.cache_ram_mib == 0 and params.model.path == "m.gguf"
    for bad in (-1, 1.5, True, "all"):
        with pytest.raises(AgentUnitError, match="n_gpu_layers must be a whole number"):
            JudgeService({"provider": "local", "n_gpu_layers": bad})


def test_no_other_process_can_touch_the_in_process_judges_slot():
    import json
    import urllib.error
    import urllib.request

    from agentunit.judges.local import LocalProvider

    provider = LocalProvider({"model_path": str(require("perplexity") / "smollm2-135m.gguf")})
    assert provider._call(_rubric_request(*ORDER_CASES[1])).text in ("PASS", "FAIL")  # our own calls pass
    for path in ("/slots/0?action=restore", "/completion", "/v1/chat/completions"):
        request = urllib.request.Request(provider._server.listening_address + path, headers={
            "content-type": "application/json"}, data=json.dumps({"filename": "x.bin", "prompt": "x"}).encode())
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(request, timeout=30)
        assert refused.value.code == 401
