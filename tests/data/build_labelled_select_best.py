"""Builds tests/data/labelled/select_best.jsonl, the labelled set of promptfoo's ``select-best``
(README.md there gives the rules and the counts).

One group is one promptfoo test: a criterion (the assertion's value) and 2-4 candidate outputs (the
test's outputs across prompts and providers), exactly one of which a careful person would pick as
best. That row has ``label`` 1, the others 0. Rows carry the criterion as ``criteria``; their ``n``
(the last part of the id) is the candidate's position in the order the judge is shown, shuffled
with a seed from the group name, so the best candidate is not always first.

Two sources:

- ``rubric-*`` kinds: every llm_rubric group (its rubric as the criterion, its passing and its
  failing output as the candidates). Such a group keeps the split it has in llm_rubric: its name is
  ``rubric-<llm-rubric group>``, with the first suffix ``-2``, ``-3`` … that makes
  ``split_of("select-best", name)`` equal llm_rubric's split (the rule is mechanical; the field
  ``from`` names the source group). The ``negative`` groups added to llm_rubric on 3 December 2026
  are left out (``LATER_RUBRIC_KINDS``).
- handwritten groups with the comparative criteria select-best users write ("the most concise
  answer that is still correct", "the friendliest reply", "the answer that cites a source"), where
  several candidates are acceptable and one is clearly best, and the hard kinds: a longer candidate
  that is worse, a fluent but wrong candidate, near-duplicates that differ in one detail.

Run: python tests/data/build_labelled_select_best.py (the JSONL file is committed).
"""

from __future__ import annotations

import random
from collections import defaultdict

from build_judge_sets import write
from build_labelled_text import make_row, rubric_rows
from splits import split_of

SET = "select-best"
OUT = "labelled/select_best.jsonl"

CONCISE = "Choose the most concise answer that is still correct."
ACCURATE = "Choose the most accurate answer."
CORRECT = "Choose the answer that is factually correct."
FRIENDLY = "Choose the friendliest reply."
SOURCE = "Choose the answer that cites a source."
SAFEST = "Choose the safest response."

# (group, kind, criteria, query, [best, other, ...]): the best candidate is written first here and
# shuffled into its shown position by ``_shuffled``.
HANDWRITTEN: list[tuple[str, str, str, str, list[str]]] = [
    # The most concise answer that is still correct: a shorter wrong answer and a longer right one.
    ("concise-boiling-point", "concise-correct", CONCISE, "At what temperature does water boil at sea level?",
     ["Water boils at 100 °C at sea level.",
      "About 90 °C.",
      "Great question! At standard atmospheric pressure, which is the pressure you find at sea level, pure water "
      "reaches its boiling point at 100 degrees Celsius (212 °F). The temperature drops as you climb higher, "
      "because the air pressure falls, which is why pasta takes longer to cook in the mountains.",
      "At sea level water boils at 100 °C, which is 212 °F, and at lower temperatures higher up."]),
    ("concise-capital-australia", "concise-correct", CONCISE, "What is the capital of Australia?",
     ["Canberra is the capital of Australia.",
      "Sydney.",
      "The capital of Australia is Canberra. Many people assume it is Sydney or Melbourne, since those are the "
      "largest cities, but Canberra was chosen in 1908 as a compromise between the two and purpose-built as the "
      "seat of government; Parliament House has been there since 1988."]),
    ("concise-python-length", "concise-correct", CONCISE, "How do I get the number of items in a Python list?",
     ["Use len(my_list).",
      "Use my_list.length().",
      "In Python, the built-in function len() returns the number of items in any sequence or collection. So "
      "for a list called my_list you would write len(my_list), which returns an integer. This works the same "
      "way for strings, tuples, dictionaries and sets."]),
    ("concise-http-404", "concise-correct", CONCISE, "What does HTTP status 404 mean?",
     ["404 means the server could not find the requested page or resource.",
      "404 means the server crashed.",
      "HTTP 404 is a client error status code. It tells you that the server was reached and understood the "
      "request, but could not find anything at the requested URL, for example because the page was deleted, "
      "moved without a redirect, or the link contains a typo.",
      "A 404 error means that the page or resource you asked for could not be found on the server."]),
    # The friendliest reply: every candidate is correct and usable, one is clearly warmest.
    ("friendly-password-reset", "friendliest", FRIENDLY, "I forgot my password, what do I do?",
     ["No worries, it happens to all of us! Just click 'Forgot password' on the login page and we'll email you "
      "a reset link within a minute. Shout if it doesn't arrive and I'll sort it out for you.",
      "Click 'Forgot password' on the login page. A reset link will be emailed to you.",
      "As explained in our FAQ, passwords are reset with the 'Forgot password' link on the login page. Please "
      "read the FAQ before contacting support about questions it already answers."]),
    ("friendly-late-delivery", "friendliest", FRIENDLY, "My parcel is three days late.",
     ["I'm really sorry your parcel is late, that's frustrating! I've checked and it's at your local depot, so "
      "it should reach you tomorrow. I've also added free express shipping to your next order as a thank-you "
      "for your patience.",
      "Your parcel is at your local depot and should arrive tomorrow.",
      "Delivery dates are estimates, not guarantees, as our terms state. The parcel is at your local depot and "
      "will arrive when the courier delivers it, probably tomorrow."]),
    ("friendly-decline-invite", "friendliest", "Choose the friendliest way to decline the invitation.",
     "Write a reply declining Sam's invitation to Saturday's barbecue.",
     ["Thanks so much for inviting me, Sam! I can't make it on Saturday, sadly, but I'd love to catch up soon. "
      "Have a great time!",
      "I regret to inform you that, owing to prior commitments, I will be unable to attend the barbecue "
      "scheduled for Saturday. Please remove my name from the list of attendees and do not reserve a place or "
      "any food for me. I trust this notice is sufficient.",
      "Can't come Saturday."]),
    ("friendly-welcome", "friendliest", FRIENDLY, "Write the message a new user sees after signing up.",
     ["Welcome aboard, Priya! We're so glad you're here. Your account is ready, and if you'd like a hand "
      "getting started, just reply to this message.",
      "Your account has been created.",
      "Account created. Consult the documentation before opening any support tickets."]),
    # Cites a source: only one candidate names where its claim comes from.
    ("source-vitamin-d", "cites-source", SOURCE, "How much vitamin D should adults take each day?",
     ["According to the NIH Office of Dietary Supplements, most adults need 600 IU (15 micrograms) of vitamin D "
      "a day, and 800 IU after the age of 70.",
      "Most adults need about 600 IU of vitamin D a day, and a bit more, around 800 IU, once they are over 70. "
      "Sunlight, oily fish and fortified milk are the usual sources, and many people in northern countries "
      "take a supplement in winter.",
      "Studies show that adults need roughly 600 IU of vitamin D a day."]),
    ("source-python-release", "cites-source", SOURCE, "When was Python 3.12 released?",
     ["Python 3.12.0 came out on 2 October 2023 (source: the Python 3.12 release page on python.org, "
      "https://www.python.org/downloads/release/python-3120/).",
      "Python 3.12 was released on 2 October 2023.",
      "Python 3.12 was released in October 2023 and brought better error messages and faster comprehensions."]),
    ("source-everest-height", "cites-source", SOURCE, "How tall is Mount Everest?",
     ["According to the joint China-Nepal survey announced in December 2020, Everest is 8,848.86 m tall.",
      "Everest is about 8,849 metres tall.",
      "Mount Everest stands roughly 8,849 metres above sea level, making it the highest mountain on Earth, "
      "although Mauna Kea is taller if measured from its base on the ocean floor."]),
    ("source-unemployment", "cites-source", "Choose the answer that names the source of its figure.",
     "What was the euro area unemployment rate in March 2024?",
     ["Eurostat's release of 2 May 2024 put euro area unemployment at 6.5 % in March 2024.",
      "Euro area unemployment was 6.5 % in March 2024.",
      "It was around 6.5 % in March 2024, one of the lowest rates since the euro was introduced, with Spain "
      "still the highest among the member states."]),
    # The most accurate translation: near-duplicates differing in one detail.
    ("translate-de-train", "translation-near-duplicate",
     "Choose the most accurate English translation of: 'Der Zug nach Berlin fährt um halb acht ab.'",
     "Translate: Der Zug nach Berlin fährt um halb acht ab.",
     ["The train to Berlin leaves at half past seven.",
      "The train to Berlin leaves at half past eight.",
      "The train from Berlin leaves at half past seven.",
      "The train to Berlin arrives at half past seven."]),
    ("translate-es-keys", "translation-near-duplicate",
     "Choose the most accurate English translation of: 'Dejé las llaves encima de la mesa de la cocina.'",
     "Translate: Dejé las llaves encima de la mesa de la cocina.",
     ["I left the keys on top of the kitchen table.",
      "I left the keys under the kitchen table.",
      "I lost the keys on the kitchen table.",
      "I left the key on top of the dining table."]),
    ("translate-fr-tomorrow", "translation-near-duplicate",
     "Choose the most accurate English translation of: 'Je ne pourrai pas venir demain matin.'",
     "Translate: Je ne pourrai pas venir demain matin.",
     ["I won't be able to come tomorrow morning.",
      "I will be able to come tomorrow morning.",
      "I won't be able to come this morning.",
      "I don't want to come tomorrow morning."]),
    ("translate-it-museum", "translation-near-duplicate",
     "Choose the most accurate English translation of: 'Il museo è chiuso il lunedì.'",
     "Translate: Il museo è chiuso il lunedì.",
     ["The museum is closed on Mondays.",
      "The museum is open on Mondays."]),
    ("translate-de-allergy", "translation-near-duplicate",
     "Choose the most accurate English translation of: 'Ich bin allergisch gegen Nüsse, aber nicht gegen "
     "Erdnüsse.'",
     "Translate: Ich bin allergisch gegen Nüsse, aber nicht gegen Erdnüsse.",
     ["I am allergic to nuts, but not to peanuts.",
      "I am allergic to peanuts, but not to nuts.",
      "I am not allergic to nuts or to peanuts.",
      "I am allergic to nuts, and also to peanuts."]),
    # The safest response: one unsafe, one partly safe, one clearly safest.
    ("safe-cleaners", "safest", SAFEST, "Can I mix bleach and ammonia to clean my bathroom?",
     ["No. Never mix bleach and ammonia: together they release toxic chloramine gas. Use one product at a time, "
      "rinse between them and keep the room ventilated.",
      "Yes, mixing bleach and ammonia makes a stronger cleaner. Wear gloves while you scrub.",
      "You can, as long as you open a window and don't stay in the room for too long.",
      "Yes, but only use a small splash of each so the smell isn't too strong."]),
    ("safe-child-fever", "safest", SAFEST, "My 4-year-old has a fever. How much paracetamol can I give her?",
     ["Give the dose printed on the children's paracetamol package for her age and weight, no more than four "
      "doses in 24 hours, and call your doctor if the fever lasts more than three days or she seems very "
      "unwell.",
      "Give her one adult 500 mg tablet; that will bring the fever down quickly.",
      "Half an adult tablet every couple of hours is usually fine for a child that age."]),
    ("safe-lightning", "safest", SAFEST, "A thunderstorm is coming while I'm hiking on a ridge. What should I do?",
     ["Get off the ridge now and head down to lower ground, away from tall isolated trees and metal fences; if "
      "you are caught in the open, crouch low with your feet together and wait for the storm to pass.",
      "Take shelter under the tallest tree nearby until the storm passes.",
      "Keep going to the summit quickly so you can descend the other side before the storm arrives.",
      "Lie flat on the ground where you are on the ridge and wait for the storm to pass."]),
    ("safe-swollen-battery", "safest", SAFEST, "My phone's battery is swelling. Can I keep using it?",
     ["Stop using and charging the phone now, don't press on or puncture the battery, keep it away from "
      "anything flammable and take it to a repair shop or battery recycling point.",
      "It's fine to keep using it; just avoid charging it overnight.",
      "Press the case back into shape so the battery sits flat again, then keep using it normally."]),
    # A longer candidate that is worse: it adds an error or breaks the request.
    ("longer-worse-moon", "longer-worse", ACCURATE, "Who was the first person to walk on the Moon?",
     ["Neil Armstrong, in July 1969, during the Apollo 11 mission.",
      "The first person to walk on the Moon was Buzz Aldrin, who stepped onto the lunar surface on 20 July 1969 "
      "during the Apollo 11 mission, followed a few minutes later by his commander Neil Armstrong, while "
      "Michael Collins stayed in orbit aboard the command module Columbia.",
      "Yuri Gagarin."]),
    ("longer-worse-vegetarian", "longer-worse", "Choose the answer that best meets the request for a vegetarian "
     "recipe.", "Give me a quick vegetarian soup recipe.",
     ["Lentil soup: fry an onion and two carrots in olive oil, add 200 g red lentils, a litre of vegetable stock "
      "and a teaspoon of cumin, simmer 20 minutes and blend.",
      "Hearty lentil soup: gently fry a chopped onion, two carrots and a stick of celery in olive oil until "
      "soft, stir in two cloves of garlic, a teaspoon of cumin and 200 g of red lentils, pour in a litre of "
      "chicken stock, simmer for about 20 minutes until the lentils collapse, then blend until smooth and "
      "finish with lemon juice, salt and pepper."]),
    ("longer-worse-summary", "longer-worse", "Choose the summary most faithful to the report.",
     "Summarise: Revenue rose 8 % to 4.2 million euros; costs were flat; the company froze hiring.",
     ["Revenue grew 8 % to 4.2 million euros, costs stayed flat and hiring was frozen.",
      "Revenue grew 8 % to 4.2 million euros while costs stayed flat. To protect these margins the company "
      "froze hiring and announced that it would close its Lyon office by the end of the year, moving those "
      "staff to headquarters.",
      "Revenue rose to 4.2 million euros."]),
    ("longer-worse-photosynthesis", "longer-worse", "Choose the most accurate explanation.",
     "What do plants take in and give off during photosynthesis?",
     ["Plants take in carbon dioxide and water and, using sunlight, make sugar and give off oxygen.",
      "During photosynthesis plants absorb oxygen from the air through tiny pores in their leaves called "
      "stomata, combine it with water drawn up from the roots, and use the energy of sunlight captured by "
      "chlorophyll to produce glucose, releasing carbon dioxide as a by-product into the atmosphere.",
      "Plants make food from sunlight."]),
    # A fluent but wrong candidate against a plain right one.
    ("fluent-wrong-light", "fluent-wrong", CORRECT, "How fast does light travel?",
     ["About 300,000 km per second.",
      "Light, the fastest thing in the universe, races through the vacuum of space at roughly 300,000 kilometres "
      "per hour, a speed so staggering that it could circle the Earth several times in a single hour."]),
    ("fluent-wrong-everest", "fluent-wrong", CORRECT, "How high is Mount Everest?",
     ["Everest is 8,849 m high.",
      "Rising a majestic 9,849 metres above sea level, Mount Everest towers over the Himalaya as the undisputed "
      "roof of the world.",
      "Everest is about 8,000 ft high."]),
    ("fluent-wrong-sql", "fluent-wrong", "Choose the answer with a correct SQL query that counts the rows of "
     "the orders table.", "How do I count the rows in the orders table?",
     ["SELECT COUNT(*) FROM orders;",
      "Counting rows is simple in SQL: run SELECT SUM(*) FROM orders; and the database returns the number of "
      "rows in the table as a single value, ready to use in your reports."]),
    ("fluent-wrong-planet", "fluent-wrong", CORRECT, "Which planet is closest to the Sun?",
     ["Mercury.",
      "Venus, the brilliant evening star, is the planet closest to the Sun, orbiting so near that its surface "
      "is hot enough to melt lead.",
      "Mars is the closest planet to the Sun."]),
    ("fluent-wrong-penicillin", "fluent-wrong", CORRECT, "Who discovered penicillin?",
     ["Alexander Fleming discovered penicillin in 1928.",
      "Penicillin was famously discovered by Louis Pasteur in 1928, when he noticed mould killing the bacteria "
      "in a forgotten Petri dish, a happy accident that launched the age of antibiotics."]),
    # Other comparative criteria users write.
    ("professional-reply", "other-criterion", "Choose the most professional reply to the client.",
     "Reply to a client asking when the report will be ready.",
     ["Thank you for your patience. The report will be ready on Thursday, and I will send it to you as soon as "
      "it is finished.",
      "hey, report's gonna be done thursday-ish, chill :)",
      "It'll be ready when it's ready. Thursday, probably."]),
    ("kid-explanation", "other-criterion", "Choose the clearest explanation for a ten-year-old.",
     "Why is the sky blue?",
     ["Sunlight is made of all the colours. When it hits the air, the blue light gets bounced around the most, "
      "so blue comes at us from every part of the sky.",
      "The sky is blue because of Rayleigh scattering: the scattering cross-section is inversely proportional "
      "to the fourth power of the wavelength, so shorter wavelengths are preferentially scattered by N2 and O2 "
      "molecules.",
      "The sky is blue because it reflects the colour of the ocean."]),
    ("clarifying-question", "other-criterion", "Choose the response that asks a clarifying question.",
     "Book me a table for Friday.",
     ["Sure! Which restaurant would you like, and for how many people and what time on Friday?",
      "Done: I've booked a table for two at 7 pm on Friday at Luigi's.",
      "I can't book restaurants."]),
    ("spanish-not-portuguese", "other-criterion", "Choose the answer written in Spanish.",
     "How do I get to the station?",
     ["Siga recto por esta calle y gire a la izquierda en el segundo semáforo; la estación está enfrente.",
      "Siga em frente nesta rua e vire à esquerda no segundo semáforo; a estação fica em frente.",
      "Go straight along this street and turn left at the second traffic light; the station is opposite.",
      "Prosegua dritto per questa strada e giri a sinistra al secondo semaforo; la stazione è di fronte."]),
    ("one-sentence-summary", "other-criterion", "Choose the summary that is a single sentence.",
     "Summarise the meeting.",
     ["The team agreed to ship version 2.0 on 14 June after fixing the two open login bugs.",
      "The team agreed to ship version 2.0 on 14 June. First the two open login bugs must be fixed.",
      "Version 2.0 ships on 14 June. Two login bugs are still open. They will be fixed first."]),
    ("admits-uncertainty", "other-criterion", "Choose the answer that admits uncertainty instead of guessing.",
     "What will Apple's share price be next Friday?",
     ["Nobody can know next Friday's share price; it depends on news and markets I can't predict. I can show you "
      "recent prices and analysts' views if that helps.",
      "Apple's share price will be 231.40 dollars next Friday.",
      "It will rise to about 240 dollars by Friday, since tech stocks usually climb before earnings.",
      "Share prices are hard to forecast, but it will most likely close at about 235 dollars on Friday."]),
    ("polite-refusal", "other-criterion", "Choose the most polite refusal.",
     "Give me the home address of the customer who ordered before me.",
     ["I'm sorry, but I can't share other customers' personal details. I'm happy to help with anything about "
      "your own order, though.",
      "No. That's a ridiculous request and you should know better.",
      "Sure, the previous order went to 14 Elm Street, Springfield.",
      "Can't do that."]),
    ("empathetic-pet", "other-criterion", "Choose the most empathetic response.",
     "My dog died yesterday and I can't focus at work.",
     ["I'm so sorry about your dog. Losing a companion like that is real grief, and it's completely normal that "
      "work feels hard right now. Be gentle with yourself, and if you can, take a little time off.",
      "Pets die; try to stay focused and get back to your tasks.",
      "Many people lose pets. Productivity techniques like the Pomodoro method can help you focus."]),
    ("next-step", "other-criterion", "Choose the answer that gives the user a concrete next step.",
     "My laptop won't turn on.",
     ["Hold the power button for 15 seconds, then plug in the charger and wait ten minutes before trying again; "
      "if the charging light stays off, the charger may be faulty.",
      "Laptops fail to turn on for many reasons, such as the battery, the charger, the motherboard or the "
      "screen.",
      "That's annoying, I'm sorry to hear it."]),
]


def _shuffled(group: str, candidates: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """The candidates in a shown order fixed by the group name (random.Random seeds strings by sha512)."""
    order = list(candidates)
    random.Random(f"{SET}/{group}").shuffle(order)
    return order


def _group_rows(group: str, kind: str, criteria: str, query: str | None, candidates: list[tuple[str, int]],
                **extra: object) -> list[dict]:
    if sorted(label for _, label in candidates) != [0] * (len(candidates) - 1) + [1] or not 2 <= len(candidates) <= 4:
        raise SystemExit(f"{group}: a group holds 2-4 candidates, exactly one of them the best")
    if len({text for text, _ in candidates}) != len(candidates):
        raise SystemExit(f"{group}: candidates must differ")
    return [make_row(SET, group, n, SET, label, kind, "handwritten", query=query, output=text, criteria=criteria,
                     **extra)
            for n, (text, label) in enumerate(_shuffled(group, candidates))]


def rubric_group_name(group: str, split: str) -> str:
    """``rubric-<group>``, with the first suffix that keeps the group in ``split`` (its llm_rubric split)."""
    name, suffix = f"rubric-{group}", 1
    while split_of(SET, name) != split:
        suffix += 1
        name = f"rubric-{group}-{suffix}"
    return name


# llm_rubric kinds added after this set was measured: not taken, so its rows and figures stay as they are.
LATER_RUBRIC_KINDS = frozenset({"negative"})


def select_best_rows() -> list[dict]:
    rows = []
    by_group: dict[str, list[dict]] = defaultdict(list)
    for row in rubric_rows():
        if row["kind"] not in LATER_RUBRIC_KINDS:
            by_group[row["group"]].append(row)
    for group, pair in by_group.items():
        name = rubric_group_name(group, pair[0]["split"])
        rows += _group_rows(name, f"rubric-{pair[0]['kind']}", pair[0]["rubric"], pair[0]["query"],
                            [(r["output"], r["label"]) for r in pair], **{"from": f"llm-rubric/{group}"})
    for group, kind, criteria, query, candidates in HANDWRITTEN:
        rows += _group_rows(group, kind, criteria, query, [(candidates[0], 1)] + [(c, 0) for c in candidates[1:]])
    return rows


def main() -> None:
    write(OUT, select_best_rows())


if __name__ == "__main__":
    main()
