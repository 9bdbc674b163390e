"""A real OpenAI-compatible (and Anthropic Messages) HTTP judge server for tests: scripted replies by
keywords in the last message, every request recorded, an optional delay per reply."""

import json
import math
import time

from tests.http_helpers import LocalServer, Reply


class ScriptedJudge:
    """Answers by keywords in the last message; records every request's body in ``requests`` (a
    ``LocalServer``, ``server``, does the HTTP)."""

    def __init__(self):
        self.requests = []
        self.anthropic_headers = []
        self.reject_logprobs = False
        self.delay = 0.0  # seconds before each reply, so concurrent requests overlap
        self.pass_probability = 0.8  # P(PASS) of the default PASS/FAIL answer, before "pass"/"The" alternatives
        self.server = LocalServer(self._reply, path="/v1")
        self.url = self.server.url

    def _reply(self, request):
        body = request.json
        self.requests.append(body)
        time.sleep(self.delay)
        if request.path == "/v1/messages":  # Anthropic's Messages API: text only
            self.anthropic_headers.append(dict(request.headers))
            text = self.answer({"messages": body["messages"]})["choices"][0]["message"]["content"]
            return Reply(200, {"content": [{"type": "text", "text": text}],
                               "usage": {"input_tokens": 40, "output_tokens": 1}})
        if self.reject_logprobs and body.get("logprobs"):
            return Reply(400, {"error": {"message": "logprobs not supported"}})
        return Reply(200, self.answer(body))

    def answer(self, body):
        reply = self._answer(body)
        if "Answer yes or no" in body["messages"][-1]["content"]:  # llm-rubric's question: PASS means yes
            reply = json.loads(json.dumps(reply).replace('"PASS"', '"yes"').replace('"FAIL"', '"no"')
                               .replace('"pass"', '"Yes"'))
        return reply

    def _answer(self, body):
        last = body["messages"][-1]["content"]
        strict = "Reply with exactly one of" in last
        usage = {"prompt_tokens": 50, "completion_tokens": 1}
        if "json_schema" in json.dumps(body.get("response_format", {})):
            return _completion(json.dumps({"steps": ["Read it.", "Judge it."]}), None, usage)
        if "GARBAGE" in last:
            return _completion("maybe later", None, usage)
        if "RETRYFIX" in last:
            return _completion("PASS" if strict else "hmm", None, usage)
        if "Answer with a single digit" in last:
            return _completion("4", [("4", 0.6), ("5", 0.3), ("3", 0.1)] if body.get("logprobs") else None, usage)
        if "Submitted answer: Lyon" in last and "contradicts" in last:
            return _completion("FAIL", [("FAIL", 0.7), ("PASS", 0.3)] if body.get("logprobs") else None, usage)
        if "Submitted answer: Lyon" in last and "every fact" in last:
            return _completion("FAIL", [("FAIL", 0.6), ("PASS", 0.4)] if body.get("logprobs") else None, usage)
        if "In one sentence" in last:
            return _completion("The response names Paris, the capital. It is right.", None, usage)
        p = self.pass_probability
        top = [("PASS", p), ("FAIL", 1 - p), ("pass", 0.05), ("The", 0.01)] if body.get("logprobs") else None
        return _completion("PASS" if p >= 0.5 else "FAIL", top, usage)

    def close(self):
        self.server.close()


def _completion(text, top, usage):
    choice = {"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": text}}
    if top:
        choice["logprobs"] = {"content": [{"token": text, "logprob": math.log(top[0][1]),
                                           "top_logprobs": [{"token": t, "logprob": math.log(p)} for t, p in top]}]}
    return {"choices": [choice], "usage": usage}
