"""A Python target given as any callable (a function, a callable object, a ``functools.partial``, a builtin)
runs, and is named in the stored target and the cache key by what it calls — with a partial's bound
arguments, so two partials of one function never share cached replies."""

import functools

from agentunit import evaluate
from agentunit.datasets.base import DatasetCase
from agentunit.targets import make_target


class Shouter:
    def __call__(self, prompt):
        return prompt.upper()


def answer(prompt, suffix=""):
    return prompt + suffix


def test_callable_objects_partials_and_builtins_run_as_targets():
    cases = [{"id": "c", "prompt": "hi", "metrics": [{"metric": "contains", "value": "HI"}]}]
    for target in (Shouter(), functools.partial(answer, suffix=" HI"), str.upper):
        assert evaluate(cases=cases, target=target).passed, target


def test_the_stored_name_says_what_is_called():
    def described(function):
        return make_target({"type": "python", "function": function}).describe()["function"]

    assert described(answer) == f"{__name__}:answer"
    assert described(Shouter()) == f"{__name__}:Shouter"
    assert described(functools.partial(answer, suffix="!")) == f"{__name__}:answer(suffix='!')"
    assert described(functools.partial(answer, "x")) == f"{__name__}:answer('x')"
    assert described(functools.partial(answer, "x", suffix="!")) == f"{__name__}:answer('x', suffix='!')"
    assert described(str.upper) == "builtins:str.upper"
    assert described("examples.calc:answer") == "examples.calc:answer"


def test_two_partials_of_one_function_have_their_own_cached_replies():
    case = DatasetCase(id="c", query="q")

    def key(function):
        target = make_target({"type": "python", "function": function, "cache": True})
        return target.cache_key(target.request(case), 0)

    assert key(functools.partial(answer, suffix="a")) != key(functools.partial(answer, suffix="b"))
    assert key(functools.partial(answer, suffix="a")) == key(functools.partial(answer, suffix="a"))


def test_the_request_of_a_python_target_is_its_prompt_vars_and_id():
    target = make_target({"type": "python", "function": answer})
    case = DatasetCase(id="c7", query="q", vars={"lang": "en"})
    assert target.request(case) == {"prompt": "q", "vars": {"lang": "en"}, "id": "c7"}


def test_an_async_function_gets_the_prompt_as_its_one_positional_argument():
    async def shout(question):
        return question.upper()

    result = evaluate(cases=[{"prompt": "hi", "metrics": [{"metric": "equals", "value": "HI"}]}], target=shout)
    assert result.passed and result.cases[0]["output"] == "HI"
