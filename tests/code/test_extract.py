"""Code extraction shared by the code metrics."""

import pytest

from agentunit.code.extract import code_blocks, normalise_language, select_code
from agentunit.errors import MetricConfigError

REPLY = """Here is the function:

```python
def add(a, b):
    return a + b
```

And a test:

~~~
assert add(1, 2) == 3
~~~

Run it with:
```sh
python add.py
```
"""


def test_fenced_blocks_in_order_with_normalised_tags():
    blocks = code_blocks(REPLY)
    assert [(b.tag, b.index, b.fenced) for b in blocks] == [("python", 0, True), (None, 1, True), ("bash", 2, True)]
    assert blocks[0].code == "def add(a, b):\n    return a + b"
    assert blocks[1].code == "assert add(1, 2) == 3"


def test_without_fences_the_whole_output_is_the_code():
    (block,) = code_blocks("\nprint('hi')\n")
    assert block.code == "print('hi')" and block.fenced is False and block.tag is None
    assert code_blocks("   \n") == []


def test_a_longer_fence_holds_a_shorter_one_and_indented_fences_are_dedented():
    text = "````markdown\n```python\nx = 1\n```\n````\n  ```js\n  let y = 2;\n  ```\n"
    outer, inner = code_blocks(text)
    assert outer.tag == "markdown" and outer.code == "```python\nx = 1\n```"
    assert inner.tag == "javascript" and inner.code == "let y = 2;"


@pytest.mark.parametrize(("block", "codes"), [
    ("first", ["def add(a, b):\n    return a + b"]), ("last", ["python add.py"]), (1, ["assert add(1, 2) == 3"]),
])
def test_config_block_picks_one(block, codes):
    picked, why = select_code(REPLY, block)
    assert [b.code for b in picked] == codes and why is None


def test_all_blocks_and_honest_misses():
    assert len(select_code(REPLY, "all")[0]) == 3
    assert select_code(REPLY, 5) == ([], "config.block is 5 but the output has 3 code block(s)")
    assert select_code("", "first") == ([], "the output holds no code")


@pytest.mark.parametrize("bad", ["second", -1, True, 1.5, None])
def test_a_bad_block_setting_is_a_config_error(bad):
    with pytest.raises(MetricConfigError, match=r"config\.block"):
        select_code(REPLY, bad)


def test_language_aliases():
    assert [normalise_language(n) for n in ("Py", "C++", "c#", "golang", "TS", "js")] == \
        ["python", "cpp", "csharp", "go", "typescript", "javascript"]
