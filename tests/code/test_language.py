"""The code-language classifier and its labelled set (tests/data/code_languages)."""

import json
import sys
import threading
from collections import Counter
from pathlib import Path

import pytest

from agentunit.code.language import (
    LANGUAGES,
    CodeAnalysisUnavailable,
    canonical_language,
    classify_language,
    code_tokens,
)

DATA = Path(__file__).resolve().parents[1] / "data"
sys.path.insert(0, str(DATA))
from build_code_languages import build  # noqa: E402

ROWS = [json.loads(line) for line in (DATA / "code_languages" / "snippets.jsonl").read_text().splitlines()]
TEST = [r for r in ROWS if r["split"] == "test"]


def test_labelled_set_is_built_from_the_programs_and_split_by_program():
    assert build() == ROWS  # the committed file is what the builder makes
    per_language = Counter(r["language"] for r in ROWS)
    assert len(per_language) >= 20 and min(per_language.values()) >= 10
    assert set(per_language) == set(LANGUAGES)
    short = [r for r in ROWS if r["kind"] == "short"]
    assert len(short) >= 200 and all(r["code"].count("\n") + 1 <= 12 for r in short)
    assert sum(r["code"].count("\n") + 1 >= 6 for r in short) >= 0.9 * len(short)
    for language in LANGUAGES:  # both parts hold every language; no program straddles them
        assert {r["split"] for r in ROWS if r["language"] == language} == {"tune", "test"}
    splits = {}
    for r in ROWS:
        assert splits.setdefault(r["group"], r["split"]) == r["split"]


@pytest.mark.parametrize(("name", "canonical"), [
    ("cpp", "cpp"), ("C++", "cpp"), ("csharp", "csharp"), ("c#", "csharp"), ("js", "javascript"),
    ("JavaScript", "javascript"), ("ts", "typescript"), ("golang", "go"), ("go", "go"), ("sh", "bash"),
    ("shell", "bash"), ("py", "python"), ("rb", "ruby"), ("rs", "rust"), ("kt", "kotlin"), ("hs", "haskell"),
    ("cobol", None), ("", None),
])
def test_language_names_fold_common_aliases(name, canonical):
    assert canonical_language(name) == canonical


def test_at_least_the_twenty_most_used_languages():
    assert {"python", "javascript", "typescript", "java", "c", "cpp", "csharp", "go", "rust", "ruby", "php",
            "swift", "kotlin", "scala", "bash", "sql", "html", "css", "r", "lua", "perl", "haskell"} <= set(LANGUAGES)


@pytest.fixture(scope="module")
def guesses():
    return {r["id"]: classify_language(r["code"]) for r in TEST}


def test_accuracy_on_the_test_split_long_and_short(guesses):
    right = Counter()
    for r in TEST:
        right[r["kind"]] += guesses[r["id"]].language == r["language"]
    kinds = Counter(r["kind"] for r in TEST)
    assert sum(right.values()) / len(TEST) >= 0.9
    assert right["short"] / kinds["short"] >= 0.85
    assert right["long"] / kinds["long"] >= 0.95


def test_every_language_is_recognised_on_most_of_its_snippets(guesses):
    for language in LANGUAGES:
        rows = [r for r in TEST if r["language"] == language]
        assert sum(guesses[r["id"]].language == language for r in rows) >= 0.6 * len(rows), language


def test_probabilities_are_ranked_and_sum_to_one(guesses):
    guess = next(iter(guesses.values()))
    probabilities = [p for _, p in guess.ranked]
    assert probabilities == sorted(probabilities, reverse=True)
    assert abs(sum(probabilities) - 1) < 1e-9 and len(guess.ranked) == len(LANGUAGES)
    assert [c["language"] for c in guess.top(3)] == [name for name, _ in guess.ranked[:3]]


JS = """const items = [3, 1, 2];
const doubled = items.map((n) => n * 2);
function total(list) {
  return list.reduce((sum, n) => sum + n, 0);
}
console.log(doubled, total(items));
document.querySelector('#out').textContent = `${total(doubled)}`;"""
C_LIKE = """int add(int a, int b) {
    return a + b;
}

int twice(int x) {
    return add(x, x);
}"""


def test_a_fence_tag_is_evidence_not_the_truth():
    assert classify_language(JS, "python").language == "javascript"  # content outweighs a wrong tag
    plain = classify_language(C_LIKE)
    assert {plain.language} <= {"c", "cpp"}
    # On code valid in both C and C++, the tag decides, and raises that language's probability.
    assert classify_language(C_LIKE, "c").language == "c"
    assert classify_language(C_LIKE, "c++").language == "cpp"
    assert classify_language(C_LIKE, "cpp").probability_of("cpp") > plain.probability_of("cpp")
    assert classify_language(JS, "klingon").ranked == classify_language(JS).ranked  # unknown tags ignored


def test_wrong_tags_rarely_flip_the_answer():
    rows = TEST[::5]
    flipped = 0
    for r in rows:
        wrong = LANGUAGES[(LANGUAGES.index(r["language"]) + 7) % len(LANGUAGES)]
        flipped += classify_language(r["code"], wrong).language != r["language"]
    assert flipped <= 0.15 * len(rows)


def test_tokens_blank_string_bodies():
    # punctuation runs stay together ('("'), as the token model was trained
    assert code_tokens('x := fmt.Sprintf("hello world %d", n)') == ["x", ":=", "fmt", ".", "Sprintf", '("', "S", '",',
                                                                   "n", ")"]
    assert code_tokens("my $total = @items;") == ["my", "$total", "=", "@items", ";"]


def test_missing_grammars_name_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "tree_sitter_language_pack", None)
    errors = []

    def run():  # a fresh thread has no cached parsers
        try:
            classify_language("print(1)")
        except CodeAnalysisUnavailable as exc:
            errors.append(str(exc))

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert errors and "agentunit[code]" in errors[0]
