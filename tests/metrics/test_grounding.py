"""The final answer's values checked against the request and the calls, by code."""

from __future__ import annotations

import pytest

from agentunit.metrics._grounding import unsupported_values

_SLOTS = [
    {"name": "get_free_slots", "arguments": {"person": "Anna", "date": "2026-05-05"},
     "output": "Anna free: 09:00-10:00, 14:00-15:30"},
    {"name": "get_free_slots", "arguments": {"person": "Ben", "date": "2026-05-05"},
     "output": "Ben free: 11:00-12:00, 15:00-17:00"},
    {"name": "create_event", "arguments": {"title": "Budget review", "start": "2026-05-05T15:00", "duration_min": 30,
                                           "attendees": ["Anna", "Ben"]}, "output": "event created"},
]
_REQUEST = ("Today is Monday 4 May 2026. Find a 30-minute slot tomorrow when Anna and Ben are free and book "
            "'Budget review'.")


def test_an_answer_that_only_repeats_the_run_has_nothing_unsupported():
    answer = ("Anna and Ben are both free on Tuesday 5 May from 15:00 to 15:30, so I booked 'Budget review' "
              "at 3 pm for 30 minutes with both of them.")
    assert unsupported_values(answer, _REQUEST, _SLOTS) == []


@pytest.mark.parametrize(("answer", "unsupported"), [
    ("I booked 'Budget review' at 15:00 with Anna, Ben and Carla.", ["Carla"]),
    ("I booked 'Budget review' at 16:00 with Anna and Ben.", ["16:00"]),
    ("I booked 'Budget review' at 4 pm with Anna and Ben.", ["4 pm"]),
    ("I booked 'Budget review' on 6 May at 15:00.", ["6 May"]),
    ("I booked 'Budget review' for 45 minutes.", ["45"]),
    ("I booked it on Wednesday.", ["Wednesday"]),
    ("I posted the invite to #general and told sam@example.com.", ["#general", "sam@example.com"]),
])
def test_a_value_the_run_never_saw_is_unsupported(answer, unsupported):
    assert unsupported_values(answer, _REQUEST, _SLOTS) == unsupported


def test_weekdays_and_months_of_evidence_dates_are_supported():
    assert unsupported_values("Booked for Tuesday, in May.", _REQUEST, _SLOTS) == []


def test_sums_differences_and_date_spans_of_evidence_values_are_supported():
    calls = [{"name": "quote", "arguments": {"carrier": "DHL"}, "output": "DHL: 24.90 EUR"},
             {"name": "quote", "arguments": {"carrier": "UPS"}, "output": "UPS: 21.40 EUR"},
             {"name": "order", "arguments": {"id": "8841"}, "output": "delivered 2026-04-22"}]
    request = "Today is 4 May 2026. Ship with the cheaper carrier."
    assert unsupported_values("UPS is 3.50 EUR cheaper, 46.30 EUR for both.", request, calls) == []
    assert unsupported_values("It was delivered 12 days ago, on 22 April.", request, calls) == []
    assert unsupported_values("UPS is 4.50 EUR cheaper.", request, calls) == ["4.50"]


def test_the_length_of_a_list_a_call_returned_is_supported():
    calls = [{"name": "list_meetings", "arguments": {}, "output": '[{"title": "a"}, {"title": "b"}, {"title": "c"}]'}]
    assert unsupported_values("You have 3 meetings.", "What is on today?", calls) == []
    assert unsupported_values("You have 4 meetings.", "What is on today?", calls) == ["4"]


def test_a_date_some_days_after_an_evidence_date_is_supported():
    calls = [{"name": "book_car", "arguments": {"from": "2026-06-15", "days": 3}, "output": "booked RC-7720"}]
    assert unsupported_values("The car is yours 15-18 June (RC-7720).", "Rent a car for 3 days.", calls) == []
    assert unsupported_values("The car is yours 15-19 June.", "Rent a car for 3 days.", calls) == ["19 June"]


def test_a_time_is_a_time_and_its_hour_a_number():
    calls = [{"name": "book_visit", "arguments": {}, "output": "Thursday 7 May 8:00-12:00"}]
    assert unsupported_values("A technician comes between 8 and 12.", "Book a visit.", calls) == []
    assert unsupported_values("A technician comes between 9 and 12.", "Book a visit.", calls) == ["9"]


def test_capitalised_sentence_openers_and_lower_case_may_are_not_values():
    calls = [{"name": "get_time", "arguments": {}, "output": "New York 09:00"}]
    answer = "It is 09:00 in New York. Right now 5 may still be asleep there."
    assert unsupported_values(answer, "What time is it in New York?", calls) == ["5"]


def test_hours_and_minutes_between_two_evidence_times_are_supported():
    calls = [{"name": "get_time", "arguments": {"city": "Tokyo"}, "output": "22:30"},
             {"name": "get_time", "arguments": {"city": "New York"}, "output": "09:00"}]
    assert unsupported_values("Tokyo is 13.5 hours ahead.", "How far apart are they?", calls) == []
    assert unsupported_values("That is 810 minutes.", "How far apart are they?", calls) == []
    assert unsupported_values("Tokyo is 14.5 hours ahead.", "How far apart are they?", calls) == ["14.5"]


def test_an_empty_answer_has_nothing_unsupported():
    assert unsupported_values("  ", _REQUEST, _SLOTS) == []


def test_every_sentence_of_a_long_answer_is_read():
    answer = " ".join(["Anna and Ben are free at 15:00."] * 12 + ["I booked it with Carla."])
    assert unsupported_values(answer, _REQUEST, _SLOTS) == ["Carla"]


def test_a_time_without_a_leading_zero_may_be_evening_and_both_is_two():
    calls = [{"name": "check_table", "arguments": {"restaurant": "Luigi's"}, "output": "no table at 20:00; next 21:30"},
             {"name": "search_catalog", "arguments": {"branch": "Central"}, "output": "both copies on loan"}]
    request = "Find a table and a copy."
    assert unsupported_values("Luigi's can't seat you before 9:30; Central's two copies are out.", request, calls) == []
    assert unsupported_values("Luigi's can't seat you before 09:30.", request, calls) == ["09:30"]
    assert unsupported_values("Central's three copies are out.", request, calls) == ["three"]


def test_every_field_of_a_call_is_evidence_and_json_is_read_as_json():
    calls = [{"name": "book", "input": {"time": "16:00", "with": "Ben"}},
             {"name": "find_slot", "error": "busy; next free slot 17:00"},
             {"type": "function", "function": {"name": "notify", "arguments": '{"channel": "ops"}'}},
             {"name": "report", "arguments": {}, "output": {"text": "Total:\n42 items", "rows": [[1, 2], [3]]}},
             {"name": "writer", "input": "draft", "output": "Draft sent to Dana."}]
    answer = "Booked 16:00 with Ben (17:00 was the next slot), told #ops and Dana: 42 items in 2 rows."
    assert unsupported_values(answer, "Book it.", calls) == []


def test_odd_call_outputs_do_not_break_the_check():
    deep = "[" * 5000 + "]" * 5000
    calls = [{"name": "x", "arguments": {"nights": 3}, "output": {"valid_until": "9999-12-31", "raw": deep}},
             {"name": "y", "arguments": None, "output": None}]
    assert unsupported_values("Booked for 3 nights.", "Book it.", calls) == []


def test_list_markers_labels_and_tags_without_their_sign():
    calls = [{"name": "post", "arguments": {"channel": "general", "order": "8841"}, "output": "posted at 14:00"}]
    answer = "## Summary\n1. Start Time: 14:00\n2. Posted to #general about Order #8841."
    assert unsupported_values(answer, "Post it.", calls) == []


def test_day_month_dates_take_the_year_of_a_full_date():
    calls = [{"name": "get_slots", "arguments": {}, "output": "next slot 12 May"}]
    request = "Budget 2000 EUR. Today is 4 May 2026. Book a slot."
    assert unsupported_values("I booked Tuesday 12 May.", request, calls) == []
    assert unsupported_values("I booked Wednesday 12 May.", request, calls) == ["Wednesday"]
