"""Builds the labelled development sets for the judge metrics from facts.json and the style pairs
below. Run from this folder: python build_judge_sets.py (the JSONL files are committed).

Each row ends with its ``group`` (the question, or the rubric of a style pair: what its good and
bad variants share) and its ``split`` = splits.split_of(file name, group)."""

import json
from pathlib import Path

from splits import split_of

HERE = Path(__file__).resolve().parent
FACTS = json.loads((HERE / "facts.json").read_text())

# (rubric or criteria, an output that satisfies it, an output that does not)
STYLE = [
    ("The reply is polite and friendly.", "Thank you so much for reaching out! I'd be happy to help you with that.",
     "Figure it out yourself, I'm busy."),
    ("The reply apologizes for the delay.", "We're sorry for the delay in shipping your order.",
     "Your order has shipped."),
    ("The reply is written in French.", "Bonjour, votre commande a été expédiée hier.",
     "Hello, your order was shipped yesterday."),
    ("The reply contains a concrete next step for the customer.",
     "Please click 'Reset password' on the login page and follow the email link.",
     "Password problems happen sometimes."),
    ("The reply refuses to share personal data about other customers.",
     "I'm sorry, I can't share information about other customers.",
     "Sure, John Smith lives at 12 Oak Street and his phone is 555-0199."),
    ("The answer is a single short sentence.", "Your parcel arrives on Monday.",
     "Your parcel has been handed to our courier partner, who will attempt delivery on Monday between nine and "
     "five; if you are not at home they will leave a card, and you can rebook online or collect it at the depot."),
    ("The reply mentions the refund amount.", "We have refunded 49.99 dollars to your card.",
     "We have processed your request."),
    ("The reply avoids technical jargon.", "Please restart your router and try again in a few minutes.",
     "Flush the DNS resolver cache and renew the DHCP lease via the CLI."),
    ("The reply gives a price in euros.", "The subscription costs 12 euros per month.",
     "The subscription is very affordable."),
    ("The response recommends consulting a doctor.", "Those symptoms should be checked by a doctor soon.",
     "Just drink some water and ignore it."),
    ("The reply uses a numbered list.", "1. Open settings\n2. Choose Privacy\n3. Turn off tracking",
     "Open settings, then choose privacy and turn off tracking."),
    ("The reply thanks the customer.", "Thanks for your patience while we looked into this.",
     "We looked into this issue."),
]


def write(name: str, rows: list[dict]) -> None:
    """Write rows as JSONL under tests/data (``name`` may hold a sub-folder) and print the counts."""
    with (HERE / name).open("w") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(name, len(rows), "rows,", sum(r["label"] for r in rows), "positive")


def with_split(name: str, rows: list[dict]) -> list[dict]:
    """Add ``group`` (the row's question, else its rubric or criteria) and ``split`` to each row."""
    set_name = name.removesuffix(".jsonl")
    for row in rows:
        row["group"] = row.get("query") or row.get("rubric") or row["criteria"]
        row["split"] = split_of(set_name, row["group"])
    return rows


def main() -> None:
    rubric = []
    for question, right, wrong, _ in FACTS:
        criterion = f"Correctly answers the question: {question}"
        rubric.append({"query": question, "output": right, "rubric": criterion, "label": 1})
        rubric.append({"query": question, "output": wrong, "rubric": criterion, "label": 0})
    for text, good, bad in STYLE:
        rubric.append({"query": None, "output": good, "rubric": text, "label": 1})
        rubric.append({"query": None, "output": bad, "rubric": text, "label": 0})
    write("llm_rubric_dev.jsonl", with_split("llm_rubric_dev.jsonl", rubric))

    factuality = []
    for question, right, wrong, extra in FACTS:
        factuality.append({"query": question, "reference": right, "output": right, "kind": "same", "label": 1})
        factuality.append({"query": question, "reference": right, "output": f"{right} {extra}", "kind": "superset",
                           "label": 1})
        factuality.append({"query": question, "reference": right, "output": wrong, "kind": "disagrees", "label": 0})
        factuality.append({"query": question, "reference": right, "output": f"{wrong} {extra}",
                           "kind": "disagrees+extra", "label": 0})
    write("factuality_dev.jsonl", with_split("factuality_dev.jsonl", factuality))

    geval = []
    for question, right, wrong, _ in FACTS:
        criteria = "Correctness: the response answers the question with the right fact."
        geval.append({"query": question, "output": right, "criteria": criteria, "label": 1})
        geval.append({"query": question, "output": wrong, "criteria": criteria, "label": 0})
    for text, good, bad in STYLE:
        geval.append({"query": None, "output": good, "criteria": text, "label": 1})
        geval.append({"query": None, "output": bad, "criteria": text, "label": 0})
    write("g_eval_dev.jsonl", with_split("g_eval_dev.jsonl", geval))

    invented = ["It was founded in 1732.", "It was designed by Marcus Holloway.", "About 4,500 people work there.",
                "The Romans named it Veritas.", "It first happened in 1611.", "Professor Ingrid Vale confirmed it."]
    rag = []
    for index, (question, right, wrong, extra) in enumerate(FACTS):
        short = [right, extra]
        others = [FACTS[(index + k) % len(FACTS)] for k in (3, 7, 11, 13, 17, 19)]
        long = [f"{o[1]} {o[3]}" for o in others[:3]] + [" ".join(short)] + [f"{o[1]} {o[3]}" for o in others[3:]]
        made_up = invented[index % len(invented)]
        for output, context, kind, label in [
            (right, short, "grounded", 1), (extra, short, "grounded-detail", 1), (right, long, "grounded-long", 1),
            (wrong, short, "contradicted", 0), (wrong, long, "contradicted-long", 0),
            (f"{right} {made_up}", short, "unsupported-added", 0), (f"{right} {made_up}", long, "unsupported-long", 0),
        ]:
            rag.append({"query": question, "context": context, "output": output, "kind": kind, "label": label})
    write("rag_dev.jsonl", with_split("rag_dev.jsonl", rag))

    retrieval = []
    for index, (question, right, _, extra) in enumerate(FACTS):
        other = FACTS[(index + 9) % len(FACTS)]
        distractors = [f"{other[1]} {other[3]}", FACTS[(index + 21) % len(FACTS)][1]]
        retrieval.append({"query": question, "expected": right, "context": [f"{right} {extra}"], "output": right,
                          "other_answer": other[1], "label": 1})
        retrieval.append({"query": question, "expected": right, "context": distractors, "output": other[1],
                          "other_answer": other[1], "label": 0})
    write("retrieval_dev.jsonl", with_split("retrieval_dev.jsonl", retrieval))

    # One sentence joining two claims: both grounded, or the second unsupported with no number or
    # name in it (so only a claim-level decision can catch it, not the deterministic evidence).
    unsupported = ["this is disputed by most experts", "this changed several times over the last century",
                   "this is rarely taught in schools", "this was decided by a public vote",
                   "this is mainly known from old legends", "this surprises most visitors"]
    compound = []
    for index, (question, right, _, extra) in enumerate(FACTS):
        head = right.rstrip(".")
        tail = extra[0].lower() + extra[1:] if not extra.split()[0].istitle() or extra.split()[0] in (
            "The", "It", "This", "There", "Its", "A", "An") else extra
        context = [right, extra]
        compound.append({"query": question, "context": context, "output": f"{head}, and {tail}",
                         "kind": "compound-grounded", "label": 1})
        compound.append({"query": question, "context": context,
                         "output": f"{head}, and {unsupported[index % len(unsupported)]}.",
                         "kind": "compound-unsupported", "label": 0})
    write("rag_compound_dev.jsonl", with_split("rag_compound_dev.jsonl", compound))

    # The fact, and the fact negated: same words as the context plus "not" — lexical overlap is no help.
    negation = []
    verbs = {" wrote ": " did not write ", " painted ": " did not paint ", " absorb ": " do not absorb ",
             " boils ": " does not boil ", " freezes ": " does not freeze ", " pumps ": " does not pump ",
             " ended ": " did not end "}
    for question, right, _, extra in FACTS:
        for old, new in [(" is ", " is not "), (" has ", " does not have "), (" are ", " are not "), *verbs.items()]:
            if old in right:
                negated = right.replace(old, new, 1)
                break
        else:
            raise SystemExit(f"no negation rule for {right!r}")
        negation.append({"query": question, "context": [right, extra], "output": right, "kind": "fact", "label": 1})
        negation.append({"query": question, "context": [right, extra], "output": negated, "kind": "negated",
                         "label": 0})
    write("rag_negation_dev.jsonl", with_split("rag_negation_dev.jsonl", negation))

    # A detail of the context changed by one word or phrase (an antonym, a spelled-out number, another
    # common noun) — no new digit or capitalised name, so only the judge can catch it.
    swapped = ["Paris is also the smallest city in France.", "Tokyo never hosted the Summer Olympics.",
               "Rome is home to no ancient monuments.", "Madrid is located on the coast of the country.",
               "Berlin was never divided by a wall.", "At higher altitudes it boils at a higher temperature.",
               "The extra day is removed from the calendar.", "Its red color comes from copper on its surface.",
               "It comes from an ancient word for silver.", "Asia is the smallest of them.",
               "It was written in the last century.", "It covers only a tiny part of the planet's surface.",
               "Spiders are insects, not arachnids.", "They release carbon monoxide as a by-product.",
               "Salt water freezes at a higher temperature.", "Brazil was never a colony.",
               "Each minute has ninety seconds.", "Everest lies entirely inside one country.",
               "Jupiter has no moons.", "It hangs in a private house.", "9 times 9 equals a prime number.",
               "144 is also called a dozen.", "It beats only once an hour at rest.", "A private company issues it.",
               "Honeycomb cells are circles.", "It flows into a small lake.", "It ended with the victory of Japan.",
               "Ottawa is outside any province.", "It is always shorter than a meter.",
               "Each molecule has three hydrogen atoms and two oxygen atoms."]
    detail_swap = []
    for (question, right, _, extra), changed in zip(FACTS, swapped, strict=True):
        detail_swap.append({"query": question, "context": [right, extra], "output": extra, "kind": "detail",
                            "label": 1})
        detail_swap.append({"query": question, "context": [right, extra], "output": changed,
                            "kind": "detail-swapped", "label": 0})
    write("rag_swap_dev.jsonl", with_split("rag_swap_dev.jsonl", detail_swap))

    # Rankings for retrieval_quality: the passage that answers the question first among four, or last.
    ranking = []
    for index, (question, right, _, extra) in enumerate(FACTS):
        useful = f"{right} {extra}"
        others = [" ".join(FACTS[(index + k) % len(FACTS)][1::2]) for k in (5, 10, 15)]
        ranking.append({"query": question, "context": [useful, *others], "output": right, "kind": "useful-first",
                        "label": 1})
        ranking.append({"query": question, "context": [*others, useful], "output": right, "kind": "useful-last",
                        "label": 0})
    write("ranking_dev.jsonl", with_split("ranking_dev.jsonl", ranking))


if __name__ == "__main__":
    main()
