"""Runs DeepEval's FaithfulnessMetric or RAGAS's Faithfulness on cases, against an OpenAI-compatible judge.

Meant for a separate virtual environment holding deepeval / ragas (see bench/rag_vs_frameworks.py);
imports nothing from agentunit. Reads cases (JSONL) on stdin, writes one JSON line per case:
{"i": index, "score": float | null, "error": str | null, "seconds": float}.

Usage: python _rag_frameworks_worker.py deepeval|ragas BASE_URL < cases.jsonl
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time

os.environ.setdefault("DEEPEVAL_TELEMETRY_OPT_OUT", "YES")
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")
MODEL = "judge"


def deepeval_scorer(base_url: str):
    import openai
    from deepeval.metrics import FaithfulnessMetric
    from deepeval.models import DeepEvalBaseLLM
    from deepeval.test_case import LLMTestCase

    client = openai.OpenAI(base_url=base_url, api_key="none", timeout=600)

    class ServedJudge(DeepEvalBaseLLM):
        """DeepEval's documented custom-model hook; JSON-schema output when DeepEval asks for a schema."""

        def __init__(self):
            super().__init__(model=MODEL)

        def load_model(self):
            return client

        def generate(self, prompt: str, schema=None):
            extra = {}
            if schema is not None:
                extra["response_format"] = {"type": "json_schema", "json_schema": {
                    "name": schema.__name__, "schema": schema.model_json_schema()}}
            reply = client.chat.completions.create(model=MODEL, temperature=0, max_tokens=1024,
                                                   messages=[{"role": "user", "content": prompt}], **extra)
            text = reply.choices[0].message.content or ""
            return schema.model_validate_json(text) if schema is not None else text

        async def a_generate(self, prompt: str, schema=None):
            return self.generate(prompt, schema)

        def get_model_name(self):
            return "agentunit-served-judge"

    judge = ServedJudge()

    def run(case: dict) -> float:
        metric = FaithfulnessMetric(model=judge, include_reason=False, async_mode=False)
        metric.measure(LLMTestCase(input=case["query"], actual_output=case["output"],
                                   retrieval_context=case["context"]))
        return float(metric.score)

    return run


def ragas_scorer(base_url: str):
    from langchain_openai import ChatOpenAI
    from ragas.dataset_schema import SingleTurnSample
    from ragas.llms import LangchainLLMWrapper
    from ragas.metrics import Faithfulness

    llm = LangchainLLMWrapper(ChatOpenAI(model=MODEL, base_url=base_url, api_key="none", temperature=0,
                                         max_tokens=1024, timeout=600))
    metric = Faithfulness(llm=llm)

    def run(case: dict) -> float:
        sample = SingleTurnSample(user_input=case["query"], response=case["output"],
                                  retrieved_contexts=case["context"])
        return float(asyncio.run(metric.single_turn_ascore(sample)))

    return run


def main() -> None:
    framework, base_url = sys.argv[1], sys.argv[2]
    run = deepeval_scorer(base_url) if framework == "deepeval" else ragas_scorer(base_url)
    for i, line in enumerate(sys.stdin):
        case = json.loads(line)
        start = time.perf_counter()
        score, error = None, None
        try:
            score = run(case)
            if score != score:  # NaN: RAGAS's way of saying it could not parse the judge
                score, error = None, "NaN score"
        except Exception as exc:  # a case the framework could not score is reported, the run goes on
            error = f"{type(exc).__name__}: {str(exc)[:200]}"
        print(json.dumps({"i": i, "score": score, "error": error, "seconds": time.perf_counter() - start}),
              flush=True)


if __name__ == "__main__":
    main()
