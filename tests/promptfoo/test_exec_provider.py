"""promptfoo's exec: provider gets the prompt, its options and the call's context as promptfoo passes them."""

import json
import sys
from pathlib import Path

from agentunit import evaluate

_SCRIPT = """
import json, sys
prompt, options, context = sys.argv[1], json.loads(sys.argv[2]), json.loads(sys.argv[3])
print(f"{prompt}|{options['config']['tone']}|{context['vars']['city']}|{options['id']}")
"""


def test_the_script_reads_the_prompt_options_and_context(tmp_path: Path) -> None:
    (tmp_path / "provider.py").write_text(_SCRIPT)
    (tmp_path / "promptfooconfig.yaml").write_text(f"""
prompts: ["Weather in {{{{city}}}}?"]
providers:
  - id: "exec: {sys.executable} provider.py"
    config: {{tone: dry, basePath: "{tmp_path}"}}
tests:
  - vars: {{city: Paris}}
    assert: [{{type: equals, value: "Weather in Paris?|dry|Paris|exec: {sys.executable} provider.py"}}]
""")
    result = evaluate(tmp_path / "promptfooconfig.yaml")
    case = result.cases[0]
    assert case["status"] == "passed", case
    assert json.dumps(case).count("Weather in Paris?") >= 1
