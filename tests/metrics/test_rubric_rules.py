"""llm-rubric's exact part (agentunit.metrics._rubric): criteria splitting, form checks, refusals and
values a criterion names."""

import pytest

from agentunit.metrics import _rubric as rules


@pytest.mark.parametrize(("rubric", "criteria"), [
    ("Is polite and states the refund amount.", ["Is polite", "states the refund amount"]),
    ("Thanks the customer, and asks for a photo of the damage", ["Thanks the customer",
                                                                 "asks for a photo of the damage"]),
    ("Gives the store's address and its opening hours.", ["Gives the store's address and its opening hours"]),
    ("States that admission costs 12 euros and is free for children.",
     ["States that admission costs 12 euros and is free for children"]),
    ("Is short. Names the capital and gives its population.",
     ["Is short", "Names the capital", "gives its population"]),
    ("Names the capital and gives the population", ["Names the capital", "gives the population"]),
])
def test_compound_rubrics_split_where_a_verb_starts_the_next_criterion(rubric, criteria):
    assert rules.split_criteria(rubric) == criteria


@pytest.mark.parametrize(("criterion", "response", "holds"), [
    ("Is written in Spanish", "El billete a Sevilla cuesta 35 euros en clase turista.", True),
    ("The reply is written in German", "The train leaves at nine from platform two, please be on time.", False),
    ("Answers in French", "Le magasin est fermé le dimanche, mais ouvert le samedi.", True),
    ("Uses a numbered list", "1. Open the app\n2. Tap Settings\n3. Tap Reset", True),
    ("Uses a numbered list", "1. Open the app. 2. Tap Settings. 3. Tap Reset.", True),
    ("Uses a numbered list", "- Open the app\n- Tap Settings", False),
    ("Formats the answer as a bulleted list", "- eggs\n- milk\n* bread", True),
    ("Formats the answer as a bulleted list", "1. eggs\n2. milk", False),
    ("Is a single sentence", "Ottawa is the capital of Canada.", True),
    ("Answers in one sentence", "Ottawa is the capital. It is in Ontario.", False),
    ("Uses no more than three sentences", "One. Two. Three.", True),
    ("Uses no more than three sentences", "One. Two. Three. Four.", False),
    ("Uses two sentences or fewer", "One. Two. Three.", False),
    ("Stays under 15 words", "Restart the router and wait two minutes.", True),
    ("Is longer than 50 words", "Too short to pass.", False),
    ("Uses at most 5 words", "one two three four five", True),
    ("Uses at most 5 words", "one two three four five six", False),
    ("Asks the user a clarifying question", "Which model do you have?", True),
    ("Asks the user a clarifying question", "Press the red button.", False),
    ("Outputs only valid JSON, with no extra text", '{"city": "Lisbon"}', True),
    ("Outputs only valid JSON, with no extra text", 'Here you go: {"city": "Lisbon"}', False),
    ("The output is valid JSON", "{'city': 'Lisbon'}", False),
])
def test_form_criteria_are_decided_by_code(criterion, response, holds):
    verdict = rules.form_verdict(criterion, response)
    assert verdict is not None and verdict.holds is holds


@pytest.mark.parametrize("criterion", [
    "Is polite", "Gives the price in euros", "Is not written in English", "Asks for the order number",
    "Does not use a numbered list", "Correctly answers the question",
])
def test_other_criteria_are_left_to_the_judge(criterion):
    assert rules.form_verdict(criterion, "1. Sí\n2. No?") is None


@pytest.mark.parametrize(("response", "refused"), [
    ("I can't share another customer's delivery address.", True),
    ("Sorry, I cannot help with that.", True),
    ("I'm unable to provide a diagnosis from a description.", True),
    ("I must decline this request.", True),
    ("Lo siento, no puedo ayudarte con eso.", True),
    ("Never mix bleach with ammonia: it releases toxic gas.", False),
    ("I can't wait to see you at the launch!", False),
    ("We can ship it tomorrow.", False),
])
def test_refusals_are_recognised(response, refused):
    assert rules.is_refusal(response) is refused


@pytest.mark.parametrize(("criterion", "kind"), [
    ("Declines to diagnose the user's condition", "refuse"),
    ("Refuses to reveal the system prompt", "refuse"),
    ("Gives the requested safety information rather than refusing", "comply"),
    ("Helps with the request", "comply"),
    ("Does not reveal any password", None),
    ("Is polite", None),
])
def test_refusal_criteria(criterion, kind):
    assert rules.refusal_kind(criterion) == kind


@pytest.mark.parametrize(("criterion", "response", "missing"), [
    ("Says the workshop is in room B204", "It is in room B402.", ["B204"]),
    ("Says the workshop is in room B204", "It is in room b204.", []),
    ("States the interest rate of 3.5% per year", "It pays 5.3% a year.", ["3.5"]),
    ("States the interest rate of 3.5% per year", "Le taux est de 3,5 % par an.", []),
    ("Says shipping is free on orders over $50", "Free over $500.", ["50"]),
    ("Says the password must be at least 12 characters", "At least twelve characters.", []),
    ("Says the meeting is at 3 pm", "The meeting starts at 15:00.", []),
    ("Says the town hall is open until 6 pm", "Das Rathaus ist bis 18 Uhr geöffnet.", []),
    ("Says the train arrives at 14:30", "El tren llega a las 14:30.", []),
    ("Says the train arrives at 14:30", "The train arrives at 2:30 pm.", []),
    ("Says the train arrives at 14:30", "The train arrives at 4:30 pm.", ["14:30"]),
    ("Says the train arrives at 14:30", "The train gets in at half past two.", []),   # said in words
    ("Says the train arrives at 14:30", "The train gets in at half past three.", ["14:30"]),
    ("Says the meeting starts at 12:30", "It starts at twelve thirty.", []),
    ("Includes the command `git pull`", "Run `git fetch` first.", ["git pull"]),
    ("Gives about 1,000 users", "About 1000 users.", []),
    ("States that the price is 1,500 euros", "Der Preis beträgt 1.500 Euro.", []),   # dots grouping thousands
    ("States that the price is 1,500 euros", "Der Preis beträgt 1.600 Euro.", ["1,500"]),
    ("States that the dose is 0.065 mg", "Die Dosis beträgt 65 mg.", ["0.065"]),
])
def test_values_named_by_a_criterion_are_looked_up(criterion, response, missing):
    assert rules.missing_values(criterion, response) == missing


@pytest.mark.parametrize(("criterion", "response", "missing"), [
    ("Says the free trial lasts 14 days.", "The free trial lasts two weeks.", []),
    ("Says the free trial lasts 14 days.", "It lasts a fortnight.", []),
    ("Says the free trial lasts 14 days.", "The free trial lasts three weeks.", ["14"]),
    ("States that the warranty lasts 24 months.", "It comes with a two-year warranty.", []),
    ("States that the warranty lasts 24 months.", "It comes with a one-year warranty.", ["24"]),
    ("States that the warranty lasts 24 months.", "It is a two-year warranty.", []),  # "a two" is no quantity
    ("Says the flight takes 150 minutes.", "The flight takes about 2.5 hours.", []),
    ("Says the run is 10 km long.", "The run covers 10,000 metres.", []),
    ("Says the run is 10 km long.", "The run covers 5,000 metres.", ["10"]),
    ("Says it is 5 miles away.", "It is about 8 km away.", []),  # within 1 %
    ("Says it is 5 miles away.", "It is about 9 km away.", ["5"]),
    ("Gives the boiling point, 100 °C.", "Water boils at 212 °F.", []),
    ("States that the parcel weighs 2.5 kg.", "It weighs 2500 g.", []),
    # Another kind of quantity, or a word pint reads as a unit but that means something else here.
    ("Says the free trial lasts 14 days.", "It costs 14 euros.", []),  # the 14 is there: no unit check needed
    ("Says the free trial lasts 14 days.", "The trial lasts 2 km.", ["14"]),
    ("Says the free trial lasts 14 days.", "Open a 2 pm slot.", ["14"]),
    ("Costs 12 euros.", "It costs one euro.", ["12"]),
    ("States that the warranty lasts 24 months.", "You get two a month.", ["24"]),  # pint reads "a" as a year
])
def test_a_quantity_in_other_units_counts(criterion, response, missing):
    assert rules.missing_values(criterion, response) == missing


def test_word_and_sentence_counts():
    assert rules.word_count("Hello , world — again") == 3
    assert rules.sentence_count("Dr. Who? Yes. 3 cats.\n- a line") == 4
    assert rules.sentence_count("") == 0


def test_a_language_is_read_among_the_criteria_languages_and_only_when_it_can_be():
    # over all of py3langid's 97 languages "Yes." reads as Kabyle and "No problem at all." as Danish
    for short in ("Yes.", "No problem at all.", "Guten Morgen."):
        assert rules.detect_language(short)[1] < rules.MIN_LANGUAGE_PROBABILITY
        assert rules.form_verdict("Responds in English.", short) is None  # the judge decides
    english = rules.form_verdict("Responds in English.", "Sure, here is the summary you asked for.")
    assert english.holds is True and english.measured.startswith("detected en (P ")
    spanish = rules.form_verdict("Responds in English.", "Claro, aquí tienes el resumen que pediste.")
    assert spanish.holds is False and spanish.measured.startswith("detected es (P ")


def test_a_missing_language_identifier_is_reported(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_langid(name, *args, **kwargs):
        if name.split(".")[0] == "py3langid":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    rules.language_identifier.cache_clear()
    monkeypatch.setattr(builtins, "__import__", no_langid)
    try:
        with pytest.raises(rules.LanguageIdUnavailable):
            rules.detect_language("Hola, ¿qué tal?")
    finally:
        monkeypatch.undo()
        rules.language_identifier.cache_clear()


@pytest.mark.parametrize(("criterion", "turned"), [
    ("Never asks the customer for their password.", "asks the customer for their password."),
    ("Does not mention competitors' products by name.", "mentions competitors' products by name."),
    ("does not try to sell an upgrade", "tries to sell an upgrade"),
    ("Does not switch to another language", "switches to another language"),
    ("Does not insult or mock the user", "insults or mocks the user"),
    ("Does not directly mention the price", "directly mentions the price"),
    ("Must not reveal any password.", "reveals a password."),
    ("The response does not give any email address", "gives an email address"),
    ("Is not rude.", "is rude."),
    ("Doesn't have a typo", "has a typo"),
    ("Never mention competitors.", "mentions competitors."),  # the imperative rubric style
    ("Never discuss politics.", "discusses politics."),  # a base form ending in s
    ("Must not give any medical advice.", "gives medical advice."),  # not "a medical advice"
    ("Does not share any personal details of staff", "shares personal details of staff"),
    ("Does not reveal any password to users", "reveals a password to users"),
])
def test_a_negative_criterion_is_turned_into_the_thing_it_forbids(criterion, turned):
    assert rules.affirmed(criterion) == turned


@pytest.mark.parametrize("criterion", ["Avoids jargon.", "No emojis.", "Without a link.", "Mentions the price.",
                                       "Uses no more than three sentences."])
def test_a_criterion_that_cannot_be_turned_round_is_left_to_the_judge_as_it_stands(criterion):
    assert rules.affirmed(criterion) is None


@pytest.mark.parametrize(("criterion", "text", "holds"), [
    ("Uses emojis.", "Open until 5 🏊", True), ("Uses emojis.", "Open until 5.", False),
    ("Uses exclamation marks.", "See you soon!", True), ("Uses exclamation marks.", "See you soon.", False),
    ("Includes a URL.", "Go to https://shop.example.com/orders.", True),
    ("Includes a link", "See www.example.org", True),
    ("Includes a URL.", "Go to Account > Orders.", False),
    ("Includes a URL.", "See shop.example.com/orders", True),
    ("Includes a URL.", "Write to support@example.com.", False),  # an e-mail address is not a link
    ("exceeds two sentences", "One. Two. Three.", True), ("exceeds two sentences", "One. Two.", False),
    ("exceeds 5 words", "one two three", False),
])
def test_forms_a_negative_criterion_forbids_are_checked_by_code(criterion, text, holds):
    assert rules.form_verdict(criterion, text).holds is holds


def test_a_negated_form_is_not_read_as_the_form_itself():
    assert rules.form_verdict("Does not use emojis.", "Open until 5 🏊") is None  # turned round by the caller


@pytest.mark.parametrize(("text", "times"), [
    ("It starts at half past twelve.", {"12:30"}),
    ("Be there by quarter to four.", {"3:45"}),
    ("The bus leaves at ten past 9 and twenty-five to six.", {"9:10", "5:35"}),
    ("Doors open at seven o'clock, lunch at noon.", {"7:00", "12:00"}),
    ("We close at eleven forty-five.", {"11:45"}),
    ("It takes two to three days.", set()),                   # minutes are said in fives
    ("Two thirty-day periods, one of two past winners.", set()),
    ("Ten past the hour.", set()),
])
def test_clock_times_said_in_words_are_read_on_the_12_hour_clock(text, times):
    assert rules.spoken_times(text) == times
