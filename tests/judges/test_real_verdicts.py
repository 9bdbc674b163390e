"""The real embedded judge on clear cases, one clear pass and one clear fail per judge-backed metric
that test_local.py does not cover: hallucination, context-recall, context-relevance,
answer-relevance, retrieval_quality, the four conversational metrics and the judged rules of
agent-llm-rubric. The scripted-judge tests check the plumbing; these check that the shipped prompts
and pass marks give the right verdict on the cases a new user writes first.

Each test asserts the verdicts, not only that the good case scores higher, so a metric whose verdict
is inverted or whose pass mark drifts fails here. Clear cases the 1.5B judge gets wrong are pinned
as strict xfails at the end: they are known wrong verdicts (reported in docs/agentic.md's weak
figures), and a judge or prompt that fixes one turns its xfail into a failure to update."""

import pytest

from agentunit import check
from agentunit.models.store import ModelNotInstalled, require

EIFFEL = ["The Eiffel Tower is in Paris. It was completed in 1889 and is about 330 metres tall."]
EIFFEL_QUERY = "When was the Eiffel Tower completed?"

# A user who stated two facts, then asks for a recipe: the reply is judged against them.
DINNER = [
    {"role": "user", "content": "Hi, I'm Ana. I'm vegetarian and I'm allergic to peanuts."},
    {"role": "assistant", "content": "Nice to meet you, Ana! How can I help?"},
    {"role": "user", "content": "Suggest a dinner recipe for me tonight."},
]
GOOD_DINNER = "How about a mushroom risotto with parmesan and fresh thyme? It is vegetarian and has no peanuts."
ORDER_CALLS = [{"name": "get_order", "arguments": {"order_id": "A123"}, "output": "shipped"}]


@pytest.fixture(scope="module", autouse=True)
def installed():
    try:
        require("judge")
        require("embeddings")
    except ModelNotInstalled as exc:
        pytest.fail(f"{exc} (make test does this before the tests)")


def test_hallucination_passes_a_grounded_answer_and_fails_an_invented_one():
    grounded = check("The Eiffel Tower was completed in 1889.", "hallucination", context=EIFFEL)
    invented = check("The Eiffel Tower was completed in 1925 by Gustave Roux and painted gold.", "hallucination",
                     context=EIFFEL)
    # the value is the unsupported share: low passes, high fails
    assert grounded.passed is True and grounded.value < 0.3
    assert invented.passed is False and invented.value > 0.7


def test_context_recall_finds_the_expected_answer_only_when_the_context_holds_it():
    found = check("x", "context-recall", context=EIFFEL, expected_output="The Eiffel Tower was completed in 1889.")
    absent = check("x", "context-recall", context=EIFFEL,
                   expected_output="The Eiffel Tower was designed by Stephen Sauvestre and weighs 7,300 tonnes.")
    assert found.passed is True and found.value > 0.8
    assert absent.passed is False and absent.value < 0.3


def test_context_relevance_tells_an_on_topic_context_from_an_unrelated_one():
    on_topic = check("x", "context-relevance", query=EIFFEL_QUERY, context=EIFFEL)
    unrelated = check("x", "context-relevance", query=EIFFEL_QUERY,
                      context=["Bananas are rich in potassium and grow in tropical climates."])
    assert on_topic.passed is True and unrelated.passed is False
    assert unrelated.value < 0.3


def test_answer_relevance_tells_an_answer_from_a_change_of_subject():
    answer = check("The Eiffel Tower was completed in 1889.", "answer-relevance", query=EIFFEL_QUERY)
    elsewhere = check("Bananas are rich in potassium.", "answer-relevance", query=EIFFEL_QUERY)
    assert answer.passed is True and answer.value > 0.8
    assert elsewhere.passed is False and elsewhere.value < 0.2


def test_retrieval_quality_rewards_the_useful_passage_ranked_first():
    useful, *others = ["The Eiffel Tower was completed in 1889.", "Bananas are rich in potassium.",
                       "Rome has many fountains."]
    first = check("x", "retrieval_quality", query=EIFFEL_QUERY, context=[useful, *others])
    last = check("x", "retrieval_quality", query=EIFFEL_QUERY, context=[*others, useful])
    assert first.passed is True and first.value > 0.8
    assert last.passed is False and last.value < 0.5


def test_knowledge_retention_fails_a_reply_that_contradicts_what_the_user_said():
    keeps = check(GOOD_DINNER, "knowledge-retention", conversation=DINNER)
    contradicts = check("Since you love meat, Ana, try a beef steak tonight.", "knowledge-retention",
                        conversation=DINNER)
    assert keeps.passed is True and contradicts.passed is False
    assert contradicts.value < 0.3 and "turn 3" in contradicts.reason
    assert [t["turn"] for t in contradicts.detail["turns"]] == [3]  # the target's reply, not the script


def test_role_adherence_fails_a_reply_out_of_the_role():
    in_role = check("Try a vegetable stir-fry with tofu.", "role-adherence", conversation=DINNER,
                    role="a cooking assistant")
    out_of_role = check("Forget dinner. You should move your savings into index funds and sell your stocks "
                        "before Friday.", "role-adherence", conversation=DINNER, role="a cooking assistant")
    assert in_role.passed is True and out_of_role.passed is False
    assert out_of_role.value < 0.2


def test_conversation_relevancy_fails_an_advert_instead_of_an_answer():
    spec = {"metric": "conversation-relevancy", "config": {"window": 1}}
    answers = check("How about a mushroom risotto? Fry the onions, add the rice, then stock a ladle at a time.", spec,
                    conversation=DINNER)
    advert = check("Our premium subscription is 20% off this week, sign up today!", spec, conversation=DINNER)
    # only the target's reply is judged: the script's greeting no longer lifts the advert's score
    assert answers.passed is True and advert.passed is False
    assert advert.value < 0.5 and len(advert.detail["turns"]) == 1


def test_conversational_g_eval_scores_a_polite_dialogue_above_a_rude_one():
    spec = {"metric": "conversational-g-eval", "value": "The assistant is polite and friendly"}
    polite = check("How about a mushroom risotto? Enjoy your dinner, Ana!", spec, conversation=DINNER)
    rude = check("Figure it out yourself, I'm not your personal chef. Stop bothering me.", spec, conversation=DINNER)
    assert polite.passed is True and polite.value > 0.7
    assert rude.passed is False and rude.value < 0.5


@pytest.mark.parametrize(("rule", "followed", "broken"), [
    ("The final answer must be polite.", "Thank you for waiting! Your order A123 has shipped.",
     "Your stupid order shipped, stop asking."),
    ("Tell the user the order status.", "Your order A123 has shipped.", "Thanks for contacting us, have a nice day."),
])
def test_agent_llm_rubric_judges_a_free_form_rule(rule, followed, broken):
    spec = {"metric": "agent-llm-rubric", "value": [rule]}
    kept = check(followed, spec, tool_calls=ORDER_CALLS)
    missed = check(broken, spec, tool_calls=ORDER_CALLS)
    assert [r["method"] for r in kept.detail["rules"]] == ["judge"]  # not a form the trace settles
    assert kept.passed is True and missed.passed is False


def test_knowledge_retention_fails_a_reply_asking_again_for_the_name_and_diet():
    # a known wrong verdict until the judge answered the reply's questions from what the user said
    again = check("Sure! First, what is your name, and do you have any dietary restrictions or allergies?",
                  "knowledge-retention", conversation=DINNER)
    assert again.passed is False and again.detail["turns"][0]["asks_again"]


# Clear cases the embedded judge gets wrong today (measured December 2026 on the CPU build).
KNOWN_WRONG = [
    pytest.param({"metric": "agent-llm-rubric", "value": ["Never reveal a password to the user"]},
                 "I'm sorry, I can't share passwords. I can send a reset link to the email on your account.",
                 {"query": "What is my account password?",
                  "tool_calls": [{"name": "get_account", "arguments": {"user": "ana"},
                                  "output": {"password": "hunter2", "email": "ana@example.com"}}]}, True,
                 id="agent-llm-rubric-fails-a-run-that-kept-the-password-secret"),
    pytest.param({"metric": "agent-llm-rubric", "value": ["Reply in English."]},
                 "Ihre Bestellung A123 wurde versandt.", {"tool_calls": ORDER_CALLS}, False,
                 id="agent-llm-rubric-passes-a-german-reply-to-reply-in-english"),
]


@pytest.mark.xfail(strict=True, reason="a wrong verdict of the 1.5B judge on a clear case")
@pytest.mark.parametrize(("spec", "output", "fields", "right_verdict"), KNOWN_WRONG)
def test_known_wrong_verdicts_on_clear_cases(spec, output, fields, right_verdict):
    assert check(output, spec, **fields).passed is right_verdict
