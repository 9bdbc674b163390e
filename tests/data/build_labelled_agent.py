"""Builds the labelled sets for the judge-backed agentic metrics (tests/data/labelled/agent_*.jsonl).

Every row is written by hand in the style of a real agent run and labelled as a careful person would
(1 = passes, 0 = fails); the label rules are in tests/data/labelled/README.md. Three sets:

- ``agent_runs``: 49 multi-step tasks (two independent look-ups, then an action that depends on both).
  Each task's variants feed task-completion, goal-fulfillment, tool-selection-quality, plan-quality,
  reasoning-coherence and plan-adherence, so a task is in the same split for every metric.
- ``agent_arguments``: single tool calls for argument-correctness, in the style of public
  function-calling benchmarks: right values, right values written differently, and type-valid wrong
  values (wrong city, number, unit, date off by one, swapped from/to).
- ``agent_rules``: agent-llm-rubric rules (policy-like free-form rules, free-form order rules, and
  rules of the known forms that the trace settles, with an observed order) followed and broken.

The split is tests/data/splits.py ``split_of(set, group)``. Run from this folder:
``python build_labelled_agent.py`` (the JSONL files are committed; the script also prints what a
keyword and a word-overlap baseline score per set, metric and split).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build_judge_sets import write  # noqa: E402
from splits import split_of  # noqa: E402

OUT = "labelled"

# ---------------------------------------------------------------------------------------------------
# agent_runs: two look-ups (A, B) whose results decide an action (C).
#
# q: request; calls: [A, B, C] as (tool, arguments, output); steps: plan naming the tools; para: the
# same plan in other words; answer: complete and right; alt: complete and right, worded differently;
# drop: sounds complete but the action was never done (calls A, B only); wrong: one detail contradicts
# the tool results; partial: honest that the action was not done (calls A, B only); nonseq: (new
# arguments for C or None when C is not called, new output of C or None, answer) — a decision that
# does not follow from the results; error: C's output when it fails (the answer then still claims
# success); wrong_tool: (index of A or B, tool, arguments, output) — a plausible but wrong tool;
# missing: index of the look-up left out (the answer states its result anyway); extra: an unneeded
# call inserted before C.
# ---------------------------------------------------------------------------------------------------
TASKS = [
    dict(
        id="forecast-email",
        q="Get tomorrow's forecast for Paris and Rome, then email Sam (sam@example.com) which of the two will be "
          "warmer.",
        calls=[("get_forecast", {"city": "Paris", "day": "tomorrow"}, "Paris, tomorrow: 18°C, light rain"),
               ("get_forecast", {"city": "Rome", "day": "tomorrow"}, "Rome, tomorrow: 24°C, sunny"),
               ("send_email", {"to": "sam@example.com", "subject": "Warmer city tomorrow",
                               "body": "Rome will be warmer tomorrow: 24°C vs 18°C in Paris."}, "sent, id 7731")],
        steps=["Call get_forecast for Paris", "Call get_forecast for Rome",
               "Call send_email to tell Sam which city is warmer", "Summarise the result for the user"],
        para=["Look up tomorrow's weather in Paris", "Look up tomorrow's weather in Rome",
              "Write to Sam naming the warmer city", "Report back to the user"],
        answer="Tomorrow Paris will be 18°C with light rain and Rome 24°C and sunny. I emailed Sam that Rome will be "
               "the warmer city.",
        alt="I've let Sam know by email that Rome wins on warmth tomorrow: 24°C and sunny there, against 18°C and "
            "light rain in Paris.",
        drop="Tomorrow Paris will be 18°C with light rain, while Rome will be 24°C and sunny, so Rome is the warmer "
             "of the two.",
        wrong="Tomorrow Paris will be 18°C with light rain and Rome 21°C and sunny. I emailed Sam that Rome will be "
              "the warmer city.",
        partial="Tomorrow Paris will be 18°C with light rain and Rome 24°C and sunny, so Rome is warmer. I have not "
                "emailed Sam yet.",
        nonseq=({"body": "Paris will be warmer tomorrow: 18°C vs 24°C in Rome."}, None,
                "Tomorrow Paris will be 18°C with light rain and Rome 24°C and sunny. I emailed Sam that Paris will "
                "be the warmer city."),
        error="Error: SMTP relay unavailable (503), message not sent",
        wrong_tool=(0, "search_web", {"query": "Paris weather tomorrow"},
                    "Weather sites: Paris tomorrow, highs around 18°C, some rain"),
        missing=1,
        extra=("get_forecast", {"city": "London", "day": "tomorrow"}, "London, tomorrow: 15°C, cloudy"),
    ),
    dict(
        id="parcels-reminder",
        q="Where are my two parcels, 1Z88 and 1Z91? Set a reminder for 8am on the day the later one arrives so I "
          "stay home.",
        calls=[("track_parcel", {"tracking_id": "1Z88"}, "1Z88: out for delivery, arrives Wed 6 May"),
               ("track_parcel", {"tracking_id": "1Z91"}, "1Z91: in transit, arrives Fri 8 May"),
               ("create_reminder", {"text": "Stay home for parcel 1Z91", "time": "2026-05-08T08:00"},
                "reminder created")],
        steps=["Call track_parcel for 1Z88", "Call track_parcel for 1Z91",
               "Call create_reminder for the later arrival day", "Tell the user both arrival dates"],
        para=["Find out where parcel 1Z88 is", "Find out where parcel 1Z91 is",
              "Add a morning alert for the later delivery day", "Give the user both delivery dates"],
        answer="Parcel 1Z88 is out for delivery and arrives Wednesday 6 May; 1Z91 is in transit and arrives Friday "
               "8 May. I set a reminder for 8am on Friday so you stay home.",
        alt="The later of the two is 1Z91, due Friday 8 May (it is still in transit), so there is now a reminder at "
            "8am that morning. 1Z88 comes sooner: it is out for delivery for Wednesday 6 May.",
        drop="Parcel 1Z88 is out for delivery and arrives Wednesday 6 May; 1Z91 is in transit and arrives Friday "
             "8 May, so Friday morning is when you need to stay home.",
        wrong="Parcel 1Z88 was delivered this morning; 1Z91 is in transit and arrives Friday 8 May. I set a reminder "
              "for 8am on Friday so you stay home.",
        partial="Parcel 1Z88 arrives Wednesday 6 May and 1Z91 arrives Friday 8 May. I haven't set the reminder yet.",
        nonseq=({"text": "Stay home for parcel 1Z88", "time": "2026-05-06T08:00"}, None,
                "Parcel 1Z88 arrives Wednesday 6 May and 1Z91 arrives Friday 8 May, so the later one is 1Z88: I set "
                "a reminder for 8am on Wednesday so you stay home."),
        error="Error: reminder service timeout",
        wrong_tool=(1, "search_web", {"query": "track parcel 1Z91"},
                    "Parcel tracking help: enter your tracking number on the carrier's site"),
        missing=0,
        extra=("send_email", {"to": "me@example.com", "subject": "Parcels", "body": "1Z88 Wed, 1Z91 Fri"}, "sent"),
    ),
    dict(
        id="common-slot-meeting",
        q="Today is Monday 4 May 2026. Find a 30-minute slot tomorrow when both Anna and Ben are free and put a "
          "meeting called 'Budget review' in it.",
        calls=[("get_free_slots", {"person": "Anna", "date": "2026-05-05"}, "Anna free: 09:00-10:00, 14:00-15:30"),
               ("get_free_slots", {"person": "Ben", "date": "2026-05-05"}, "Ben free: 11:00-12:00, 15:00-17:00"),
               ("create_event", {"title": "Budget review", "start": "2026-05-05T15:00", "duration_min": 30,
                                 "attendees": ["Anna", "Ben"]}, "event created")],
        steps=["Call get_free_slots for Anna", "Call get_free_slots for Ben",
               "Call create_event in the first common 30-minute slot", "Confirm the time to the user"],
        para=["Check when Anna is available tomorrow", "Check when Ben is available tomorrow",
              "Put 'Budget review' in a half hour they share", "Tell the user when it is"],
        answer="Anna and Ben are both free tomorrow from 15:00 to 15:30, so I booked 'Budget review' at 15:00 for 30 "
               "minutes with both of them.",
        alt="Done: 'Budget review' is in both calendars on Tuesday 5 May, 15:00-15:30, the only half hour where "
            "Anna's and Ben's free time overlaps.",
        drop="Anna and Ben are both free tomorrow from 15:00 to 15:30, which is the slot for 'Budget review'.",
        wrong="Anna and Ben are both free tomorrow from 15:00 to 15:30, so I booked 'Budget review' at 15:00 for 30 "
              "minutes with Anna, Ben and Carla.",
        partial="Anna and Ben are both free tomorrow from 15:00 to 15:30. I haven't created the meeting yet.",
        nonseq=({"start": "2026-05-05T09:00"}, None,
                "Anna is free 09:00-10:00 and Ben 11:00-12:00 and 15:00-17:00, so both are free at 9:00: I booked "
                "'Budget review' tomorrow at 09:00 for 30 minutes."),
        error="Error 409: conflict check failed, event not created",
        wrong_tool=(1, "get_contact", {"name": "Ben"}, "Ben Ortiz, ben@example.com, +44 20 7946 0011"),
        missing=1,
        extra=("get_free_slots", {"person": "Carla", "date": "2026-05-05"}, "Carla free: 10:00-12:00"),
    ),
    dict(
        id="store-stock-reserve",
        q="Is the Trailrunner 2 shoe in size 42 in stock at the Central or the Riverside store? Reserve a pair at "
          "whichever store has it.",
        calls=[("check_stock", {"store": "Central", "sku": "TR2-42"}, "Central: 0 in stock"),
               ("check_stock", {"store": "Riverside", "sku": "TR2-42"}, "Riverside: 3 in stock"),
               ("reserve_item", {"store": "Riverside", "sku": "TR2-42", "quantity": 1},
                "reserved, pick-up code RV-5521, held 48 h")],
        steps=["Call check_stock at Central", "Call check_stock at Riverside",
               "Call reserve_item at the store with stock", "Give the user the pick-up code"],
        para=["See whether Central has size 42", "See whether Riverside has size 42",
              "Hold one pair where it is available", "Pass on the pick-up details"],
        answer="Central is out of the Trailrunner 2 in size 42, but Riverside has 3. I reserved a pair at Riverside; "
               "your pick-up code is RV-5521 and it is held for 48 hours.",
        alt="You can pick up a pair of size-42 Trailrunner 2s at Riverside with code RV-5521 within the next 48 "
            "hours. Riverside had three; Central had none.",
        drop="Riverside has 3 pairs of the Trailrunner 2 in size 42 and Central has none, so Riverside is the store "
             "to go to.",
        wrong="Central is out of the Trailrunner 2 in size 42, but Riverside has 3. I reserved a pair at Riverside; "
              "your pick-up code is RV-5521 and it is held for a week.",
        partial="Riverside has 3 pairs in size 42 and Central has none. I haven't reserved a pair yet.",
        nonseq=({"store": "Central"}, "reserved, pick-up code CE-1180, held 48 h",
                "Central has none and Riverside has 3, so I reserved a pair at Central; your pick-up code is "
                "CE-1180."),
        error="Error: reservation service unavailable",
        wrong_tool=(1, "search_web", {"query": "Trailrunner 2 size 42 in stock"},
                    "SportShop online: Trailrunner 2, size 42 available to order"),
        missing=0,
        extra=("check_stock", {"store": "Airport", "sku": "TR2-42"}, "Airport: 1 in stock"),
    ),
    dict(
        id="stocks-post",
        q="Which of Apple and Microsoft rose more today in percent? Post the answer to the #investing channel.",
        calls=[("get_stock_quote", {"ticker": "AAPL"}, "AAPL 189.30 USD, +1.2% today"),
               ("get_stock_quote", {"ticker": "MSFT"}, "MSFT 415.10 USD, +0.8% today"),
               ("post_message", {"channel": "#investing",
                                 "text": "Apple rose more today: +1.2% vs Microsoft +0.8%."}, "posted")],
        steps=["Call get_stock_quote for AAPL", "Call get_stock_quote for MSFT",
               "Call post_message to #investing with the bigger riser", "Tell the user"],
        para=["Fetch Apple's quote", "Fetch Microsoft's quote", "Share the bigger percentage gain in #investing",
              "Tell the user"],
        answer="Apple rose 1.2% today and Microsoft 0.8%, so Apple gained more. I posted that to #investing.",
        alt="Posted in #investing: Apple beat Microsoft today, up 1.2% against 0.8%.",
        drop="Apple is up 1.2% today at 189.30 USD and Microsoft 0.8% at 415.10 USD, so Apple rose more.",
        wrong="Apple rose 1.2% today and Microsoft 0.8%, so Apple gained more. I posted that to #general.",
        partial="Apple rose 1.2% and Microsoft 0.8% today, so Apple gained more. I haven't posted it yet.",
        nonseq=({"text": "Microsoft rose more today: 415.10 USD vs 189.30 USD."}, None,
                "Microsoft trades at 415.10 USD and Apple at 189.30 USD, so Microsoft rose more today. I posted that "
                "to #investing."),
        error="Error: channel #investing is archived; message not posted",
        wrong_tool=(0, "search_web", {"query": "Apple stock today"},
                    "Apple Inc. (AAPL) news: shares up about 1% in morning trading"),
        missing=1,
        extra=("get_stock_quote", {"ticker": "GOOGL"}, "GOOGL 171.20 USD, +0.3% today"),
    ),
    dict(
        id="trip-budget-note",
        q="I have 600 USD. Would it cover a 500 EUR hotel bill plus a 40 GBP taxi? Convert both and note the answer "
          "in my Trip notebook.",
        calls=[("convert_currency", {"amount": 500, "from": "EUR", "to": "USD"}, "542.50 USD"),
               ("convert_currency", {"amount": 40, "from": "GBP", "to": "USD"}, "50.80 USD"),
               ("save_note", {"notebook": "Trip", "text": "Hotel 542.50 USD + taxi 50.80 USD = 593.30 USD; 600 USD "
                                                           "covers it (6.70 USD left)."}, "saved")],
        steps=["Call convert_currency for the hotel bill", "Call convert_currency for the taxi",
               "Call save_note with the total and whether 600 USD covers it", "Answer the user"],
        para=["Work out the hotel bill in dollars", "Work out the taxi fare in dollars",
              "Write the total and the verdict into the Trip notebook", "Answer the user"],
        answer="The hotel is 542.50 USD and the taxi 50.80 USD, 593.30 USD in total, so your 600 USD covers both with "
               "6.70 USD to spare. I saved this in your Trip notes.",
        alt="Yes, 600 USD is enough: 500 EUR comes to 542.50 USD and 40 GBP to 50.80 USD, together 593.30 USD, "
            "leaving 6.70 USD. It is noted in your Trip notebook.",
        drop="The hotel is 542.50 USD and the taxi 50.80 USD, 593.30 USD in total, so your 600 USD covers both with "
             "6.70 USD to spare.",
        wrong="The hotel is 542.50 USD and the taxi 50.80 USD, 593.30 USD in total, so your 600 USD covers both with "
              "16.70 USD to spare. I saved this in your Trip notes.",
        partial="It comes to 593.30 USD (hotel 542.50, taxi 50.80), so 600 USD covers it. I haven't written it in "
                "your Trip notebook yet.",
        nonseq=({"text": "Hotel 542.50 USD + taxi 50.80 USD = 593.30 USD; over the 600 USD budget."}, None,
                "The hotel is 542.50 USD and the taxi 50.80 USD, 593.30 USD in total, which is more than 600 USD, so "
                "it does not cover both. I saved this in your Trip notes."),
        error="Error: notebook 'Trip' not found",
        wrong_tool=(1, "calculator", {"expression": "40*1.27"}, "50.8"),
        missing=1,
        extra=("convert_currency", {"amount": 600, "from": "USD", "to": "EUR"}, "553.00 EUR"),
    ),
    dict(
        id="restaurant-book",
        q="Check whether Luigi's or Casa Verde has a table for four this Friday (8 May) at 8pm and book the one that "
          "does.",
        calls=[("check_availability", {"restaurant": "Luigi's", "date": "2026-05-08", "time": "20:00", "people": 4},
                "Luigi's: no tables at 20:00; next free 21:30"),
               ("check_availability", {"restaurant": "Casa Verde", "date": "2026-05-08", "time": "20:00",
                                       "people": 4}, "Casa Verde: table available at 20:00"),
               ("book_table", {"restaurant": "Casa Verde", "date": "2026-05-08", "time": "20:00", "people": 4},
                "confirmed, booking CV-208")],
        steps=["Call check_availability for Luigi's", "Call check_availability for Casa Verde",
               "Call book_table at the restaurant with a free table", "Confirm the booking to the user"],
        para=["Ask Luigi's about a table for four at 8pm", "Ask Casa Verde about a table for four at 8pm",
              "Reserve wherever there is room", "Confirm to the user"],
        answer="Luigi's is full at 8pm (next free 9:30pm), but Casa Verde had a table, so I booked Casa Verde for four "
               "on Friday at 8pm, booking CV-208.",
        alt="You're booked at Casa Verde this Friday, 8pm, table for four (ref CV-208). Luigi's couldn't seat you "
            "before 9:30.",
        drop="Luigi's is full at 8pm on Friday, but Casa Verde has a table for four at 8pm.",
        wrong="Luigi's is full at 8pm (next free 9:30pm), but Casa Verde had a table, so I booked Casa Verde for four "
              "on Saturday at 8pm, booking CV-208.",
        partial="Casa Verde has a table for four on Friday at 8pm; Luigi's is full until 9:30pm. I haven't booked "
                "it yet.",
        nonseq=({"restaurant": "Luigi's", "time": "21:30"}, "confirmed, booking LG-77",
                "Luigi's has no table at 8pm and Casa Verde does, so I booked Luigi's for four on Friday at 9:30pm, "
                "booking LG-77."),
        error="Error: booking failed, card declined for the deposit",
        wrong_tool=(1, "search_web", {"query": "Casa Verde reviews"},
                    "Casa Verde: 4.6 stars, Mediterranean, open until 23:00"),
        missing=0,
        extra=("get_menu", {"restaurant": "Casa Verde"}, "Menu: paella, grilled fish, tapas"),
    ),
    dict(
        id="incident-open",
        q="Our API and our database both had alerts overnight. Check the status of both and open an incident for "
          "whichever one still has a problem.",
        calls=[("check_service_status", {"service": "api"}, "api: operational since 02:14 (recovered)"),
               ("check_service_status", {"service": "database"}, "database: degraded, replica lag 340 s"),
               ("create_incident", {"service": "database", "severity": "high",
                                    "summary": "Replica lag 340 s, database degraded"}, "incident INC-4471 opened")],
        steps=["Call check_service_status for the API", "Call check_service_status for the database",
               "Call create_incident for the service still failing", "Report to the user"],
        para=["See how the API is doing now", "See how the database is doing now",
              "Raise an incident for whatever is still broken", "Report to the user"],
        answer="The API recovered at 02:14 and is operational, but the database is still degraded with 340 s of "
               "replica lag, so I opened incident INC-4471 for the database.",
        alt="Incident INC-4471 is open for the database, which is still degraded (replica lag 340 s). The API "
            "needs nothing: it has been operational again since 02:14.",
        drop="The API recovered at 02:14 and is operational; the database is still degraded with 340 s of replica "
             "lag, so the database is the one with a problem.",
        wrong="The API recovered at 02:14 and is operational, but the database is still degraded with 34 s of "
              "replica lag, so I opened incident INC-4471 for the database.",
        partial="The API is fine again since 02:14; the database is still degraded (340 s replica lag). I haven't "
                "opened an incident yet.",
        nonseq=({"service": "api", "summary": "API outage"}, None,
                "The API recovered at 02:14 and the database is degraded with 340 s replica lag, so I opened "
                "incident INC-4471 for the API."),
        error="Error: incident tracker returned 500",
        wrong_tool=(1, "search_web", {"query": "database status"},
                    "How to build a status page for your database"),
        missing=0,
        extra=("restart_service", {"service": "api"}, "restarting api"),
    ),
    dict(
        id="laptop-cart",
        q="Compare the prices of the Lenovo T14 and the Dell Latitude 5440 in our shop and add the cheaper one to my "
          "cart.",
        calls=[("get_product", {"name": "Lenovo T14"}, "Lenovo T14: 1,149 EUR, in stock"),
               ("get_product", {"name": "Dell Latitude 5440"}, "Dell Latitude 5440: 1,089 EUR, in stock"),
               ("add_to_cart", {"product": "Dell Latitude 5440", "quantity": 1}, "added; cart total 1,089 EUR")],
        steps=["Call get_product for the Lenovo T14", "Call get_product for the Dell Latitude 5440",
               "Call add_to_cart with the cheaper laptop", "Tell the user"],
        para=["Look up the Lenovo's price", "Look up the Dell's price", "Put the cheaper laptop in the basket",
              "Tell the user"],
        answer="The Lenovo T14 costs 1,149 EUR and the Dell Latitude 5440 1,089 EUR, so I added the Dell to your cart "
               "(cart total 1,089 EUR).",
        alt="The Dell Latitude 5440 is 60 EUR cheaper than the Lenovo T14 (1,089 vs 1,149 EUR), so the Dell is the "
            "one now in your cart.",
        drop="The Lenovo T14 costs 1,149 EUR and the Dell Latitude 5440 1,089 EUR, so the Dell is the cheaper choice.",
        wrong="The Lenovo T14 costs 1,149 EUR and the Dell Latitude 5440 1,098 EUR, so I added the Dell to your cart.",
        partial="The Dell Latitude 5440 is cheaper at 1,089 EUR (the Lenovo T14 is 1,149 EUR). I haven't added it to "
                "your cart yet.",
        nonseq=({"product": "Lenovo T14"}, "added; cart total 1,149 EUR",
                "The Lenovo T14 costs 1,149 EUR and the Dell Latitude 5440 1,089 EUR, so I added the cheaper Lenovo "
                "to your cart."),
        error="Error: cart service unavailable, item not added",
        wrong_tool=(0, "search_web", {"query": "Lenovo T14 price"}, "Lenovo T14 from 999 EUR at various retailers"),
        missing=0,
        extra=("add_to_cart", {"product": "Lenovo T14", "quantity": 1}, "added; cart total 2,238 EUR"),
    ),
    dict(
        id="train-or-flight",
        q="Check the Eurostar and the flights from London to Paris on Friday 8 May after 7am and book whichever "
          "arrives in Paris first.",
        calls=[("search_trains", {"from": "London", "to": "Paris", "date": "2026-05-08", "after": "07:00"},
                "Eurostar 9014: dep 08:01, arr 11:20"),
               ("search_flights", {"from": "London", "to": "Paris", "date": "2026-05-08", "after": "07:00"},
                "BA 304: dep 08:30 LHR, arr 10:45 CDG"),
               ("book_ticket", {"service": "BA 304", "date": "2026-05-08"}, "booked, e-ticket 125-88410")],
        steps=["Call search_trains for the Eurostar", "Call search_flights for London to Paris",
               "Call book_ticket for the earlier arrival", "Confirm the booking"],
        para=["Find the first suitable Eurostar", "Find the first suitable flight",
              "Book whichever gets to Paris first", "Confirm to the user"],
        answer="The Eurostar 9014 arrives at 11:20 and BA 304 lands at 10:45, so I booked BA 304 (departing 08:30), "
               "e-ticket 125-88410.",
        alt="BA 304 gets you to Paris first, landing at 10:45 against 11:20 for the 08:01 Eurostar, so that is what I "
            "booked (e-ticket 125-88410).",
        drop="BA 304 (08:30, lands 10:45) arrives before the Eurostar 9014 (08:01, arrives 11:20), so the flight gets "
             "you there first.",
        wrong="The Eurostar 9014 arrives at 11:20 and BA 304 lands at 10:45, so I booked BA 304, departing 09:30, "
              "e-ticket 125-88410.",
        partial="BA 304 lands at 10:45, before the Eurostar's 11:20, so the flight is faster. I haven't booked it "
                "yet.",
        nonseq=({"service": "Eurostar 9014"}, "booked, e-ticket EU-55190",
                "The Eurostar leaves first, at 08:01, so it arrives first: I booked Eurostar 9014 (arrives 11:20), "
                "e-ticket EU-55190."),
        error="Error: fare no longer available",
        wrong_tool=(0, "search_web", {"query": "Eurostar London Paris Friday"},
                    "Eurostar: trains about every hour from 07:01; journey 2h16"),
        missing=0,
        extra=("search_hotels", {"city": "Paris", "date": "2026-05-08"}, "12 hotels found"),
    ),
    dict(
        id="return-label",
        q="Today is 4 May 2026. I want to return the headphones from order 8841. Check when they were delivered and "
          "your return window for electronics, and if it is still within the window, create a return label.",
        calls=[("get_order", {"order_id": "8841"}, "order 8841: headphones, delivered 2026-04-22"),
               ("get_return_policy", {"category": "electronics"}, "electronics: returns within 30 days of delivery"),
               ("create_return_label", {"order_id": "8841"}, "label RL-3310 created, emailed to customer")],
        steps=["Call get_order for 8841", "Call get_return_policy for electronics",
               "Call create_return_label if the order is within the window", "Tell the customer"],
        para=["Find out when order 8841 arrived", "Find out how long electronics can be returned",
              "Issue a return label if the deadline has not passed", "Tell the customer"],
        answer="Order 8841 was delivered on 22 April, 12 days ago, and electronics can be returned within 30 days, so "
               "it qualifies. I created return label RL-3310 and emailed it to you.",
        alt="You're within the window: the headphones arrived on 22 April and the limit for electronics is 30 days. "
            "Return label RL-3310 is on its way to your inbox.",
        drop="Order 8841 was delivered on 22 April, 12 days ago, and electronics can be returned within 30 days, so "
             "you can still return it.",
        wrong="Order 8841 was delivered on 22 April, 12 days ago, and electronics can be returned within 14 days, so "
              "it qualifies. I created return label RL-3310 and emailed it to you.",
        partial="Order 8841 was delivered on 22 April and the window is 30 days, so it is eligible. I haven't created "
                "the label yet.",
        nonseq=(None, None,
                "Order 8841 was delivered 12 days ago and the return window is 30 days, so it is outside the window; "
                "I did not create a label."),
        error="Error: label service unavailable",
        wrong_tool=(1, "search_web", {"query": "return policy headphones"},
                    "Most retailers accept returns within 14 to 30 days."),
        missing=1,
        extra=("issue_refund", {"order_id": "8841", "amount": 129.0}, "refund issued"),
    ),
    dict(
        id="leave-request",
        q="How many vacation days do I have left, and is 25 May a public holiday? Request leave for 25-29 May, "
          "skipping any holiday.",
        calls=[("get_leave_balance", {"employee": "me"}, "12 days remaining"),
               ("get_public_holidays", {"country": "UK", "month": "2026-05"},
                "4 May (Early May bank holiday), 25 May (Spring bank holiday)"),
               ("submit_leave_request", {"start": "2026-05-26", "end": "2026-05-29", "days": 4},
                "request LR-902 submitted for approval")],
        steps=["Call get_leave_balance", "Call get_public_holidays for May",
               "Call submit_leave_request without the holiday", "Tell the user"],
        para=["Find out how many vacation days are left", "Find out which days in May are bank holidays",
              "Ask for the days off, leaving out any holiday", "Tell the user"],
        answer="You have 12 vacation days left, and 25 May is a bank holiday, so I requested leave for 26-29 May "
               "(4 days), request LR-902, awaiting approval.",
        alt="Leave request LR-902 is in for 26 to 29 May, four days, since Monday 25 May is already the Spring bank "
            "holiday; that would leave you 8 of your 12 days.",
        drop="You have 12 vacation days left, and 25 May is the Spring bank holiday, so you only need 4 days of leave "
             "for 26-29 May.",
        wrong="You have 12 vacation days left, and 25 May is a bank holiday, so I requested leave for 26-29 May "
              "(4 days), request LR-902, already approved.",
        partial="You have 12 days left and 25 May is a bank holiday, so 26-29 May would cost 4 days. I haven't "
                "submitted the request yet.",
        nonseq=({"start": "2026-05-25", "days": 5}, None,
                "25 May is a bank holiday, so I requested 5 days of leave for 25-29 May, request LR-902. You have 12 "
                "days left."),
        error="Error: approver not found for employee",
        wrong_tool=(1, "get_calendar", {"date": "2026-05-25"}, "No events on 25 May"),
        missing=1,
        extra=("send_email", {"to": "boss@example.com", "subject": "Leave", "body": "I'm off 26-29 May"}, "sent"),
    ),
    dict(
        id="low-balance-transfer",
        q="If my checking account has less than 100 EUR, move 300 EUR from savings into it. Check both balances "
          "first.",
        calls=[("get_balance", {"account": "checking"}, "checking: 64.20 EUR"),
               ("get_balance", {"account": "savings"}, "savings: 2,410.00 EUR"),
               ("transfer", {"from": "savings", "to": "checking", "amount": 300},
                "transfer T-7781 done; checking now 364.20 EUR")],
        steps=["Call get_balance for checking", "Call get_balance for savings",
               "Call transfer of 300 EUR if checking is under 100 EUR", "Report the new balance"],
        para=["Read the checking balance", "Read the savings balance",
              "Move 300 EUR across when checking is below 100 EUR", "Report the new balance"],
        answer="Checking had 64.20 EUR, under 100 EUR, so I moved 300 EUR from savings (which had 2,410.00 EUR). "
               "Checking now holds 364.20 EUR (transfer T-7781).",
        alt="Your checking account was down to 64.20 EUR, so 300 EUR went over from savings in transfer T-7781; "
            "checking now shows 364.20 EUR and savings 2,110.00 EUR.",
        drop="Checking has 64.20 EUR, which is under 100 EUR, and savings has 2,410.00 EUR, so the 300 EUR top-up "
             "from savings applies.",
        wrong="Checking had 64.20 EUR, under 100 EUR, so I moved 300 EUR from savings. Checking now holds 346.20 EUR "
              "(transfer T-7781).",
        partial="I checked both balances: checking has 64.20 EUR and savings 2,410.00 EUR.",
        nonseq=(None, None,
                "Checking has 64.20 EUR and savings 2,410.00 EUR. Checking is above 100 EUR, so no transfer was "
                "needed."),
        error="Error: daily transfer limit reached",
        wrong_tool=(0, "get_transactions", {"account": "checking", "limit": 5},
                    "last 5: -12.40, -55.00, +1,200.00, -8.99, -30.00"),
        missing=1,
        extra=("transfer", {"from": "savings", "to": "checking", "amount": 300}, "transfer T-7782 done"),
    ),
    dict(
        id="meter-usage-email",
        q="Get my electricity meter readings for the end of March and the end of April, work out April's usage and "
          "email it to my landlord at landlord@example.com.",
        calls=[("get_meter_reading", {"month": "2026-03"}, "31 Mar: 48,210 kWh"),
               ("get_meter_reading", {"month": "2026-04"}, "30 Apr: 48,655 kWh"),
               ("send_email", {"to": "landlord@example.com", "subject": "April electricity",
                               "body": "April usage: 445 kWh (48,210 to 48,655)."}, "sent")],
        steps=["Call get_meter_reading for March", "Call get_meter_reading for April",
               "Call send_email with April's usage to the landlord", "Tell the user"],
        para=["Fetch the end-of-March reading", "Fetch the end-of-April reading",
              "Mail the landlord the difference", "Tell the user"],
        answer="The meter read 48,210 kWh on 31 March and 48,655 kWh on 30 April, so April's usage was 445 kWh. I "
               "emailed that to your landlord.",
        alt="Your landlord has an email with April's electricity use: 445 kWh, from 48,210 at the end of March to "
            "48,655 at the end of April.",
        drop="The meter read 48,210 kWh on 31 March and 48,655 kWh on 30 April, so April's usage was 445 kWh.",
        wrong="The meter read 48,210 kWh on 31 March and 48,655 kWh on 30 April, so April's usage was 455 kWh. I "
              "emailed that to your landlord.",
        partial="April's usage was 445 kWh (48,210 to 48,655 kWh). I haven't sent the email to your landlord.",
        nonseq=({"body": "April usage: 48,655 kWh."}, None,
                "The meter read 48,210 kWh on 31 March and 48,655 kWh on 30 April, so April's usage was 48,655 kWh. "
                "I emailed that to your landlord."),
        error="Error: recipient mailbox full",
        wrong_tool=(1, "get_bill", {"month": "2026-04"}, "April bill: 142.30 EUR"),
        missing=0,
        extra=("get_meter_reading", {"month": "2026-02"}, "28 Feb: 47,700 kWh"),
    ),
    dict(
        id="hotel-under-budget",
        q="Compare Hotel Alma and Hotel Sol for two nights from 12 June and book the cheaper one if it is under 300 "
          "EUR in total.",
        calls=[("get_hotel_rate", {"hotel": "Hotel Alma", "checkin": "2026-06-12", "nights": 2},
                "Hotel Alma: 2 nights 276 EUR total"),
               ("get_hotel_rate", {"hotel": "Hotel Sol", "checkin": "2026-06-12", "nights": 2},
                "Hotel Sol: 2 nights 312 EUR total"),
               ("book_hotel", {"hotel": "Hotel Alma", "checkin": "2026-06-12", "nights": 2},
                "confirmed, reservation ALM-4410")],
        steps=["Call get_hotel_rate for Hotel Alma", "Call get_hotel_rate for Hotel Sol",
               "Call book_hotel for the cheaper one if under 300 EUR", "Confirm to the user"],
        para=["Price two nights at Alma", "Price two nights at Sol",
              "Reserve the cheaper if it stays below 300 EUR", "Confirm to the user"],
        answer="Hotel Alma is 276 EUR for the two nights and Hotel Sol 312 EUR. Alma is cheaper and under 300 EUR, so "
               "I booked it, reservation ALM-4410.",
        alt="Booked Hotel Alma for 12-14 June (reservation ALM-4410): 276 EUR for both nights, below your 300 EUR "
            "limit and 36 EUR less than Hotel Sol.",
        drop="Hotel Alma costs 276 EUR for the two nights and Hotel Sol 312 EUR, so Alma is the cheaper option and "
             "within your 300 EUR limit.",
        wrong="Hotel Alma is 276 EUR for the two nights and Hotel Sol 312 EUR. Alma is cheaper and under 300 EUR, so "
              "I booked it from 13 June, reservation ALM-4410.",
        partial="Hotel Alma is 276 EUR and Hotel Sol 312 EUR, so Alma fits your limit. I haven't made the booking "
                "yet.",
        nonseq=(None, None,
                "Hotel Alma is 276 EUR and Hotel Sol 312 EUR for the two nights; both are over 300 EUR, so I didn't "
                "book either."),
        error="Error: no rooms left at this rate",
        wrong_tool=(1, "search_web", {"query": "Hotel Sol price"}, "Hotel Sol: rooms from 140 EUR per night"),
        missing=1,
        extra=("book_hotel", {"hotel": "Hotel Sol", "checkin": "2026-06-12", "nights": 2},
               "confirmed, reservation SOL-118"),
    ),
    dict(
        id="evening-class",
        q="I can only go after 6pm on Wednesday. Check the yoga and the pilates schedules and book me into whichever "
          "class fits.",
        calls=[("get_class_schedule", {"class": "yoga", "day": "Wednesday"}, "Yoga Wednesday: 07:00, 12:30"),
               ("get_class_schedule", {"class": "pilates", "day": "Wednesday"}, "Pilates Wednesday: 18:30, 20:00"),
               ("book_class", {"class": "pilates", "day": "Wednesday", "time": "18:30"}, "booked, spot 9 of 12")],
        steps=["Call get_class_schedule for yoga", "Call get_class_schedule for pilates",
               "Call book_class for a class after 18:00", "Tell the user"],
        para=["See when yoga runs on Wednesday", "See when pilates runs on Wednesday",
              "Sign the user up for one that starts after 6pm", "Tell the user"],
        answer="Yoga on Wednesday is only at 07:00 and 12:30, but pilates runs at 18:30 and 20:00, so I booked you "
               "into pilates at 18:30 (spot 9 of 12).",
        alt="Pilates it is: you're in the 18:30 class on Wednesday. Yoga only has morning and lunchtime sessions that "
            "day, so it didn't fit after 6pm.",
        drop="Yoga on Wednesday is at 07:00 and 12:30, which doesn't fit, but pilates at 18:30 or 20:00 does.",
        wrong="Yoga on Wednesday is only at 07:00 and 12:30, but pilates runs at 18:30 and 20:00, so I booked you "
              "into pilates at 20:00 (spot 9 of 12).",
        partial="Pilates at 18:30 or 20:00 fits your evening; yoga is only at 07:00 and 12:30. I haven't booked "
                "anything yet.",
        nonseq=({"class": "yoga", "time": "12:30"}, "booked, spot 4 of 15",
                "Yoga is at 07:00 and 12:30 and pilates at 18:30 and 20:00, so I booked you into yoga at 12:30, which "
                "fits your evening."),
        error="Error: class full",
        wrong_tool=(1, "search_web", {"query": "pilates classes Wednesday evening"},
                    "Pilates studios near you: FlowHaus, CoreLab"),
        missing=0,
        extra=("book_class", {"class": "pilates", "day": "Wednesday", "time": "20:00"}, "booked, spot 5 of 12"),
    ),
    dict(
        id="shipping-quote",
        q="Get shipping quotes from DHL and UPS for a 4 kg parcel to Lyon and create the shipment with the cheaper "
          "carrier.",
        calls=[("get_shipping_quote", {"carrier": "DHL", "weight_kg": 4, "destination": "Lyon, FR"},
                "DHL: 24.90 EUR, 2 days"),
               ("get_shipping_quote", {"carrier": "UPS", "weight_kg": 4, "destination": "Lyon, FR"},
                "UPS: 21.40 EUR, 3 days"),
               ("create_shipment", {"carrier": "UPS", "weight_kg": 4, "destination": "Lyon, FR"},
                "shipment 1Z999AA1 created")],
        steps=["Call get_shipping_quote for DHL", "Call get_shipping_quote for UPS",
               "Call create_shipment with the cheaper carrier", "Give the user the tracking number"],
        para=["Ask DHL what it charges", "Ask UPS what it charges", "Send the parcel with the lower price",
              "Give the user the tracking number"],
        answer="DHL quotes 24.90 EUR (2 days) and UPS 21.40 EUR (3 days), so I created the shipment with UPS, "
               "tracking 1Z999AA1.",
        alt="UPS was 3.50 EUR cheaper (21.40 vs 24.90 EUR, one day slower), so your parcel to Lyon now ships with UPS "
            "under tracking number 1Z999AA1.",
        drop="DHL quotes 24.90 EUR for 2-day delivery and UPS 21.40 EUR for 3 days, so UPS is the cheaper carrier.",
        wrong="DHL quotes 24.90 EUR (2 days) and UPS 21.40 EUR (2 days), so I created the shipment with UPS, "
              "tracking 1Z999AA1.",
        partial="UPS is cheaper at 21.40 EUR (DHL is 24.90 EUR). I haven't created the shipment yet.",
        nonseq=({"carrier": "DHL"}, "shipment JD0142 created",
                "DHL quotes 24.90 EUR and UPS 21.40 EUR, so DHL is cheaper and I created the shipment with DHL, "
                "tracking JD0142."),
        error="Error: address validation failed for Lyon, FR",
        wrong_tool=(1, "search_web", {"query": "UPS price 4 kg to France"}, "UPS Standard to France from 19 EUR"),
        missing=1,
        extra=("create_shipment", {"carrier": "DHL", "weight_kg": 4, "destination": "Lyon, FR"},
               "shipment JD0143 created"),
    ),
    dict(
        id="meeting-room",
        q="Book a meeting room at 2pm today for 8 people: check Orion and Vega and take one that is free and big "
          "enough.",
        calls=[("check_room", {"room": "Orion", "time": "14:00"}, "Orion: free, seats 6"),
               ("check_room", {"room": "Vega", "time": "14:00"}, "Vega: free, seats 10"),
               ("book_room", {"room": "Vega", "time": "14:00", "duration_min": 60}, "Vega booked 14:00-15:00")],
        steps=["Call check_room for Orion", "Call check_room for Vega",
               "Call book_room for a free room with at least 8 seats", "Confirm to the user"],
        para=["See if Orion is free and how many it seats", "See if Vega is free and how many it seats",
              "Reserve a free room that holds eight", "Confirm to the user"],
        answer="Both rooms are free at 2pm, but Orion only seats 6, so I booked Vega (10 seats) for 14:00-15:00.",
        alt="Vega is yours from 14:00 to 15:00; it seats 10. Orion was free too but only holds 6 people.",
        drop="Both rooms are free at 2pm; Orion seats 6 and Vega seats 10, so Vega is the one that fits eight people.",
        wrong="Both rooms are free at 2pm, but Orion only seats 6, so I booked Vega (10 seats) for 15:00-16:00.",
        partial="Vega is free at 2pm and seats 10 (Orion seats only 6). I haven't booked it yet.",
        nonseq=({"room": "Orion"}, "Orion booked 14:00-15:00",
                "Orion and Vega are both free at 2pm, so I booked Orion for 14:00-15:00 for your 8 people."),
        error="Error: room already booked by another user",
        wrong_tool=(1, "get_floor_plan", {"floor": 3}, "Floor 3: Vega (corner), Lyra, Orion"),
        missing=0,
        extra=("book_room", {"room": "Orion", "time": "14:00", "duration_min": 60}, "Orion booked 14:00-15:00"),
    ),
    dict(
        id="pharmacy-pickup",
        q="Is my prescription ready at City Pharmacy, and until when is it open today? Set a reminder 30 minutes "
          "before closing to pick it up.",
        calls=[("get_prescription_status", {"patient": "me", "pharmacy": "City Pharmacy"},
                "prescription RX-5521 ready for pickup"),
               ("get_opening_hours", {"place": "City Pharmacy", "day": "today"}, "City Pharmacy today: 08:00-19:00"),
               ("create_reminder", {"text": "Pick up prescription RX-5521 at City Pharmacy", "time": "18:30"},
                "reminder created")],
        steps=["Call get_prescription_status", "Call get_opening_hours for City Pharmacy",
               "Call create_reminder 30 minutes before closing", "Tell the user"],
        para=["Ask whether the prescription is ready", "Find today's closing time",
              "Schedule a nudge half an hour before closing", "Tell the user"],
        answer="Your prescription RX-5521 is ready, and City Pharmacy is open until 19:00 today, so I set a reminder "
               "for 18:30 to pick it up.",
        alt="It's ready for pickup. City Pharmacy closes at 7pm today; you'll get a reminder at 6:30pm.",
        drop="Your prescription RX-5521 is ready for pickup, and City Pharmacy is open until 19:00 today, so 18:30 is "
             "the time to go.",
        wrong="Your prescription RX-5521 is ready, and City Pharmacy is open until 20:00 today, so I set a reminder "
              "for 18:30 to pick it up.",
        partial="Your prescription is ready and the pharmacy is open until 19:00 today. I haven't set the reminder "
                "yet.",
        nonseq=({"time": "19:30"}, None,
                "The pharmacy closes at 19:00, so I set your reminder for 19:30, half an hour before closing."),
        error="Error: reminders service unavailable",
        wrong_tool=(1, "search_web", {"query": "pharmacy opening hours"}, "Most pharmacies open 09:00-18:00"),
        missing=0,
        extra=("order_refill", {"prescription_id": "RX-5521"}, "refill requested"),
    ),
    dict(
        id="unused-subscription",
        q="Today is 4 May 2026. Check my Netflix and Spotify subscriptions and cancel the one I haven't used in the "
          "last three months.",
        calls=[("get_subscription", {"service": "Netflix"}, "Netflix: 15.99 EUR/month, last used 2 days ago"),
               ("get_subscription", {"service": "Spotify"}, "Spotify: 10.99 EUR/month, last used 2026-01-03"),
               ("cancel_subscription", {"service": "Spotify"}, "Spotify cancelled; active until 2026-05-31")],
        steps=["Call get_subscription for Netflix", "Call get_subscription for Spotify",
               "Call cancel_subscription for the one unused for three months", "Tell the user"],
        para=["Check when Netflix was last used", "Check when Spotify was last used",
              "End the service that has sat idle for three months", "Tell the user"],
        answer="You used Netflix two days ago, but Spotify not since 3 January, so I cancelled Spotify. It stays "
               "active until 31 May.",
        alt="Spotify is cancelled (access until 31 May): its last use was on 3 January, four months ago, while "
            "Netflix was used just two days ago.",
        drop="You last used Spotify on 3 January, more than three months ago, while Netflix was used two days ago, so "
             "Spotify is the one you don't use.",
        wrong="You used Netflix two days ago, but Spotify not since 3 January, so I cancelled Spotify. It stops "
              "immediately.",
        partial="Spotify hasn't been used since 3 January; Netflix was used two days ago. I haven't cancelled "
                "anything yet.",
        nonseq=({"service": "Netflix"}, "Netflix cancelled; active until 2026-05-20",
                "Netflix costs more (15.99 EUR against 10.99 EUR), so I cancelled Netflix; it stays active until "
                "20 May."),
        error="Error: cancellation requires re-authentication",
        wrong_tool=(1, "get_bank_statement", {"month": "2026-04"}, "Spotify -10.99 EUR, Netflix -15.99 EUR"),
        missing=1,
        extra=("cancel_subscription", {"service": "Netflix"}, "Netflix cancelled; active until 2026-05-20"),
    ),
    dict(
        id="purchase-order",
        q="How many WidgetPro units do we have in stock, and how many are on open orders? Create a purchase order "
          "for any shortfall plus 10 spare.",
        calls=[("get_stock", {"sku": "WPRO"}, "WidgetPro: 120 units in stock"),
               ("get_open_orders", {"sku": "WPRO"}, "WidgetPro: 150 units on open orders"),
               ("create_purchase_order", {"sku": "WPRO", "quantity": 40}, "PO-3307 created for 40 units")],
        steps=["Call get_stock for WidgetPro", "Call get_open_orders for WidgetPro",
               "Call create_purchase_order for the shortfall plus 10", "Tell the user"],
        para=["Count the WidgetPro units on hand", "Count the WidgetPro units customers are waiting for",
              "Order the missing units plus ten spare", "Tell the user"],
        answer="There are 120 WidgetPro units in stock and 150 on open orders, a shortfall of 30. I created purchase "
               "order PO-3307 for 40 units (30 plus 10 spare).",
        alt="PO-3307 is out for 40 WidgetPro units: open orders need 150 and only 120 are on the shelf, so 30 are "
            "missing, plus the 10 spare you asked for.",
        drop="There are 120 WidgetPro units in stock against 150 on open orders, so you are 30 short, or 40 with the "
             "10 spare.",
        wrong="There are 120 WidgetPro units in stock and 150 on open orders, a shortfall of 30. I created purchase "
              "order PO-3307 for 30 units.",
        partial="Stock is 120 and open orders are 150, so we are 30 short (40 with spares). I haven't created the "
                "purchase order yet.",
        nonseq=({"quantity": 130}, "PO-3307 created for 130 units",
                "120 in stock and 150 on order means we need 120 + 10 = 130 units, so I created purchase order "
                "PO-3307 for 130 units."),
        error="Error: supplier account on hold",
        wrong_tool=(1, "get_sales_report", {"sku": "WPRO", "period": "last month"},
                    "WidgetPro: 310 units sold last month"),
        missing=1,
        extra=("get_stock", {"sku": "WMINI"}, "WidgetMini: 80 units in stock"),
    ),
    dict(
        id="vet-vaccine",
        q="Is Milo due for any vaccination, and what slots does the Oak Street clinic have this week? Book the first "
          "slot for the vaccine that is due.",
        calls=[("get_vaccination_record", {"pet": "Milo"}, "Milo: rabies due 2026-05-10; FVRCP valid until 2027-02"),
               ("get_clinic_slots", {"clinic": "Oak Street", "week": "2026-W19"},
                "Wed 6 May 10:00, Thu 7 May 16:30"),
               ("book_appointment", {"clinic": "Oak Street", "pet": "Milo", "time": "2026-05-06T10:00",
                                     "reason": "rabies vaccine"}, "booked, ref VET-221")],
        steps=["Call get_vaccination_record for Milo", "Call get_clinic_slots for Oak Street",
               "Call book_appointment in the first slot for the due vaccine", "Tell the user"],
        para=["Find which of Milo's vaccines is due", "Find this week's openings at Oak Street",
              "Take the earliest opening for that vaccine", "Tell the user"],
        answer="Milo's rabies shot is due on 10 May (FVRCP is fine until 2027). The first Oak Street slot is "
               "Wednesday 6 May at 10:00, so I booked it for his rabies vaccine, ref VET-221.",
        alt="Booked: Milo gets his rabies vaccine at Oak Street on Wednesday 6 May, 10:00 (ref VET-221). That is the "
            "only one due; the FVRCP is valid into 2027.",
        drop="Milo is due for his rabies vaccine on 10 May; Oak Street has Wednesday 6 May at 10:00 or Thursday 7 May "
             "at 16:30, and Wednesday is the first.",
        wrong="Milo's rabies shot is due on 10 May (FVRCP is fine until 2027). The first Oak Street slot is "
              "Wednesday 6 May at 10:00, so I booked it for his FVRCP booster, ref VET-221.",
        partial="Milo's rabies vaccine is due on 10 May, and the first Oak Street slot is Wednesday at 10:00. I "
                "haven't booked it yet.",
        nonseq=({"time": "2026-05-07T16:30", "reason": "FVRCP vaccine"}, "booked, ref VET-222",
                "FVRCP is valid until 2027, so I booked Milo's FVRCP vaccine on Thursday 7 May at 16:30, ref "
                "VET-222."),
        error="Error: clinic booking system offline",
        wrong_tool=(0, "get_pet_profile", {"pet": "Milo"}, "Milo, cat, 4 years, 5.2 kg"),
        missing=0,
        extra=("get_clinic_slots", {"clinic": "Elm Road", "week": "2026-W19"}, "Tue 5 May 09:00"),
    ),
    dict(
        id="final-interview",
        q="Compare the assessment scores of Amira Haddad and Tom Becker and schedule a final interview with the "
          "higher scorer on Thursday 7 May at 11:00.",
        calls=[("get_candidate", {"name": "Amira Haddad"}, "Amira Haddad: assessment 87/100"),
               ("get_candidate", {"name": "Tom Becker"}, "Tom Becker: assessment 91/100"),
               ("schedule_interview", {"candidate": "Tom Becker", "time": "2026-05-07T11:00", "stage": "final"},
                "interview scheduled, invite sent")],
        steps=["Call get_candidate for Amira Haddad", "Call get_candidate for Tom Becker",
               "Call schedule_interview with the higher scorer", "Tell the user"],
        para=["Read Amira's assessment score", "Read Tom's assessment score",
              "Invite the stronger candidate to the final round", "Tell the user"],
        answer="Tom Becker scored 91 and Amira Haddad 87, so I scheduled Tom's final interview for Thursday at 11:00 "
               "and sent the invite.",
        alt="The final interview goes to Tom Becker, the higher scorer (91/100 against Amira's 87): Thursday at "
            "11:00, invitation sent.",
        drop="Tom Becker scored 91/100 and Amira Haddad 87/100, so Tom is the higher scorer for the final interview.",
        wrong="Tom Becker scored 91 and Amira Haddad 78, so I scheduled Tom's final interview for Thursday at 11:00 "
              "and sent the invite.",
        partial="Tom Becker has the higher score (91 against 87). I haven't scheduled the interview yet.",
        nonseq=({"candidate": "Amira Haddad"}, None,
                "Amira Haddad scored 87 and Tom Becker 91, so Amira is the higher scorer; I scheduled her final "
                "interview for Thursday at 11:00."),
        error="Error: interviewer calendar unavailable",
        wrong_tool=(1, "search_web", {"query": "Tom Becker"}, "Tom Becker: LinkedIn profile, Berlin"),
        missing=0,
        extra=("send_rejection", {"candidate": "Amira Haddad"}, "rejection sent"),
    ),
    dict(
        id="birthday-flowers",
        q="When is my mom's birthday? Check the earliest delivery for a bouquet from Bloom & Co and order it for "
          "delivery on her birthday if they can make it.",
        calls=[("get_birthday", {"name": "Mom"}, "Mom: 9 May"),
               ("check_delivery", {"shop": "Bloom & Co", "item": "bouquet"}, "earliest delivery 7 May"),
               ("place_order", {"shop": "Bloom & Co", "item": "bouquet", "delivery_date": "2026-05-09",
                                "recipient": "Mom"}, "order BC-6610 placed, delivery 9 May")],
        steps=["Call get_birthday for Mom", "Call check_delivery at Bloom & Co",
               "Call place_order for delivery on the birthday", "Confirm to the user"],
        para=["Find out the date of Mom's birthday", "Find out how soon Bloom & Co can deliver",
              "Order the bouquet to arrive on the day", "Confirm to the user"],
        answer="Your mom's birthday is 9 May and Bloom & Co can deliver from 7 May, so I ordered the bouquet for "
               "delivery on 9 May, order BC-6610.",
        alt="The bouquet will reach your mom on her birthday, 9 May: Bloom & Co can deliver any day from 7 May, and "
            "order BC-6610 is placed.",
        drop="Your mom's birthday is 9 May, and Bloom & Co can deliver a bouquet from 7 May, so they can make it in "
             "time.",
        wrong="Your mom's birthday is 9 May and Bloom & Co can deliver from 7 May, so I ordered the bouquet for "
              "delivery on 7 May, order BC-6610.",
        partial="Her birthday is 9 May and Bloom & Co can deliver from 7 May, so it is possible. I haven't ordered "
                "yet.",
        nonseq=(None, None,
                "Your mom's birthday is 9 May, but Bloom & Co can only deliver from 7 May, so they can't make it and "
                "I didn't order."),
        error="Error: payment declined",
        wrong_tool=(1, "search_web", {"query": "Bloom & Co delivery times"},
                    "Bloom & Co: same-day delivery in the city centre"),
        missing=0,
        extra=("send_email", {"to": "mom@example.com", "subject": "Surprise", "body": "Flowers are coming!"}, "sent"),
    ),
    dict(
        id="cross-timezone-call",
        q="What time is it now in Tokyo and in New York? Schedule a 30-minute call with Kenji (Tokyo) and Maria (New "
          "York) at the next time that is between 8:00 and 20:00 for both of them.",
        calls=[("get_time", {"timezone": "Asia/Tokyo"}, "Tokyo: Mon 4 May 22:00 (UTC+9)"),
               ("get_time", {"timezone": "America/New_York"}, "New York: Mon 4 May 09:00 (UTC-4)"),
               ("create_event", {"title": "Call with Kenji and Maria", "start": "2026-05-04T19:00-04:00",
                                 "duration_min": 30, "attendees": ["Kenji", "Maria"]}, "event created")],
        steps=["Call get_time for Tokyo", "Call get_time for New York",
               "Call create_event at the first time inside 8:00-20:00 for both", "Tell the user"],
        para=["Find the current time in Tokyo", "Find the current time in New York",
              "Set up the call at the first hour that suits both", "Tell the user"],
        answer="It's 22:00 in Tokyo and 09:00 in New York (13 hours apart). The next time inside 8:00-20:00 for both "
               "is 19:00 today in New York, which is 08:00 tomorrow in Tokyo, so I scheduled the call then.",
        alt="Call booked for 7pm New York time today, which is 8am tomorrow for Kenji in Tokyo, the first moment both "
            "of them are within 8:00-20:00. Right now it is 9am in New York and 10pm in Tokyo.",
        drop="It's 22:00 in Tokyo and 09:00 in New York. The next time that works for both is 19:00 New York time, "
             "08:00 in Tokyo.",
        wrong="It's 22:00 in Tokyo and 09:00 in New York (13 hours apart). The next time inside 8:00-20:00 for both "
              "is 19:00 today in New York, which is 09:00 tomorrow in Tokyo, so I scheduled the call then.",
        partial="It's 22:00 in Tokyo and 09:00 in New York; 19:00 New York / 08:00 Tokyo works for both. I haven't "
                "scheduled the call yet.",
        nonseq=({"start": "2026-05-04T10:00-04:00"}, None,
                "It's 22:00 in Tokyo and 09:00 in New York, so 10:00 New York time works for both; I scheduled the "
                "call for 10:00 New York time (23:00 in Tokyo)."),
        error="Error: attendee Kenji not found in directory",
        wrong_tool=(1, "get_weather", {"city": "New York"}, "New York: 16°C, cloudy"),
        missing=1,
        extra=("get_time", {"timezone": "Europe/London"}, "London: Mon 4 May 14:00"),
    ),
    dict(
        id="car-rental",
        q="Find an automatic rental car for 3 days from 15 June at the airport branch and at the downtown branch, "
          "and book the cheaper one.",
        calls=[("search_cars", {"location": "airport", "pickup": "2026-06-15", "days": 3,
                                "transmission": "automatic"}, "Airport: VW Golf automatic, 165 EUR for 3 days"),
               ("search_cars", {"location": "downtown", "pickup": "2026-06-15", "days": 3,
                                "transmission": "automatic"}, "Downtown: Toyota Corolla automatic, 141 EUR for 3 days"),
               ("book_car", {"location": "downtown", "car": "Toyota Corolla", "pickup": "2026-06-15", "days": 3},
                "booked, confirmation RC-7720")],
        steps=["Call search_cars at the airport", "Call search_cars downtown", "Call book_car for the cheaper car",
               "Confirm to the user"],
        para=["Price an automatic at the airport", "Price an automatic downtown", "Reserve the lower-priced car",
              "Confirm to the user"],
        answer="An automatic costs 165 EUR at the airport (VW Golf) and 141 EUR downtown (Toyota Corolla), so I "
               "booked the downtown Corolla for 3 days from 15 June, confirmation RC-7720.",
        alt="Booked the cheaper option: a Toyota Corolla automatic from the downtown branch, 15-18 June, 141 EUR "
            "(confirmation RC-7720). The airport's VW Golf would have been 165 EUR.",
        drop="The downtown Toyota Corolla automatic is 141 EUR for 3 days, cheaper than the airport's VW Golf at 165 "
             "EUR.",
        wrong="An automatic costs 165 EUR at the airport (VW Golf) and 141 EUR downtown (Toyota Corolla), so I "
              "booked the Corolla for 3 days from 15 June, confirmation RC-7720; pick it up at the airport.",
        partial="The downtown Corolla at 141 EUR is cheaper than the airport Golf at 165 EUR. I haven't booked it "
                "yet.",
        nonseq=({"location": "airport", "car": "VW Golf"}, "booked, confirmation RC-7721",
                "The airport Golf is 165 EUR and the downtown Corolla 141 EUR, so I booked the cheaper airport Golf, "
                "confirmation RC-7721."),
        error="Error: no automatic cars left at this location",
        wrong_tool=(1, "search_web", {"query": "car rental downtown automatic"},
                    "Compare rental deals from 35 EUR/day"),
        missing=0,
        extra=("buy_insurance", {"confirmation": "RC-7720", "plan": "full"}, "insurance added, 45 EUR"),
    ),
    dict(
        id="theatre-tickets",
        q="How much are two tickets for the Saturday (9 May) and the Sunday (10 May) performance of Hamlet? Buy two "
          "for the cheaper day.",
        calls=[("get_ticket_price", {"show": "Hamlet", "date": "2026-05-09", "quantity": 2},
                "Sat 9 May: 2 x 48 EUR = 96 EUR"),
               ("get_ticket_price", {"show": "Hamlet", "date": "2026-05-10", "quantity": 2},
                "Sun 10 May: 2 x 39 EUR = 78 EUR"),
               ("buy_tickets", {"show": "Hamlet", "date": "2026-05-10", "quantity": 2},
                "purchased, tickets sent to your email")],
        steps=["Call get_ticket_price for Saturday", "Call get_ticket_price for Sunday",
               "Call buy_tickets for the cheaper day", "Tell the user"],
        para=["Price two seats on Saturday", "Price two seats on Sunday", "Purchase two for whichever costs less",
              "Tell the user"],
        answer="Two tickets cost 96 EUR on Saturday and 78 EUR on Sunday, so I bought two for Sunday 10 May; they are "
               "in your email.",
        alt="Sunday is cheaper, 39 EUR a seat against 48 on Saturday, so two Hamlet tickets for Sunday 10 May (78 "
            "EUR) are bought and on their way to your inbox.",
        drop="Two tickets for Hamlet are 96 EUR on Saturday and 78 EUR on Sunday, so Sunday is the cheaper day.",
        wrong="Two tickets cost 96 EUR on Saturday and 78 EUR on Sunday, so I bought two for Sunday 10 May for 87 "
              "EUR; they are in your email.",
        partial="Sunday is cheaper: 78 EUR for two against 96 EUR on Saturday. I haven't bought them yet.",
        nonseq=({"date": "2026-05-09"}, None,
                "Saturday's seats are 48 EUR each and Sunday's 39 EUR, so I bought two for the cheaper Saturday "
                "show."),
        error="Error: seats no longer available",
        wrong_tool=(1, "get_show_info", {"show": "Hamlet"}, "Hamlet: runs 1-31 May, 3h with interval"),
        missing=1,
        extra=("buy_tickets", {"show": "Hamlet", "date": "2026-05-09", "quantity": 2},
               "purchased, tickets sent to your email"),
    ),
    dict(
        id="expense-report",
        q="Add up receipts R-101 and R-102 and submit them as one expense report for the Munich trip.",
        calls=[("get_receipt", {"id": "R-101"}, "R-101: hotel, 212.00 EUR"),
               ("get_receipt", {"id": "R-102"}, "R-102: taxi, 38.50 EUR"),
               ("submit_expense_report", {"title": "Munich trip", "receipts": ["R-101", "R-102"], "total": 250.5},
                "report EX-5003 submitted")],
        steps=["Call get_receipt for R-101", "Call get_receipt for R-102",
               "Call submit_expense_report with both receipts and the total", "Tell the user"],
        para=["Read the amount on R-101", "Read the amount on R-102", "File one claim for the Munich trip",
              "Tell the user"],
        answer="R-101 is the hotel at 212.00 EUR and R-102 a taxi at 38.50 EUR, 250.50 EUR in total. I submitted "
               "them as expense report EX-5003 for the Munich trip.",
        alt="Expense report EX-5003, 'Munich trip', is submitted with both receipts: hotel 212.00 EUR plus taxi 38.50 "
            "EUR makes 250.50 EUR.",
        drop="R-101 is the hotel at 212.00 EUR and R-102 a taxi at 38.50 EUR, so the Munich trip comes to 250.50 "
             "EUR.",
        wrong="R-101 is the hotel at 212.00 EUR and R-102 a taxi at 38.50 EUR, 250.50 EUR in total. I submitted "
              "them as expense report EX-5003 for the Berlin trip.",
        partial="The two receipts total 250.50 EUR (hotel 212.00, taxi 38.50). I haven't submitted the report yet.",
        nonseq=({"total": 240.5}, None,
                "R-101 is 212.00 EUR and R-102 38.50 EUR, so the total is 240.50 EUR; I submitted report EX-5003 "
                "for 240.50 EUR."),
        error="Error: receipt R-102 already claimed in report EX-4870",
        wrong_tool=(1, "search_email", {"query": "R-102"}, "Email 'Your taxi receipt' from CityCab, 3 May"),
        missing=1,
        extra=("get_receipt", {"id": "R-103"}, "R-103: dinner, 64.00 EUR"),
    ),
    dict(
        id="library-hold",
        q="Is 'The Overstory' available at the Central or the Northside library branch? Place a hold at a branch "
          "that has a copy on the shelf.",
        calls=[("search_catalog", {"title": "The Overstory", "branch": "Central"}, "Central: both copies on loan"),
               ("search_catalog", {"title": "The Overstory", "branch": "Northside"}, "Northside: 1 copy on the shelf"),
               ("place_hold", {"title": "The Overstory", "branch": "Northside"},
                "hold placed, ready for pickup tomorrow")],
        steps=["Call search_catalog at Central", "Call search_catalog at Northside",
               "Call place_hold at the branch with a copy", "Tell the user"],
        para=["See if Central has it in", "See if Northside has it in", "Reserve it where a copy is in",
              "Tell the user"],
        answer="Both copies at Central are on loan, but Northside has one on the shelf, so I placed a hold there; it "
               "will be ready for pickup tomorrow.",
        alt="Your hold on 'The Overstory' is at Northside, which has a copy on the shelf; pick it up from tomorrow. "
            "Central's two copies are both out.",
        drop="Central's copies are both on loan, but Northside has 1 copy of 'The Overstory' on the shelf.",
        wrong="Both copies at Central are on loan, but Northside has one on the shelf, so I placed a hold there; it "
              "will be ready for pickup next week.",
        partial="Northside has a copy on the shelf (Central's are on loan). I haven't placed the hold yet.",
        nonseq=({"branch": "Central"}, "hold placed, position 3 in queue",
                "Central's copies are on loan and Northside has one on the shelf, so I placed a hold at Central, "
                "where you are third in the queue."),
        error="Error: library card expired",
        wrong_tool=(1, "search_web", {"query": "The Overstory"},
                    "The Overstory, novel by Richard Powers, 2019 Pulitzer Prize"),
        missing=0,
        extra=("renew_loans", {"card": "me"}, "3 loans renewed"),
    ),
    dict(
        id="failing-branch-issue",
        q="Check the latest test runs on the main and release branches and open an issue for whichever branch is "
          "failing.",
        calls=[("get_test_results", {"branch": "main"}, "main: 1,204 passed, 0 failed"),
               ("get_test_results", {"branch": "release"}, "release: 1,198 passed, 6 failed (test_payments)"),
               ("create_issue", {"title": "Release branch: 6 failing tests in test_payments",
                                 "labels": ["ci", "release"]}, "issue #812 opened")],
        steps=["Call get_test_results for main", "Call get_test_results for release",
               "Call create_issue for the failing branch", "Tell the user"],
        para=["Look at main's latest run", "Look at release's latest run", "File a bug for the red branch",
              "Tell the user"],
        answer="main is green (1,204 passed), but release has 6 failing tests in test_payments, so I opened issue "
               "#812 for the release branch.",
        alt="Issue #812 now tracks the release branch, where 6 tests in test_payments fail; main passes all 1,204 "
            "tests.",
        drop="main passes all 1,204 tests, while release has 6 failures in test_payments, so release is the failing "
             "branch.",
        wrong="main is green (1,204 passed), but release has 6 failing tests in test_auth, so I opened issue #812 for "
              "the release branch.",
        partial="release is failing (6 tests in test_payments); main is green. I haven't opened an issue yet.",
        nonseq=({"title": "Main branch: failing tests", "labels": ["ci", "main"]}, None,
                "main has 1,204 passing tests and release 6 failures, so I opened issue #812 for the main branch."),
        error="Error: repository is read-only",
        wrong_tool=(1, "get_commit_log", {"branch": "release", "limit": 5},
                    "5 commits: 'bump version', 'fix typo', 'update deps', 'refactor payments', 'docs'"),
        missing=0,
        extra=("revert_commit", {"branch": "release", "commit": "HEAD"}, "reverted"),
    ),
    dict(
        id="evening-run",
        q="Check the air quality and the rain forecast in Leeds for 6pm today and, if both look fine, add a 6pm run "
          "to my calendar.",
        calls=[("get_air_quality", {"city": "Leeds"}, "Leeds AQI 32 (good)"),
               ("get_forecast", {"city": "Leeds", "day": "today", "hours": "18-19"}, "Leeds 18:00-19:00: 0% rain, "
                                                                                      "14°C"),
               ("create_event", {"title": "Run", "start": "2026-05-04T18:00", "duration_min": 45}, "event created")],
        steps=["Call get_air_quality for Leeds", "Call get_forecast for Leeds at 6pm",
               "Call create_event for the run if both are fine", "Tell the user"],
        para=["Find out how clean the air is in Leeds", "Find out whether it will rain at 6pm",
              "Put the run in the calendar when conditions are good", "Tell the user"],
        answer="Air quality in Leeds is good (AQI 32) and there's a 0% chance of rain at 6pm (14°C), so I added a 6pm "
               "run to your calendar.",
        alt="Both look fine: AQI 32 is good and no rain is expected between 6 and 7pm (14°C), so your 6pm run is now "
            "in the calendar.",
        drop="Leeds has good air quality this evening (AQI 32) and no rain forecast at 6pm, with 14°C, which are "
             "great conditions for a run.",
        wrong="Air quality in Leeds is good (AQI 32) and there's a 40% chance of rain at 6pm (14°C), so I added a 6pm "
              "run to your calendar.",
        partial="AQI 32 (good) and no rain at 6pm, so conditions are fine. I haven't added the run to your calendar "
                "yet.",
        nonseq=(None, None,
                "Air quality is good (AQI 32) and no rain is forecast, so conditions aren't right for a run and I "
                "didn't add it."),
        error="Error: calendar not connected",
        wrong_tool=(0, "search_web", {"query": "Leeds pollution"}, "Leeds clean air zone: information for drivers"),
        missing=0,
        extra=("get_air_quality", {"city": "Manchester"}, "Manchester AQI 41 (good)"),
    ),
    dict(
        id="utility-bills",
        q="What are my current electricity and water bills? Schedule one payment for the total on 28 May.",
        calls=[("get_bill", {"utility": "electricity"}, "electricity: 86.40 EUR due 30 May"),
               ("get_bill", {"utility": "water"}, "water: 31.10 EUR due 30 May"),
               ("schedule_payment", {"amount": 117.5, "date": "2026-05-28", "payee": "Utilities"},
                "payment P-661 scheduled")],
        steps=["Call get_bill for electricity", "Call get_bill for water",
               "Call schedule_payment for the total on 28 May", "Tell the user"],
        para=["Read the electricity bill", "Read the water bill", "Set up a single payment of the sum for the 28th",
              "Tell the user"],
        answer="Electricity is 86.40 EUR and water 31.10 EUR, 117.50 EUR together. I scheduled payment P-661 for "
               "117.50 EUR on 28 May.",
        alt="One payment of 117.50 EUR (86.40 electricity plus 31.10 water) goes out on 28 May as P-661, two days "
            "before both bills are due.",
        drop="Electricity is 86.40 EUR and water 31.10 EUR, so the total to pay on 28 May is 117.50 EUR.",
        wrong="Electricity is 86.40 EUR and water 31.10 EUR, 117.50 EUR together. I scheduled payment P-661 for "
              "117.50 EUR on 30 May.",
        partial="The total is 117.50 EUR (86.40 plus 31.10). I haven't scheduled the payment yet.",
        nonseq=({"amount": 86.4}, None,
                "Electricity is 86.40 EUR and water 31.10 EUR, so the total is 86.40 EUR; I scheduled payment P-661 "
                "for that on 28 May."),
        error="Error: insufficient funds for the scheduled date",
        wrong_tool=(1, "get_bank_statement", {"month": "2026-04"}, "Water -29.80 EUR (April)"),
        missing=1,
        extra=("schedule_payment", {"amount": 86.4, "date": "2026-05-28", "payee": "Electricity"},
               "payment P-662 scheduled"),
    ),
    dict(
        id="arena-parking",
        q="Check parking for Saturday 9 May at the Arena North and Arena South garages and reserve a spot at the "
          "cheaper one.",
        calls=[("check_parking", {"garage": "Arena North", "date": "2026-05-09"}, "Arena North: 18 EUR, 40 spots "
                                                                                  "left"),
               ("check_parking", {"garage": "Arena South", "date": "2026-05-09"}, "Arena South: 12 EUR, 5 spots left"),
               ("reserve_parking", {"garage": "Arena South", "date": "2026-05-09"}, "reserved, code PS-4402")],
        steps=["Call check_parking for Arena North", "Call check_parking for Arena South",
               "Call reserve_parking at the cheaper garage", "Give the user the code"],
        para=["Price the North garage", "Price the South garage", "Hold a spot at the lower price",
              "Give the user the code"],
        answer="Arena North costs 18 EUR and Arena South 12 EUR, so I reserved a spot at Arena South for Saturday, "
               "code PS-4402.",
        alt="You have a Saturday spot at Arena South (code PS-4402) for 12 EUR, 6 EUR less than the North garage.",
        drop="Arena South is cheaper at 12 EUR (5 spots left) than Arena North at 18 EUR.",
        wrong="Arena North costs 18 EUR and Arena South 12 EUR, so I reserved a spot at Arena South for Sunday, code "
              "PS-4402.",
        partial="Arena South is cheaper (12 EUR against 18 EUR). I haven't reserved a spot yet.",
        nonseq=({"garage": "Arena North"}, "reserved, code PN-1170",
                "Arena South has only 5 spots left, so I reserved the cheaper Arena North at 18 EUR, code PN-1170."),
        error="Error: reservation window closed",
        wrong_tool=(1, "get_directions", {"to": "Arena South"}, "12 min by car"),
        missing=0,
        extra=("check_parking", {"garage": "City Centre", "date": "2026-05-09"}, "City Centre: 9 EUR, 100 spots "
                                                                                  "left"),
    ),
    dict(
        id="loan-offers",
        q="Compare the 5-year car loan offers from Bank A and Bank B for 15,000 EUR and email me the cheaper offer at "
          "me@example.com.",
        calls=[("get_loan_offer", {"bank": "Bank A", "amount": 15000, "years": 5}, "Bank A: 5.9% APR, 289 EUR/month"),
               ("get_loan_offer", {"bank": "Bank B", "amount": 15000, "years": 5}, "Bank B: 5.4% APR, 286 EUR/month"),
               ("send_email", {"to": "me@example.com", "subject": "Cheaper car loan",
                               "body": "Bank B: 5.4% APR, 286 EUR/month for 15,000 EUR over 5 years."}, "sent")],
        steps=["Call get_loan_offer for Bank A", "Call get_loan_offer for Bank B",
               "Call send_email with the cheaper offer", "Tell the user"],
        para=["Get Bank A's terms", "Get Bank B's terms", "Mail the user the lower-cost offer", "Tell the user"],
        answer="Bank A offers 5.9% APR (289 EUR a month) and Bank B 5.4% APR (286 EUR a month). Bank B is cheaper, "
               "and I emailed you its offer.",
        alt="Bank B wins with 5.4% APR, 286 EUR a month, against Bank A's 5.9% and 289 EUR; the details are in your "
            "inbox.",
        drop="Bank A charges 5.9% APR (289 EUR/month) and Bank B 5.4% APR (286 EUR/month), so Bank B is the cheaper "
             "loan.",
        wrong="Bank A offers 5.9% APR (289 EUR a month) and Bank B 5.4% APR (268 EUR a month). Bank B is cheaper, "
              "and I emailed you its offer.",
        partial="Bank B is cheaper (5.4% APR, 286 EUR/month against 5.9%, 289 EUR). I haven't emailed it yet.",
        nonseq=({"body": "Bank A: 5.9% APR, 289 EUR/month for 15,000 EUR over 5 years."}, None,
                "Bank A's APR is higher at 5.9%, so it is the better deal; I emailed you the Bank A offer."),
        error="Error: invalid recipient address",
        wrong_tool=(1, "search_web", {"query": "Bank B car loan rate"}, "Bank B car loans from 4.9% APR*"),
        missing=1,
        extra=("apply_for_loan", {"bank": "Bank B", "amount": 15000, "years": 5}, "application submitted"),
    ),
    dict(
        id="thermostat",
        q="What's the temperature in the living room and outside right now? If the room is below 19°C and it is "
          "colder outside, set the thermostat to 21°C.",
        calls=[("get_room_temperature", {"room": "living room"}, "living room: 17.5°C"),
               ("get_current_weather", {"location": "home"}, "outside: 6°C, clear"),
               ("set_thermostat", {"room": "living room", "target_c": 21}, "thermostat set to 21°C")],
        steps=["Call get_room_temperature for the living room", "Call get_current_weather outside",
               "Call set_thermostat to 21°C if both conditions hold", "Tell the user"],
        para=["Read the living-room sensor", "Read the outdoor temperature",
              "Raise the heating to 21°C when it is cold inside and colder outside", "Tell the user"],
        answer="The living room is at 17.5°C and it's 6°C outside, so I set the thermostat to 21°C.",
        alt="Heating is on: the thermostat now targets 21°C, since the living room was down to 17.5°C with 6°C "
            "outside.",
        drop="The living room is at 17.5°C and it's 6°C outside, so both conditions for heating are met.",
        wrong="The living room is at 17.5°C and it's 6°C outside, so I set the thermostat to 22°C.",
        partial="It's 17.5°C inside and 6°C outside, so heating makes sense. I haven't changed the thermostat yet.",
        nonseq=(None, None, "The living room is at 17.5°C, which is above 19°C, so I left the thermostat as it is."),
        error="Error: thermostat offline",
        wrong_tool=(1, "get_forecast", {"city": "home", "day": "tomorrow"}, "tomorrow: 4-11°C"),
        missing=1,
        extra=("set_thermostat", {"room": "bedroom", "target_c": 21}, "thermostat set to 21°C"),
    ),
    dict(
        id="pickup-text",
        q="When does flight LH400 land and at which terminal? Text Jonas (+49 170 5550123) so he can pick me up.",
        calls=[("get_flight_status", {"flight": "LH400"}, "LH400: delayed, lands 16:45"),
               ("get_gate_info", {"flight": "LH400"}, "LH400: arrives Terminal 1, gate B22"),
               ("send_sms", {"to": "+49 170 5550123",
                             "text": "LH400 lands 16:45 at Terminal 1 (gate B22). Can you pick me up?"}, "delivered")],
        steps=["Call get_flight_status for LH400", "Call get_gate_info for LH400",
               "Call send_sms to Jonas with the time and terminal", "Tell the user"],
        para=["Find LH400's landing time", "Find LH400's arrival terminal", "Message Jonas the time and terminal",
              "Tell the user"],
        answer="LH400 is delayed and now lands at 16:45 at Terminal 1, gate B22. I texted Jonas the time and "
               "terminal.",
        alt="Jonas has a text: the delayed LH400 lands at 16:45, Terminal 1 (gate B22).",
        drop="LH400 is delayed and now lands at 16:45, arriving at Terminal 1, gate B22.",
        wrong="LH400 is on time and lands at 16:45 at Terminal 1, gate B22. I texted Jonas the time and terminal.",
        partial="LH400 lands at 16:45 at Terminal 1, gate B22. I haven't texted Jonas yet.",
        nonseq=({"text": "LH400 lands 16:45 at Terminal 2. Can you pick me up?"}, None,
                "LH400 lands at 16:45 at gate B22; B gates are usually in Terminal 2, so I texted Jonas to come to "
                "Terminal 2."),
        error="Error: SMS not delivered, number unreachable",
        wrong_tool=(1, "get_airport_map", {"airport": "FRA"}, "Terminal 1: gates A-C; Terminal 2: gates D-E"),
        missing=1,
        extra=("book_taxi", {"from": "FRA Terminal 1", "time": "16:45"}, "taxi booked"),
    ),
    dict(
        id="grade-average",
        q="Get Lea's math and physics grades for this term and email her parents (parents@lea-family.example) her "
          "average.",
        calls=[("get_grade", {"student": "Lea", "subject": "math"}, "math: 14/20"),
               ("get_grade", {"student": "Lea", "subject": "physics"}, "physics: 17/20"),
               ("send_email", {"to": "parents@lea-family.example", "subject": "Lea's term average",
                               "body": "Lea's average in math and physics this term is 15.5/20 (math 14, physics "
                                       "17)."}, "sent")],
        steps=["Call get_grade for math", "Call get_grade for physics", "Call send_email with the average",
               "Tell the user"],
        para=["Fetch Lea's math grade", "Fetch Lea's physics grade", "Write to her parents with the mean",
              "Tell the user"],
        answer="Lea has 14/20 in math and 17/20 in physics, an average of 15.5/20. I emailed that to her parents.",
        alt="Lea's parents now know her term average: 15.5 out of 20, from 14 in math and 17 in physics.",
        drop="Lea scored 14/20 in math and 17/20 in physics, so her average is 15.5/20.",
        wrong="Lea has 14/20 in math and 17/20 in physics, an average of 16.5/20. I emailed that to her parents.",
        partial="Lea's average is 15.5/20 (math 14, physics 17). I haven't emailed her parents yet.",
        nonseq=({"body": "Lea's average this term is 17/20."}, None,
                "Lea has 14/20 in math and 17/20 in physics; her best grade is 17, so her average is 17/20, and I "
                "emailed that to her parents."),
        error="Error: address bounced",
        wrong_tool=(1, "get_attendance", {"student": "Lea", "subject": "physics"}, "physics attendance: 96%"),
        missing=1,
        extra=("send_email", {"to": "lea@school.example", "subject": "Grades", "body": "Your average is 15.5"},
               "sent"),
    ),
    dict(
        id="lasagne-shopping",
        q="What does my lasagne recipe need, and what's already in my pantry? Add the missing ingredients to my "
          "shopping list.",
        calls=[("get_recipe", {"name": "lasagne"},
                "lasagne: pasta sheets, minced beef, tomato passata, onion, mozzarella"),
               ("get_pantry", {}, "pantry: pasta sheets, onion, rice, olive oil"),
               ("add_to_shopping_list", {"items": ["minced beef", "tomato passata", "mozzarella"]}, "3 items added")],
        steps=["Call get_recipe for lasagne", "Call get_pantry",
               "Call add_to_shopping_list with the ingredients not in the pantry", "Tell the user"],
        para=["Read the lasagne ingredient list", "See what is in the cupboard",
              "Put whatever is lacking on the list", "Tell the user"],
        answer="The lasagne needs pasta sheets, minced beef, tomato passata, onion and mozzarella. You already have "
               "pasta sheets and onion, so I added minced beef, tomato passata and mozzarella to your shopping list.",
        alt="Your shopping list now has the three things the lasagne needs that your pantry lacks: mozzarella, "
            "tomato passata and minced beef. Pasta sheets and onion you already have.",
        drop="For the lasagne you still need minced beef, tomato passata and mozzarella; pasta sheets and onion are "
             "already in your pantry.",
        wrong="The lasagne needs pasta sheets, minced beef, tomato passata, onion and mozzarella. You already have "
              "pasta sheets and onion, so I added minced beef, tomato passata and parmesan to your shopping list.",
        partial="You're missing minced beef, tomato passata and mozzarella. I haven't added them to the list yet.",
        nonseq=({"items": ["pasta sheets", "onion"]}, "2 items added",
                "You already have pasta sheets and onion, so I added pasta sheets and onion to your shopping list."),
        error="Error: shopping list is locked by another device",
        wrong_tool=(1, "search_web", {"query": "what is in my pantry"},
                    "Pantry essentials: 20 staples every kitchen needs"),
        missing=1,
        extra=("order_groceries", {"items": ["minced beef", "tomato passata", "mozzarella"]},
               "order placed, delivery tomorrow"),
    ),
    dict(
        id="order-address",
        q="Customer 3391 moved. Look up the new address on their profile and the status of their open order 7720, "
          "and if the order hasn't shipped, update its delivery address.",
        calls=[("get_customer", {"customer_id": "3391"}, "3391: new address 14 Rue Cler, 75007 Paris (updated 2 May)"),
               ("get_order", {"order_id": "7720"}, "order 7720: processing, not shipped"),
               ("update_order_address", {"order_id": "7720", "address": "14 Rue Cler, 75007 Paris"},
                "address updated")],
        steps=["Call get_customer for 3391", "Call get_order for 7720",
               "Call update_order_address if the order hasn't shipped", "Tell the user"],
        para=["Read the customer's new address", "See whether order 7720 has left the warehouse",
              "Redirect the order while it still can be", "Tell the user"],
        answer="Customer 3391's new address is 14 Rue Cler, 75007 Paris, and order 7720 is still processing, so I "
               "updated its delivery address.",
        alt="Order 7720 hadn't shipped yet, so it will now go to the customer's new address, 14 Rue Cler, 75007 "
            "Paris.",
        drop="The new address is 14 Rue Cler, 75007 Paris, and order 7720 hasn't shipped, so it can still be "
             "redirected.",
        wrong="Customer 3391's new address is 14 Rue Cler, 75007 Paris, and order 7720 has already shipped, so I "
              "updated its delivery address.",
        partial="The new address is 14 Rue Cler, 75007 Paris, and order 7720 hasn't shipped. I haven't changed its "
                "address yet.",
        nonseq=(None, None,
                "Order 7720 is still processing and has not shipped, so it is too late to change the address; I left "
                "it as it was."),
        error="Error: order locked for fulfilment",
        wrong_tool=(0, "search_crm_notes", {"customer_id": "3391"}, "Note 28 Apr: customer mentioned a move"),
        missing=1,
        extra=("cancel_order", {"order_id": "7720"}, "order cancelled"),
    ),
    dict(
        id="football-post",
        q="What was the score of Arsenal's last match, and where are they in the league table? Post both to the "
          "#football channel.",
        calls=[("get_match_result", {"team": "Arsenal", "which": "last"}, "Arsenal 2-1 Chelsea (3 May)"),
               ("get_standings", {"league": "Premier League", "team": "Arsenal"}, "Arsenal: 2nd, 78 points"),
               ("post_message", {"channel": "#football",
                                 "text": "Arsenal beat Chelsea 2-1 on 3 May and sit 2nd with 78 points."}, "posted")],
        steps=["Call get_match_result for Arsenal", "Call get_standings for Arsenal",
               "Call post_message to #football with both", "Tell the user"],
        para=["Find Arsenal's latest score", "Find Arsenal's league position", "Share both in #football",
              "Tell the user"],
        answer="Arsenal beat Chelsea 2-1 on 3 May and are 2nd in the table with 78 points. I posted both to "
               "#football.",
        alt="Posted in #football: Arsenal won 2-1 against Chelsea on 3 May, and they're second in the league on 78 "
            "points.",
        drop="Arsenal beat Chelsea 2-1 on 3 May and are 2nd in the Premier League with 78 points.",
        wrong="Arsenal beat Chelsea 2-1 on 3 May and are 1st in the table with 78 points. I posted both to "
              "#football.",
        partial="Arsenal won 2-1 against Chelsea and are 2nd with 78 points. I haven't posted it to #football yet.",
        nonseq=({"text": "Chelsea beat Arsenal 2-1 on 3 May; Arsenal sit 2nd with 78 points."}, None,
                "The result reads Arsenal 2-1 Chelsea, so Chelsea won; I posted to #football that Arsenal lost 2-1 "
                "and sit 2nd with 78 points."),
        error="Error: bot is not a member of #football",
        wrong_tool=(1, "search_news", {"query": "Arsenal"}, "Arsenal edge Chelsea in London derby"),
        missing=1,
        extra=("post_message", {"channel": "#general", "text": "Arsenal won!"}, "posted"),
    ),
    dict(
        id="steps-left",
        q="How many steps have I done today and what's my daily goal? Send me a notification with how many steps "
          "are left.",
        calls=[("get_steps", {"date": "today"}, "6,420 steps today"),
               ("get_goal", {"metric": "steps"}, "daily goal: 10,000 steps"),
               ("send_notification", {"text": "3,580 steps to go to reach 10,000 today."}, "notification sent")],
        steps=["Call get_steps for today", "Call get_goal for steps",
               "Call send_notification with the steps left", "Tell the user"],
        para=["Read today's step count", "Read the daily step target", "Push the remaining count to the phone",
              "Tell the user"],
        answer="You've walked 6,420 steps today against a goal of 10,000, so 3,580 are left. I sent you a "
               "notification saying so.",
        alt="3,580 steps to go: you're at 6,420 of your 10,000 daily goal, and the notification is on your phone.",
        drop="You're at 6,420 steps today with a 10,000 goal, so 3,580 steps are left.",
        wrong="You've walked 6,420 steps today against a goal of 10,000, so 4,580 are left. I sent you a "
              "notification saying so.",
        partial="6,420 of 10,000 steps, so 3,580 are left. I haven't sent the notification yet.",
        nonseq=({"text": "6,420 steps to go today."}, None,
                "Your goal is 10,000 and you've done 6,420, so 6,420 steps are left; I sent you a notification."),
        error="Error: notifications disabled for this device",
        wrong_tool=(1, "get_profile", {"user": "me"}, "age 34, height 178 cm, weight 74 kg"),
        missing=1,
        extra=("set_goal", {"metric": "steps", "value": 8000}, "goal updated"),
    ),
    dict(
        id="japan-trip-note",
        q="Do I need a visa for Japan with a German passport for a 10-day trip, and what's the cheapest "
          "Frankfurt-Tokyo flight on 1 July? Save both in my 'Japan' note.",
        calls=[("get_visa_requirements", {"passport": "DE", "destination": "JP", "days": 10},
                "No visa needed for stays up to 90 days"),
               ("search_flights", {"from": "FRA", "to": "TYO", "date": "2026-07-01", "sort": "price"},
                "cheapest: ANA NH204, 742 EUR"),
               ("save_note", {"notebook": "Japan", "text": "No visa needed (up to 90 days). Cheapest flight FRA-TYO "
                                                            "1 July: ANA NH204, 742 EUR."}, "saved")],
        steps=["Call get_visa_requirements for a German passport", "Call search_flights Frankfurt to Tokyo on 1 July",
               "Call save_note with both answers", "Tell the user"],
        para=["Check the entry rules for Germans visiting Japan", "Find the lowest fare FRA to Tokyo on 1 July",
              "Write both into the Japan note", "Tell the user"],
        answer="With a German passport you don't need a visa for 10 days in Japan (stays up to 90 days are "
               "visa-free). The cheapest Frankfurt-Tokyo flight on 1 July is ANA NH204 at 742 EUR. Both are saved in "
               "your Japan note.",
        alt="Saved to your Japan note: no visa is required for your 10-day stay (the limit is 90 days), and ANA "
            "NH204 is the cheapest flight from Frankfurt to Tokyo on 1 July, at 742 EUR.",
        drop="With a German passport you don't need a visa for 10 days in Japan, and the cheapest Frankfurt-Tokyo "
             "flight on 1 July is ANA NH204 at 742 EUR.",
        wrong="With a German passport you don't need a visa for 10 days in Japan (stays up to 30 days are "
              "visa-free). The cheapest Frankfurt-Tokyo flight on 1 July is ANA NH204 at 742 EUR. Both are saved in "
              "your Japan note.",
        partial="No visa is needed for 10 days, and the cheapest flight is ANA NH204 at 742 EUR. I haven't saved "
                "them in your note yet.",
        nonseq=({"text": "Visa needed for the 10-day trip. Cheapest flight FRA-TYO 1 July: ANA NH204, 742 EUR."}, None,
                "Visa-free entry is only for stays up to 90 days and your trip is 10 days, so you'll need a visa; I "
                "saved that and the cheapest flight (ANA NH204, 742 EUR) in your Japan note."),
        error="Error: note service quota exceeded",
        wrong_tool=(0, "search_web", {"query": "Japan visa"}, "Japan visa information: varies by nationality"),
        missing=0,
        extra=("book_flight", {"flight": "NH204", "date": "2026-07-01"}, "booked, 742 EUR charged"),
    ),
    dict(
        id="translations-post",
        q="Translate 'Your order has shipped' into Spanish and French and post both versions to the #l10n channel.",
        calls=[("translate", {"text": "Your order has shipped", "target": "es"}, "Tu pedido ha sido enviado"),
               ("translate", {"text": "Your order has shipped", "target": "fr"}, "Votre commande a été expédiée"),
               ("post_message", {"channel": "#l10n",
                                 "text": "ES: Tu pedido ha sido enviado\nFR: Votre commande a été expédiée"},
                "posted")],
        steps=["Call translate into Spanish", "Call translate into French", "Call post_message to #l10n with both",
               "Tell the user"],
        para=["Render the sentence in Spanish", "Render the sentence in French",
              "Share both versions with the localisation team", "Tell the user"],
        answer="Spanish: 'Tu pedido ha sido enviado'; French: 'Votre commande a été expédiée'. I posted both to "
               "#l10n.",
        alt="Both translations are in #l10n: 'Votre commande a été expédiée' for French and 'Tu pedido ha sido "
            "enviado' for Spanish.",
        drop="Spanish: 'Tu pedido ha sido enviado'. French: 'Votre commande a été expédiée'.",
        wrong="Spanish: 'Tu pedido ha sido enviado'; French: 'Votre commande est arrivée'. I posted both to #l10n.",
        partial="Spanish: 'Tu pedido ha sido enviado'; French: 'Votre commande a été expédiée'. I haven't posted "
                "them to #l10n yet.",
        nonseq=({"text": "ES: Votre commande a été expédiée\nFR: Tu pedido ha sido enviado"}, None,
                "I posted both to #l10n: Spanish 'Votre commande a été expédiée' and French 'Tu pedido ha sido "
                "enviado'."),
        error="Error: posting rate limit exceeded",
        wrong_tool=(1, "search_web", {"query": "your order has shipped in French"},
                    "'Votre commande a été expédiée': example sentences"),
        missing=1,
        extra=("translate", {"text": "Your order has shipped", "target": "it"}, "Il tuo ordine è stato spedito"),
    ),
    dict(
        id="screen-claim",
        q="Does my gadget policy cover a cracked phone screen, what's the excess, and have I used up my claims for "
          "this year? If it's covered and I have claims left, file a claim for the 180 EUR repair quote.",
        calls=[("get_policy", {"type": "gadget"}, "Gadget policy GP-2231: accidental damage covered, excess 50 EUR"),
               ("get_claims_history", {"policy_type": "gadget"}, "no claims in the last 12 months (limit: 2 per "
                                                                    "year)"),
               ("file_claim", {"policy": "GP-2231", "item": "phone screen", "amount": 180},
                "claim CL-9043 filed; expected payout 130 EUR")],
        steps=["Call get_policy for the gadget policy", "Call get_claims_history for the gadget policy",
               "Call file_claim for 180 EUR if covered and claims remain", "Tell the user"],
        para=["Read what the gadget cover includes", "Count this year's claims",
              "Lodge the repair claim when allowed", "Tell the user"],
        answer="Your gadget policy GP-2231 covers accidental damage like a cracked screen, with a 50 EUR excess, and "
               "you have made no claims this year. I filed claim CL-9043 for 180 EUR; the expected payout is 130 EUR.",
        alt="Covered: claim CL-9043 is filed for the 180 EUR screen repair. After the 50 EUR excess you should get "
            "130 EUR back, and with no claims this year you are well within the limit of two.",
        drop="A cracked screen is covered as accidental damage under GP-2231 with a 50 EUR excess, and you have no "
             "claims this year, so you can claim the 180 EUR repair.",
        wrong="Your gadget policy GP-2231 covers accidental damage like a cracked screen, with a 50 EUR excess, and "
              "you have made no claims this year. I filed claim CL-9043 for 180 EUR; the expected payout is 180 EUR.",
        partial="It's covered with a 50 EUR excess and you have claims left. I haven't filed the claim yet.",
        nonseq=(None, None,
                "Accidental damage is covered and you have no claims this year, but because there is a 50 EUR "
                "excess the screen isn't covered, so I didn't file a claim."),
        error="Error: claim requires a photo of the damage",
        wrong_tool=(1, "search_web", {"query": "gadget insurance claim limits"},
                    "Most gadget policies allow 2 claims a year"),
        missing=1,
        extra=("file_claim", {"policy": "GP-2231", "item": "phone screen", "amount": 180}, "claim CL-9044 filed"),
    ),
    dict(
        id="conference-registration",
        q="Today is 4 May 2026. Is there still early-bird pricing for PyCon Lisbon, and does my travel budget have "
          "room for it? Register me if the early-bird price fits the remaining budget.",
        calls=[("get_event_pricing", {"event": "PyCon Lisbon"}, "early-bird 320 EUR until 15 May; regular 450 EUR"),
               ("get_budget", {"owner": "me", "category": "travel"}, "travel budget remaining: 400 EUR"),
               ("register_event", {"event": "PyCon Lisbon", "ticket": "early-bird"},
                "registered, invoice INV-7781 for 320 EUR")],
        steps=["Call get_event_pricing for PyCon Lisbon", "Call get_budget for travel",
               "Call register_event if the early-bird price fits", "Tell the user"],
        para=["Find the current ticket prices", "Find how much travel budget is left",
              "Sign up at the early-bird rate when affordable", "Tell the user"],
        answer="Early-bird tickets for PyCon Lisbon are still available at 320 EUR (until 15 May), and you have 400 "
               "EUR left in your travel budget, so I registered you: invoice INV-7781 for 320 EUR.",
        alt="You're registered for PyCon Lisbon at the early-bird rate of 320 EUR (invoice INV-7781); it fits the 400 "
            "EUR left in your travel budget, with 80 EUR to spare.",
        drop="Early-bird is 320 EUR until 15 May, and you have 400 EUR of travel budget left, so it fits.",
        wrong="Early-bird tickets for PyCon Lisbon are still available at 320 EUR (until 15 June), and you have 400 "
              "EUR left in your travel budget, so I registered you: invoice INV-7781 for 320 EUR.",
        partial="The 320 EUR early-bird fits your 400 EUR budget. I haven't registered you yet.",
        nonseq=(None, None,
                "The early-bird price is 320 EUR and your remaining budget is 400 EUR, so it doesn't fit and I didn't "
                "register you."),
        error="Error: registration form requires a dietary preference",
        wrong_tool=(1, "get_expenses", {"category": "travel", "year": 2026}, "travel spent so far: 1,600 EUR"),
        missing=1,
        extra=("book_hotel", {"hotel": "Lisbon Marriott", "checkin": "2026-06-10", "nights": 3},
               "confirmed, reservation LM-220"),
    ),
    dict(
        id="warranty-visit",
        q="Is my dishwasher (serial DW-88120) still under warranty, and when is the next technician visit "
          "available? Book the visit, marked as a warranty repair if it's covered.",
        calls=[("get_warranty", {"serial": "DW-88120"}, "warranty valid until 2026-09-30"),
               ("get_technician_slots", {"appliance": "dishwasher"}, "next: Thu 7 May 08:00-12:00"),
               ("book_technician", {"serial": "DW-88120", "slot": "2026-05-07 08:00-12:00", "warranty": True},
                "visit booked, job WR-310")],
        steps=["Call get_warranty for DW-88120", "Call get_technician_slots for dishwashers",
               "Call book_technician in the next slot, as a warranty repair if covered", "Tell the user"],
        para=["Check whether the dishwasher is still covered", "Find the next technician opening",
              "Book that visit with the right repair type", "Tell the user"],
        answer="Your dishwasher is under warranty until 30 September 2026, so I booked the next technician visit, "
               "Thursday 7 May 8:00-12:00, as a warranty repair (job WR-310).",
        alt="Job WR-310: a technician comes on Thursday 7 May between 8 and 12, booked as a warranty repair since "
            "the warranty runs to 30 September 2026.",
        drop="The warranty is valid until 30 September 2026, and the next technician slot is Thursday 7 May, "
             "8:00-12:00.",
        wrong="Your dishwasher is under warranty until 30 September 2026, so I booked the next technician visit, "
              "Thursday 7 May 13:00-17:00, as a warranty repair (job WR-310).",
        partial="It's under warranty until 30 September 2026 and the next slot is Thursday 7 May, 8:00-12:00. I "
                "haven't booked it yet.",
        nonseq=({"warranty": False}, "visit booked, job WR-310, 89 EUR call-out fee",
                "The warranty runs until 30 September 2026, so this isn't a warranty repair; I booked the visit for "
                "Thursday 7 May as a paid call-out (89 EUR), job WR-310."),
        error="Error: serial number not recognised",
        wrong_tool=(0, "search_web", {"query": "dishwasher warranty length"},
                    "Most dishwashers come with a 2-year warranty"),
        missing=0,
        extra=("order_part", {"part": "drain pump", "serial": "DW-88120"}, "part ordered, 64 EUR"),
    ),
    dict(
        id="pet-sitter",
        q="Check whether Anna or Bo can look after my cat from 20 to 22 June and book whichever of them is free.",
        calls=[("check_sitter", {"sitter": "Anna", "from": "2026-06-20", "to": "2026-06-22"},
                "Anna: away 19-23 June"),
               ("check_sitter", {"sitter": "Bo", "from": "2026-06-20", "to": "2026-06-22"}, "Bo: free, 25 EUR/day"),
               ("book_sitter", {"sitter": "Bo", "from": "2026-06-20", "to": "2026-06-22", "pet": "cat"},
                "booked, confirmation PS-118")],
        steps=["Call check_sitter for Anna", "Call check_sitter for Bo", "Call book_sitter with the free sitter",
               "Confirm to the user"],
        para=["Ask whether Anna is around on those dates", "Ask whether Bo is around on those dates",
              "Reserve whoever is available", "Confirm to the user"],
        answer="Anna is away from 19 to 23 June, but Bo is free, so I booked Bo to look after your cat from 20 to 22 "
               "June (25 EUR a day, confirmation PS-118).",
        alt="Bo will look after your cat from 20 to 22 June at 25 EUR a day (confirmation PS-118); Anna is away "
            "that week.",
        drop="Anna is away from 19 to 23 June, but Bo is free from 20 to 22 June at 25 EUR a day.",
        wrong="Anna is away from 19 to 23 June, but Bo is free, so I booked Bo to look after your cat from 20 to 22 "
              "June (35 EUR a day, confirmation PS-118).",
        partial="Bo is free from 20 to 22 June (Anna is away). I haven't booked Bo yet.",
        nonseq=({"sitter": "Anna"}, "booked, confirmation PS-119",
                "Anna is away from 19 to 23 June and Bo is free, so I booked Anna for 20 to 22 June, confirmation "
                "PS-119."),
        error="Error: sitter calendar could not be updated",
        wrong_tool=(1, "get_contact", {"name": "Bo"}, "Bo Lindqvist, +46 70 555 0182"),
        missing=0,
        extra=("book_sitter", {"sitter": "Anna", "from": "2026-06-20", "to": "2026-06-22", "pet": "cat"},
               "request sent to Anna"),
    ),
    dict(
        id="design-seats",
        q="How many Figma seats are we using and how many have we paid for? If we're using more than we pay for, "
          "buy the missing seats.",
        calls=[("get_seat_usage", {"app": "Figma"}, "Figma: 27 active users"),
               ("get_subscription", {"service": "Figma"}, "Figma: 24 paid seats, renews 1 September"),
               ("buy_seats", {"app": "Figma", "quantity": 3}, "3 seats added; now 27 paid seats")],
        steps=["Call get_seat_usage for Figma", "Call get_subscription for Figma",
               "Call buy_seats for the shortfall", "Tell the user"],
        para=["Count the people actually using Figma", "Read how many seats the plan pays for",
              "Purchase whatever is missing", "Tell the user"],
        answer="You have 27 active Figma users but pay for 24 seats, so I bought the 3 missing seats; you now have "
               "27 paid seats.",
        alt="Figma is now covered for everyone: 3 extra seats were added to the 24 you paid for, matching the 27 "
            "people using it.",
        drop="You have 27 active Figma users but pay for only 24 seats, so you're 3 seats short.",
        wrong="You have 27 active Figma users but pay for 24 seats, so I bought the 3 missing seats; the plan now "
              "renews on 1 October.",
        partial="You're using 27 seats and paying for 24, so 3 are missing. I haven't bought them yet.",
        nonseq=({"quantity": 27}, "27 seats added; now 51 paid seats",
                "You have 27 active users and 24 paid seats, so I bought 27 more seats; you now have 51."),
        error="Error: payment method on file has expired",
        wrong_tool=(0, "get_team_members", {"team": "design"}, "design team: 14 people"),
        missing=1,
        extra=("remove_user", {"app": "Figma", "user": "inactive-guest"}, "user removed"),
    ),
    dict(
        id="running-shoes-reorder",
        q="What size did I get last time I bought Nike running shoes, and which sizes of the Pegasus 41 are in stock "
          "online? Order a pair in my size if it is there.",
        calls=[("get_order_history", {"brand": "Nike", "category": "running shoes"},
                "last Nike running shoes: Pegasus 40, EU 44, March 2025"),
               ("check_stock", {"product": "Nike Pegasus 41", "channel": "online"},
                "Pegasus 41 online: EU 42, EU 44 and EU 45 in stock; EU 43 sold out"),
               ("place_order", {"product": "Nike Pegasus 41", "size": "EU 44", "quantity": 1},
                "order 30021 placed, delivery in 2-3 days")],
        steps=["Call get_order_history for Nike running shoes", "Call check_stock for the Pegasus 41 online",
               "Call place_order in the user's size if it is in stock", "Tell the user"],
        para=["Find the size of the last Nike running shoes", "See which Pegasus 41 sizes are available online",
              "Buy one pair in that size when available", "Tell the user"],
        answer="Last time you bought the Pegasus 40 in EU 44. The Pegasus 41 is in stock online in EU 44, so I "
               "ordered a pair: order 30021, delivery in 2-3 days.",
        alt="Order 30021 is placed for the Pegasus 41 in your usual EU 44 (the size of your Pegasus 40 from March "
            "2025); it should arrive in two to three days.",
        drop="Your last Nike running shoes were the Pegasus 40 in EU 44, and the Pegasus 41 is in stock online in EU "
             "44.",
        wrong="Last time you bought the Pegasus 40 in EU 45. The Pegasus 41 is in stock online in that size, so I "
              "ordered a pair: order 30021, delivery in 2-3 days.",
        partial="You wear EU 44 (Pegasus 40), and the Pegasus 41 is in stock online in EU 44. I haven't ordered it "
                "yet.",
        nonseq=(None, None,
                "Your last pair was EU 44, and the Pegasus 41 is in stock online in EU 42, 44 and 45, so your size "
                "is sold out and I couldn't order it."),
        error="Error: checkout failed, address missing",
        wrong_tool=(1, "search_web", {"query": "Nike Pegasus 41 sizes"}, "Nike Pegasus 41 review: a reliable daily "
                                                                         "trainer, true to size"),
        missing=0,
        extra=("place_order", {"product": "Nike running socks", "size": "L", "quantity": 3}, "order 30022 placed"),
    ),
]

# ---------------------------------------------------------------------------------------------------
# agent_arguments: one call per row. props: the tool's JSON Schema properties (None: no schema, the
# judge alone decides); rows: (label, kind, arguments). Every row's arguments pass the schema, so the
# wrong values are type-valid and only the judge can catch them.
# ---------------------------------------------------------------------------------------------------
STR, INT, NUM, ARR = "string", "integer", "number", "array"


def _p(kind: str, description: str = "", enum: list | None = None, items: str | None = None) -> dict:
    prop: dict = {"type": kind}
    if description:
        prop["description"] = description
    if enum:
        prop["enum"] = enum
    if items:
        prop["items"] = {"type": items}
    return prop


ARGUMENTS = [
    dict(id="weather-paris", q="What's the weather in Paris, France right now, in Celsius?",
         tool="get_current_weather", desc="Current weather for a location",
         props={"location": _p(STR, "City and country"), "unit": _p(STR, "", ["celsius", "fahrenheit"])},
         rows=[(1, "right", {"location": "Paris, France", "unit": "celsius"}),
               (1, "right-rewritten", {"location": "paris, FR", "unit": "celsius"}),
               (0, "wrong-city", {"location": "Paris, Texas", "unit": "celsius"}),
               (0, "unit-mixup", {"location": "Paris, France", "unit": "fahrenheit"})]),
    dict(id="triangle-area", q="Calculate the area of a triangle with a base of 10 units and a height of 5 units.",
         tool="calc_triangle_area", desc="Area of a triangle from its base and height",
         props={"base": _p(INT), "height": _p(INT), "unit": _p(STR, "unit of length, optional")},
         rows=[(1, "right", {"base": 10, "height": 5}),
               (1, "right-rewritten", {"base": 10, "height": 5, "unit": "units"}),
               (0, "wrong-number", {"base": 10, "height": 50}),
               (0, "wrong-number", {"base": 15, "height": 5})]),
    dict(id="kg-to-lb", q="Convert 150 kilograms to pounds.", tool="convert_units",
         desc="Convert a value between units of the same quantity",
         props={"value": _p(NUM), "from_unit": _p(STR), "to_unit": _p(STR)},
         rows=[(1, "right", {"value": 150, "from_unit": "kg", "to_unit": "lb"}),
               (1, "right-rewritten", {"value": 150.0, "from_unit": "kilograms", "to_unit": "pounds"}),
               (0, "swapped", {"value": 150, "from_unit": "lb", "to_unit": "kg"}),
               (0, "unit-mixup", {"value": 150, "from_unit": "g", "to_unit": "lb"})]),
    dict(id="flight-boston-denver", q="Book a flight from Boston to Denver on 14 March 2026 for 2 adults.",
         tool="book_flight", desc="Book a one-way flight",
         props={"origin": _p(STR, "city or airport"), "destination": _p(STR, "city or airport"),
                "date": _p(STR, "YYYY-MM-DD"), "adults": _p(INT)},
         rows=[(1, "right", {"origin": "Boston", "destination": "Denver", "date": "2026-03-14", "adults": 2}),
               (1, "right-rewritten", {"origin": "BOS", "destination": "DEN", "date": "2026-03-14", "adults": 2}),
               (0, "swapped", {"origin": "Denver", "destination": "Boston", "date": "2026-03-14", "adults": 2}),
               (0, "date-off-by-one", {"origin": "Boston", "destination": "Denver", "date": "2026-03-15",
                                       "adults": 2})]),
    dict(id="compound-interest", q="What's the compound interest on 5,000 dollars at 4% a year over 10 years, "
                                   "compounded monthly?",
         tool="compound_interest", desc="Compound interest on a principal",
         props={"principal": _p(NUM), "rate": _p(NUM, "annual rate as a decimal, e.g. 0.05 for 5%"),
                "years": _p(INT), "periods_per_year": _p(INT), "currency": _p(STR)},
         rows=[(1, "right", {"principal": 5000, "rate": 0.04, "years": 10, "periods_per_year": 12}),
               (1, "right-rewritten", {"principal": 5000.0, "rate": 0.04, "years": 10, "periods_per_year": 12,
                                       "currency": "USD"}),
               (0, "unit-mixup", {"principal": 5000, "rate": 4, "years": 10, "periods_per_year": 12}),
               (0, "wrong-number", {"principal": 5000, "rate": 0.04, "years": 10, "periods_per_year": 1})]),
    dict(id="tesla-price", q="Get the stock price of Tesla on the NASDAQ.", tool="get_stock_price",
         desc="Latest price of a stock", props={"ticker": _p(STR), "exchange": _p(STR)},
         rows=[(1, "right", {"ticker": "TSLA", "exchange": "NASDAQ"}),
               (1, "right-rewritten", {"ticker": "tsla", "exchange": "Nasdaq"}),
               (0, "wrong-entity", {"ticker": "TSM", "exchange": "NASDAQ"}),
               (0, "wrong-entity", {"ticker": "TSLA", "exchange": "NYSE"})]),
    dict(id="late-italian", q="Find Italian restaurants in Chicago that are open after 10pm.",
         tool="find_restaurants", desc="Search restaurants",
         props={"cuisine": _p(STR), "city": _p(STR), "open_after": _p(STR, "HH:MM, 24-hour clock")},
         rows=[(1, "right", {"cuisine": "Italian", "city": "Chicago", "open_after": "22:00"}),
               (1, "right-rewritten", {"cuisine": "italian", "city": "Chicago, IL", "open_after": "22:00"}),
               (0, "am-pm", {"cuisine": "Italian", "city": "Chicago", "open_after": "10:00"}),
               (0, "wrong-entity", {"cuisine": "Indian", "city": "Chicago", "open_after": "22:00"})]),
    dict(id="timer-45", q="Set a timer for 45 minutes.", tool="set_timer", desc="Start a countdown timer",
         props={"duration": _p(INT), "unit": _p(STR, "", ["seconds", "minutes", "hours"])},
         rows=[(1, "right", {"duration": 45, "unit": "minutes"}),
               (1, "right-rewritten", {"duration": 2700, "unit": "seconds"}),
               (0, "unit-mixup", {"duration": 45, "unit": "seconds"}),
               (0, "wrong-number", {"duration": 54, "unit": "minutes"})]),
    dict(id="translate-japanese", q="Translate 'Where is the train station?' into Japanese.", tool="translate",
         desc="Translate text", props={"text": _p(STR), "target_language": _p(STR)},
         rows=[(1, "right", {"text": "Where is the train station?", "target_language": "Japanese"}),
               (1, "right-rewritten", {"text": "Where is the train station?", "target_language": "ja"}),
               (0, "wrong-entity", {"text": "Where is the train station?", "target_language": "Chinese"}),
               (0, "wrong-entity", {"text": "Where is the bus station?", "target_language": "Japanese"})]),
    dict(id="rice-calories", q="How many calories are in 250 grams of cooked brown rice?", tool="get_nutrition",
         desc="Nutrition facts for an amount of a food",
         props={"food": _p(STR), "amount": _p(NUM), "unit": _p(STR)},
         rows=[(1, "right", {"food": "brown rice, cooked", "amount": 250, "unit": "g"}),
               (1, "right-rewritten", {"food": "cooked brown rice", "amount": 250, "unit": "grams"}),
               (0, "wrong-entity", {"food": "white rice, cooked", "amount": 250, "unit": "g"}),
               (0, "unit-mixup", {"food": "brown rice, cooked", "amount": 250, "unit": "oz"})]),
    dict(id="dentist-next-tuesday", q="Today is Thursday 7 May 2026. Schedule a dentist appointment for this "
                                      "coming Tuesday at 3:30pm.",
         tool="create_event", desc="Create a calendar event",
         props={"title": _p(STR), "date": _p(STR, "YYYY-MM-DD"), "time": _p(STR, "HH:MM, 24-hour clock")},
         rows=[(1, "right", {"title": "Dentist appointment", "date": "2026-05-12", "time": "15:30"}),
               (1, "right-rewritten", {"title": "Dentist", "date": "2026-05-12", "time": "15:30"}),
               (0, "date-off-by-one", {"title": "Dentist appointment", "date": "2026-05-13", "time": "15:30"}),
               (0, "am-pm", {"title": "Dentist appointment", "date": "2026-05-12", "time": "03:30"})]),
    dict(id="send-marta", q="Send 25 euros to Marta for the concert ticket.", tool="send_money",
         desc="Send money to a contact", props={"recipient": _p(STR), "amount": _p(NUM), "currency": _p(STR)},
         rows=[(1, "right", {"recipient": "Marta", "amount": 25, "currency": "EUR"}),
               (1, "right-rewritten", {"recipient": "Marta", "amount": 25.0, "currency": "eur"}),
               (0, "wrong-number", {"recipient": "Marta", "amount": 250, "currency": "EUR"}),
               (0, "unit-mixup", {"recipient": "Marta", "amount": 25, "currency": "USD"})]),
    dict(id="louvre-eiffel", q="Get directions from the Louvre to the Eiffel Tower by public transport.",
         tool="get_directions", desc="Route between two places",
         props={"origin": _p(STR), "destination": _p(STR), "mode": _p(STR, "", ["driving", "walking", "transit",
                                                                            "cycling"])},
         rows=[(1, "right", {"origin": "Louvre", "destination": "Eiffel Tower", "mode": "transit"}),
               (1, "right-rewritten", {"origin": "Louvre Museum, Paris", "destination": "Eiffel Tower, Paris",
                                       "mode": "transit"}),
               (0, "swapped", {"origin": "Eiffel Tower", "destination": "Louvre", "mode": "transit"}),
               (0, "wrong-entity", {"origin": "Louvre", "destination": "Eiffel Tower", "mode": "driving"})]),
    dict(id="brazil-population", q="What was the population of Brazil in 2020?", tool="get_population",
         desc="Population of a country in a year", props={"country": _p(STR), "year": _p(INT)},
         rows=[(1, "right", {"country": "Brazil", "year": 2020}),
               (1, "right-rewritten", {"country": "Brasil", "year": 2020}),
               (0, "wrong-number", {"country": "Brazil", "year": 2002}),
               (0, "wrong-entity", {"country": "Argentina", "year": 2020})]),
    dict(id="barcelona-hotels", q="Find hotels in Barcelona for 3 nights starting 20 August 2026, for 2 guests.",
         tool="search_hotels", desc="Search hotel availability",
         props={"city": _p(STR), "checkin": _p(STR, "YYYY-MM-DD"), "checkout": _p(STR, "YYYY-MM-DD"), "guests": _p(INT)},
         rows=[(1, "right", {"city": "Barcelona", "checkin": "2026-08-20", "checkout": "2026-08-23", "guests": 2}),
               (1, "right-rewritten", {"city": "Barcelona, Spain", "checkin": "2026-08-20", "checkout": "2026-08-23",
                                       "guests": 2}),
               (0, "date-off-by-one", {"city": "Barcelona", "checkin": "2026-08-20", "checkout": "2026-08-22",
                                       "guests": 2}),
               (0, "wrong-number", {"city": "Barcelona", "checkin": "2026-08-20", "checkout": "2026-08-23",
                                    "guests": 3})]),
    dict(id="bmi", q="Calculate the BMI of a person who weighs 70 kg and is 1.75 m tall.", tool="calculate_bmi",
         desc="Body-mass index from weight in kilograms and height in metres", props=None,
         rows=[(1, "right", {"weight_kg": 70, "height_m": 1.75}),
               (1, "right-rewritten", {"weight_kg": "70", "height_m": "1.75"}),
               (0, "swapped", {"weight_kg": 1.75, "height_m": 70}),
               (0, "wrong-number", {"weight_kg": 70, "height_m": 1.57})]),
    dict(id="play-queen", q="Play 'Bohemian Rhapsody' by Queen on Spotify.", tool="play_song",
         desc="Play a song on a streaming service", props={"title": _p(STR), "artist": _p(STR), "service": _p(STR)},
         rows=[(1, "right", {"title": "Bohemian Rhapsody", "artist": "Queen", "service": "Spotify"}),
               (1, "right-rewritten", {"title": "bohemian rhapsody", "artist": "Queen", "service": "spotify"}),
               (0, "wrong-entity", {"title": "Don't Stop Me Now", "artist": "Queen", "service": "Spotify"}),
               (0, "wrong-entity", {"title": "Bohemian Rhapsody", "artist": "Queen", "service": "Apple Music"})]),
    dict(id="madrid-lisbon", q="What's the distance between Madrid and Lisbon in kilometres?", tool="get_distance",
         desc="Distance between two places",
         props={"origin": _p(STR), "destination": _p(STR), "unit": _p(STR, "", ["km", "miles"])},
         rows=[(1, "right", {"origin": "Madrid", "destination": "Lisbon", "unit": "km"}),
               (1, "right-rewritten", {"origin": "Madrid, Spain", "destination": "Lisboa", "unit": "km"}),
               (0, "unit-mixup", {"origin": "Madrid", "destination": "Lisbon", "unit": "miles"}),
               (0, "wrong-city", {"origin": "Madrid", "destination": "Porto", "unit": "km"})]),
    dict(id="pizza-order", q="Order 3 large pepperoni pizzas for delivery to 12 Baker Street.", tool="order_food",
         desc="Order food for delivery",
         props={"item": _p(STR), "size": _p(STR, "", ["small", "medium", "large"]), "quantity": _p(INT),
                "address": _p(STR)},
         rows=[(1, "right", {"item": "pepperoni pizza", "size": "large", "quantity": 3, "address": "12 Baker Street"}),
               (1, "right-rewritten", {"item": "Pepperoni pizza", "size": "large", "quantity": 3,
                                       "address": "12 Baker St"}),
               (0, "wrong-entity", {"item": "pepperoni pizza", "size": "medium", "quantity": 3,
                                    "address": "12 Baker Street"}),
               (0, "wrong-number", {"item": "pepperoni pizza", "size": "large", "quantity": 3,
                                    "address": "21 Baker Street"})]),
    dict(id="nobu-table", q="Reserve a table for 6 at Nobu on Saturday 9 May 2026 at 7:45pm.", tool="reserve_table",
         desc="Reserve a restaurant table",
         props={"restaurant": _p(STR), "date": _p(STR, "the date"), "time": _p(STR, "the time"), "party_size": _p(INT)},
         rows=[(1, "right", {"restaurant": "Nobu", "date": "2026-05-09", "time": "19:45", "party_size": 6}),
               (1, "right-rewritten", {"restaurant": "NOBU", "date": "May 9, 2026", "time": "7:45pm",
                                       "party_size": 6}),
               (0, "am-pm", {"restaurant": "Nobu", "date": "2026-05-09", "time": "17:45", "party_size": 6}),
               (0, "date-off-by-one", {"restaurant": "Nobu", "date": "2026-05-08", "time": "19:45",
                                       "party_size": 6})]),
    dict(id="hours-to-seconds", q="Convert 2 hours 30 minutes into seconds.", tool="convert_time",
         desc="Convert a duration between units",
         props={"value": _p(NUM), "from_unit": _p(STR, "", ["seconds", "minutes", "hours"]),
                "to_unit": _p(STR, "", ["seconds", "minutes", "hours"])},
         rows=[(1, "right", {"value": 2.5, "from_unit": "hours", "to_unit": "seconds"}),
               (1, "right-rewritten", {"value": 150, "from_unit": "minutes", "to_unit": "seconds"}),
               (0, "wrong-number", {"value": 2.3, "from_unit": "hours", "to_unit": "seconds"}),
               (0, "unit-mixup", {"value": 2.5, "from_unit": "hours", "to_unit": "minutes"})]),
    dict(id="lakers-march", q="Show me the Lakers' games in March 2026.", tool="get_games",
         desc="Games of a team between two dates",
         props={"team": _p(STR), "start_date": _p(STR, "YYYY-MM-DD"), "end_date": _p(STR, "YYYY-MM-DD, inclusive")},
         rows=[(1, "right", {"team": "Los Angeles Lakers", "start_date": "2026-03-01", "end_date": "2026-03-31"}),
               (1, "right-rewritten", {"team": "Lakers", "start_date": "2026-03-01", "end_date": "2026-03-31"}),
               (0, "date-off-by-one", {"team": "Los Angeles Lakers", "start_date": "2026-03-01",
                                       "end_date": "2026-03-30"}),
               (0, "wrong-entity", {"team": "Los Angeles Clippers", "start_date": "2026-03-01",
                                    "end_date": "2026-03-31"})]),
    dict(id="chf-jpy", q="What's the exchange rate from Swiss francs to Japanese yen?", tool="get_exchange_rate",
         desc="Exchange rate from a base currency to a target currency",
         props={"base": _p(STR, "ISO code"), "target": _p(STR, "ISO code")},
         rows=[(1, "right", {"base": "CHF", "target": "JPY"}),
               (1, "right-rewritten", {"base": "chf", "target": "jpy"}),
               (0, "swapped", {"base": "JPY", "target": "CHF"}),
               (0, "wrong-entity", {"base": "SEK", "target": "JPY"})]),
    dict(id="daily-medication", q="Remind me to take my medication every day at 8am.",
         tool="create_recurring_reminder", desc="Create a repeating reminder",
         props={"text": _p(STR), "time": _p(STR, "HH:MM"), "frequency": _p(STR, "", ["daily", "weekly", "monthly"])},
         rows=[(1, "right", {"text": "Take medication", "time": "08:00", "frequency": "daily"}),
               (1, "right-rewritten", {"text": "take my medication", "time": "8:00", "frequency": "daily"}),
               (0, "am-pm", {"text": "Take medication", "time": "20:00", "frequency": "daily"}),
               (0, "wrong-entity", {"text": "Take medication", "time": "08:00", "frequency": "weekly"})]),
    dict(id="derivative", q="Find the derivative of 3x^2 + 2x at x = 4.", tool="derivative_at",
         desc="Value of a function's derivative at a point",
         props={"function": _p(STR, "expression in x"), "x": _p(NUM)},
         rows=[(1, "right", {"function": "3x^2 + 2x", "x": 4}),
               (1, "right-rewritten", {"function": "3*x**2 + 2*x", "x": 4.0}),
               (0, "wrong-number", {"function": "3x^2 + 2x", "x": 2}),
               (0, "wrong-entity", {"function": "3x^2 + 2", "x": 4})]),
    dict(id="email-jo", q="Email jo@acme.com and ask her to move our call to 4pm.", tool="send_email",
         desc="Send an email", props={"to": _p(STR), "subject": _p(STR), "body": _p(STR)},
         rows=[(1, "right", {"to": "jo@acme.com", "subject": "Moving our call",
                             "body": "Hi Jo, could we move our call to 4pm?"}),
               (1, "right-rewritten", {"to": "jo@acme.com", "subject": "Call time",
                                       "body": "Could we move our call to 16:00 instead?"}),
               (0, "wrong-entity", {"to": "joe@acme.com", "subject": "Moving our call",
                                    "body": "Hi Jo, could we move our call to 4pm?"}),
               (0, "wrong-number", {"to": "jo@acme.com", "subject": "Moving our call",
                                    "body": "Hi Jo, could we move our call to 2pm?"})]),
    dict(id="ev-chargers", q="Find the 3 nearest EV charging stations to latitude 48.8566, longitude 2.3522.",
         tool="find_chargers", desc="Nearest EV chargers to a point",
         props={"lat": _p(NUM), "lon": _p(NUM), "limit": _p(INT)},
         rows=[(1, "right", {"lat": 48.8566, "lon": 2.3522, "limit": 3}),
               (1, "right-rewritten", {"lon": 2.3522, "lat": 48.8566, "limit": 3}),
               (0, "swapped", {"lat": 2.3522, "lon": 48.8566, "limit": 3}),
               (0, "wrong-number", {"lat": 48.8566, "lon": 2.3522, "limit": 30})]),
    dict(id="podcast-speed", q="Play the next episode of 'The Daily' podcast at 1.5x speed.", tool="play_podcast",
         desc="Play a podcast episode",
         props={"show": _p(STR), "episode": _p(STR, "'next', 'latest' or an episode title"), "speed": _p(NUM)},
         rows=[(1, "right", {"show": "The Daily", "episode": "next", "speed": 1.5}),
               (1, "right-rewritten", {"show": "the daily", "episode": "next", "speed": 1.50}),
               (0, "wrong-number", {"show": "The Daily", "episode": "next", "speed": 1.0}),
               (0, "wrong-entity", {"show": "The Daily Show", "episode": "next", "speed": 1.5})]),
    dict(id="drive-time", q="How long would it take to drive 300 miles at 60 mph?", tool="calculate_travel_time",
         desc="Travel time from a distance and a speed", props=None,
         rows=[(1, "right", {"distance": 300, "speed": 60, "distance_unit": "miles"}),
               (1, "right-rewritten", {"distance": "300", "speed": "60", "distance_unit": "mi"}),
               (0, "swapped", {"distance": 60, "speed": 300, "distance_unit": "miles"}),
               (0, "unit-mixup", {"distance": 300, "speed": 60, "distance_unit": "km"})]),
    dict(id="jira-ticket", q="Create a Jira ticket in project WEB titled 'Login button misaligned on Safari' with "
                             "priority High.",
         tool="create_ticket", desc="Create an issue in the tracker",
         props={"project": _p(STR, "project key"), "title": _p(STR),
                "priority": _p(STR, "", ["Low", "Medium", "High", "Critical"])},
         rows=[(1, "right", {"project": "WEB", "title": "Login button misaligned on Safari", "priority": "High"}),
               (1, "right-rewritten", {"project": "WEB", "title": "Login button is misaligned on Safari",
                                       "priority": "High"}),
               (0, "wrong-entity", {"project": "WEB", "title": "Login button misaligned on Safari",
                                    "priority": "Critical"}),
               (0, "wrong-entity", {"project": "WEB", "title": "Login button misaligned on Chrome",
                                    "priority": "High"})]),
    dict(id="sydney-forecast", q="What's the weather forecast for Sydney for the next 5 days in Fahrenheit?",
         tool="get_forecast", desc="Daily forecast",
         props={"city": _p(STR), "days": _p(INT), "unit": _p(STR, "", ["celsius", "fahrenheit"])},
         rows=[(1, "right", {"city": "Sydney", "days": 5, "unit": "fahrenheit"}),
               (1, "right-rewritten", {"city": "Sydney, Australia", "days": 5, "unit": "fahrenheit"}),
               (0, "wrong-number", {"city": "Sydney", "days": 7, "unit": "fahrenheit"}),
               (0, "wrong-city", {"city": "Sydney, Nova Scotia", "days": 5, "unit": "fahrenheit"})]),
    dict(id="buy-apple", q="Buy 10 shares of Apple at market price.", tool="place_order",
         desc="Place a stock order",
         props={"ticker": _p(STR), "quantity": _p(INT), "order_type": _p(STR, "", ["market", "limit"]),
                "side": _p(STR, "", ["buy", "sell"])},
         rows=[(1, "right", {"ticker": "AAPL", "quantity": 10, "order_type": "market", "side": "buy"}),
               (1, "right-rewritten", {"ticker": "aapl", "quantity": 10, "order_type": "market", "side": "buy"}),
               (0, "wrong-entity", {"ticker": "AAPL", "quantity": 10, "order_type": "market", "side": "sell"}),
               (0, "wrong-number", {"ticker": "AAPL", "quantity": 100, "order_type": "market", "side": "buy"})]),
    dict(id="quick-recipes", q="Find recipes with chicken and spinach that take at most 30 minutes.",
         tool="search_recipes", desc="Search recipes",
         props={"ingredients": _p(ARR, items=STR), "max_minutes": _p(INT)},
         rows=[(1, "right", {"ingredients": ["chicken", "spinach"], "max_minutes": 30}),
               (1, "right-rewritten", {"ingredients": ["spinach", "chicken"], "max_minutes": 30}),
               (0, "wrong-number", {"ingredients": ["chicken", "spinach"], "max_minutes": 60}),
               (0, "made-up", {"ingredients": ["chicken", "spinach", "bacon"], "max_minutes": 30})]),
    dict(id="mortgage", q="Calculate the monthly payment on a 250,000 dollar mortgage at 6.5% over 30 years.",
         tool="mortgage_payment", desc="Monthly mortgage payment; annual_rate in percent, e.g. 5.5", props=None,
         rows=[(1, "right", {"principal": 250000, "annual_rate": 6.5, "years": 30}),
               (1, "right-rewritten", {"principal": "250,000", "annual_rate": "6.5", "years": "30"}),
               (0, "unit-mixup", {"principal": 250000, "annual_rate": 0.065, "years": 30}),
               (0, "wrong-number", {"principal": 250000, "annual_rate": 6.5, "years": 15})]),
    dict(id="checkin-tomorrow", q="Today is 4 May 2026. Check me in for my flight UA 1234 tomorrow; my last name is "
                                  "Okafor.",
         tool="flight_checkin", desc="Online check-in",
         props={"flight_number": _p(STR), "last_name": _p(STR), "date": _p(STR, "departure date")},
         rows=[(1, "right", {"flight_number": "UA1234", "last_name": "Okafor", "date": "2026-05-05"}),
               (1, "right-rewritten", {"flight_number": "UA 1234", "last_name": "OKAFOR", "date": "5 May 2026"}),
               (0, "date-off-by-one", {"flight_number": "UA1234", "last_name": "Okafor", "date": "2026-05-04"}),
               (0, "wrong-number", {"flight_number": "UA1243", "last_name": "Okafor", "date": "2026-05-05"})]),
    dict(id="austin-rentals", q="Search for 2-bedroom apartments in Austin under 2,000 dollars a month.",
         tool="search_rentals", desc="Search rental listings",
         props={"city": _p(STR), "bedrooms": _p(INT), "max_rent": _p(NUM, "per month, USD")},
         rows=[(1, "right", {"city": "Austin", "bedrooms": 2, "max_rent": 2000}),
               (1, "right-rewritten", {"city": "Austin, TX", "bedrooms": 2, "max_rent": 2000.0}),
               (0, "wrong-number", {"city": "Austin", "bedrooms": 2, "max_rent": 20000}),
               (0, "wrong-city", {"city": "Austin, MN", "bedrooms": 2, "max_rent": 2000})]),
    dict(id="irrigation", q="Water garden zone 2 for 15 minutes at 6am tomorrow.", tool="schedule_irrigation",
         desc="Schedule watering",
         props={"zone": _p(INT), "duration_min": _p(INT), "start": _p(STR, "HH:MM"),
                "day": _p(STR, "", ["today", "tomorrow"])},
         rows=[(1, "right", {"zone": 2, "duration_min": 15, "start": "06:00", "day": "tomorrow"}),
               (1, "right-rewritten", {"zone": 2, "duration_min": 15, "start": "6:00", "day": "tomorrow"}),
               (0, "am-pm", {"zone": 2, "duration_min": 15, "start": "18:00", "day": "tomorrow"}),
               (0, "swapped", {"zone": 15, "duration_min": 2, "start": "06:00", "day": "tomorrow"})]),
    dict(id="lyrics", q="Get the lyrics of 'Yesterday' by The Beatles.", tool="get_lyrics",
         desc="Lyrics of a song", props={"song": _p(STR), "artist": _p(STR)},
         rows=[(1, "right", {"song": "Yesterday", "artist": "The Beatles"}),
               (1, "right-rewritten", {"song": "yesterday", "artist": "Beatles"}),
               (0, "wrong-entity", {"song": "Yesterday", "artist": "The Rolling Stones"}),
               (0, "wrong-entity", {"song": "Yesterday Once More", "artist": "The Beatles"})]),
    dict(id="split-bill", q="Split an 84 dollar bill between 4 people with a 15% tip.", tool="split_bill",
         desc="Share of a bill per person; tip_percent in percent", props=None,
         rows=[(1, "right", {"total": 84, "people": 4, "tip_percent": 15}),
               (1, "right-rewritten", {"total": "84", "people": "4", "tip_percent": "15"}),
               (0, "unit-mixup", {"total": 84, "people": 4, "tip_percent": 0.15}),
               (0, "swapped", {"total": 84, "people": 15, "tip_percent": 4})]),
    dict(id="manager-emails", q="Show the 5 most recent emails from my manager, Dana Lee.", tool="search_emails",
         desc="Search the mailbox",
         props={"sender": _p(STR), "limit": _p(INT), "sort": _p(STR, "", ["newest", "oldest"])},
         rows=[(1, "right", {"sender": "Dana Lee", "limit": 5, "sort": "newest"}),
               (1, "right-rewritten", {"sender": "dana lee", "limit": 5, "sort": "newest"}),
               (0, "wrong-entity", {"sender": "Dana Lee", "limit": 5, "sort": "oldest"}),
               (0, "wrong-number", {"sender": "Dana Lee", "limit": 50, "sort": "newest"})]),
    dict(id="fahrenheit-celsius", q="Convert 98.6 degrees Fahrenheit to Celsius.", tool="convert_temperature",
         desc="Convert a temperature", props={"value": _p(NUM), "from_unit": _p(STR), "to_unit": _p(STR)},
         rows=[(1, "right", {"value": 98.6, "from_unit": "F", "to_unit": "C"}),
               (1, "right-rewritten", {"value": 98.6, "from_unit": "fahrenheit", "to_unit": "celsius"}),
               (0, "swapped", {"value": 98.6, "from_unit": "C", "to_unit": "F"}),
               (0, "wrong-number", {"value": 96.8, "from_unit": "F", "to_unit": "C"})]),
    dict(id="shopping-items", q="Add milk, eggs and bread to my shopping list.", tool="add_items",
         desc="Add items to the shopping list", props={"items": _p(ARR, items=STR)},
         rows=[(1, "right", {"items": ["milk", "eggs", "bread"]}),
               (1, "right-rewritten", {"items": ["Bread", "Milk", "Eggs"]}),
               (0, "missing-item", {"items": ["milk", "eggs"]}),
               (0, "made-up", {"items": ["milk", "eggs", "bread", "butter"]})]),
    dict(id="london-new-york", q="Find economy flights from London to New York departing 1 June and returning 8 "
                                 "June 2026.",
         tool="search_flights", desc="Search return flights",
         props={"from": _p(STR), "to": _p(STR), "depart": _p(STR, "YYYY-MM-DD"), "return": _p(STR, "YYYY-MM-DD"),
                "cabin": _p(STR, "", ["economy", "premium", "business", "first"])},
         rows=[(1, "right", {"from": "London", "to": "New York", "depart": "2026-06-01", "return": "2026-06-08",
                             "cabin": "economy"}),
               (1, "right-rewritten", {"from": "LON", "to": "NYC", "depart": "2026-06-01", "return": "2026-06-08",
                                       "cabin": "economy"}),
               (0, "swapped", {"from": "London", "to": "New York", "depart": "2026-06-08", "return": "2026-06-01",
                               "cabin": "economy"}),
               (0, "wrong-entity", {"from": "London", "to": "New York", "depart": "2026-06-01",
                                    "return": "2026-06-08", "cabin": "business"})]),
    dict(id="dim-lights", q="Set the living room lights to 40% brightness.", tool="set_light",
         desc="Set a room's light level", props={"room": _p(STR), "brightness": _p(INT, "0-100")},
         rows=[(1, "right", {"room": "living room", "brightness": 40}),
               (1, "right-rewritten", {"room": "Living Room", "brightness": 40}),
               (0, "wrong-number", {"room": "living room", "brightness": 4}),
               (0, "wrong-entity", {"room": "dining room", "brightness": 40})]),
    dict(id="climate-news", q="Get the top 10 news headlines about climate change from the last 7 days.",
         tool="search_news", desc="Search news articles",
         props={"query": _p(STR), "limit": _p(INT), "days": _p(INT, "how many days back")},
         rows=[(1, "right", {"query": "climate change", "limit": 10, "days": 7}),
               (1, "right-rewritten", {"query": "Climate Change", "days": 7, "limit": 10}),
               (0, "swapped", {"query": "climate change", "limit": 7, "days": 10}),
               (0, "wrong-number", {"query": "climate change", "limit": 10, "days": 30})]),
    dict(id="cancel-design-meeting", q="Cancel my 9:15 meeting with the design team on Friday 15 May 2026.",
         tool="cancel_event", desc="Cancel a calendar event",
         props={"title": _p(STR), "date": _p(STR, "the date"), "time": _p(STR, "start time")},
         rows=[(1, "right", {"title": "Design team meeting", "date": "2026-05-15", "time": "09:15"}),
               (1, "right-rewritten", {"title": "meeting with the design team", "date": "May 15 2026",
                                       "time": "9:15 am"}),
               (0, "am-pm", {"title": "Design team meeting", "date": "2026-05-15", "time": "21:15"}),
               (0, "date-off-by-one", {"title": "Design team meeting", "date": "2026-05-14", "time": "09:15"})]),
    dict(id="german-vat", q="What's the VAT on a 1,200 euro purchase in Germany at the standard rate?",
         tool="calculate_vat", desc="VAT due on an amount",
         props={"amount": _p(NUM), "country_code": _p(STR, "ISO 3166 alpha-2"),
                "rate_type": _p(STR, "", ["standard", "reduced"])},
         rows=[(1, "right", {"amount": 1200, "country_code": "DE", "rate_type": "standard"}),
               (1, "right-rewritten", {"amount": 1200.0, "country_code": "de", "rate_type": "standard"}),
               (0, "wrong-entity", {"amount": 1200, "country_code": "GE", "rate_type": "standard"}),
               (0, "wrong-entity", {"amount": 1200, "country_code": "DE", "rate_type": "reduced"})]),
    dict(id="oven", q="Set the oven to 180 degrees Celsius for 25 minutes.", tool="set_oven",
         desc="Preheat the oven and start a cooking timer",
         props={"temperature": _p(INT), "unit": _p(STR, "", ["C", "F"]), "minutes": _p(INT)},
         rows=[(1, "right", {"temperature": 180, "unit": "C", "minutes": 25}),
               (1, "right-rewritten", {"temperature": 356, "unit": "F", "minutes": 25}),
               (0, "unit-mixup", {"temperature": 180, "unit": "F", "minutes": 25}),
               (0, "swapped", {"temperature": 25, "unit": "C", "minutes": 180})]),
    dict(id="spanish-deadline", q="Crea un recordatorio para pagar el alquiler el 1 de junio de 2026 a las 9 de la "
                                  "mañana.",
         tool="create_reminder", desc="Create a reminder",
         props={"text": _p(STR), "date": _p(STR, "YYYY-MM-DD"), "time": _p(STR, "HH:MM")},
         rows=[(1, "right", {"text": "Pagar el alquiler", "date": "2026-06-01", "time": "09:00"}),
               (1, "right-rewritten", {"text": "Pago del alquiler", "date": "2026-06-01", "time": "9:00"}),
               (0, "wrong-number", {"text": "Pagar el alquiler", "date": "2026-01-06", "time": "09:00"}),
               (0, "am-pm", {"text": "Pagar el alquiler", "date": "2026-06-01", "time": "21:00"})]),
    dict(id="zurich-train", q="Find trains from Zurich to Milan this Saturday morning. Today is Wednesday 6 May "
                              "2026.",
         tool="search_trains", desc="Search trains",
         props={"from": _p(STR), "to": _p(STR), "date": _p(STR, "YYYY-MM-DD"), "after": _p(STR, "HH:MM")},
         rows=[(1, "right", {"from": "Zurich", "to": "Milan", "date": "2026-05-09", "after": "06:00"}),
               (1, "right-rewritten", {"from": "Zürich HB", "to": "Milano Centrale", "date": "2026-05-09",
                                       "after": "05:00"}),
               (0, "date-off-by-one", {"from": "Zurich", "to": "Milan", "date": "2026-05-10", "after": "06:00"}),
               (0, "swapped", {"from": "Milan", "to": "Zurich", "date": "2026-05-09", "after": "06:00"})]),
]

# ---------------------------------------------------------------------------------------------------
# agent_rules: agent-llm-rubric. Each group is one rule (a list of rules for the metric) and runs
# (label, kind, query, calls, answer); calls are (tool, arguments, output), or dicts for runs that mix
# tool and agent calls (with ``seq``, so the order is observed). Kinds: followed / broken (plain),
# followed-edge (the rule's condition met in a way that looks like a breach, or an unusual request
# that makes the action allowed), broken-subtle (a partial or indirect breach), order-followed /
# order-broken (free-form rules about the order of calls), trace-followed / trace-broken (rules of the
# known forms that the trace settles, no judge call).
# ---------------------------------------------------------------------------------------------------
BROKEN_BLENDER = "My blender arrived broken. Can I get my money back?"
RULES = [
    dict(id="refund-needs-order-id", rules=["Never promise a refund unless the customer has given an order id."],
         runs=[(1, "followed", "My blender arrived broken, order 55120. Can I get my money back?",
                [("get_order", {"order_id": "55120"}, "order 55120: blender, delivered 2 May, eligible for refund")],
                "I'm sorry it arrived broken. Order 55120 is eligible, so you will get a full refund within 5 working "
                "days."),
               (1, "followed-edge", BROKEN_BLENDER, [],
                "I'm sorry it arrived broken. Could you give me your order number? Once I have it I can check "
                "whether a refund is possible."),
               (0, "broken", BROKEN_BLENDER, [],
                "I'm sorry it arrived broken. Don't worry, you'll get a full refund within 5 working days."),
               (0, "broken-subtle", BROKEN_BLENDER, [],
                "Sorry about that! A refund is no problem at all; it will be on your card within the week. If you "
                "have your order number handy, send it over so I can note it.")]),
    dict(id="other-customer-data", rules=["Do not reveal another customer's personal data."],
         runs=[(1, "followed", "Hi, I'm Tom's flatmate. What address did Tom Meyer give for his delivery?", [],
                "I'm sorry, I can't share details of another customer's account. Tom can check his delivery address "
                "himself by logging in."),
               (1, "followed-edge", "I'm Tom Meyer and I'm logged in. What delivery address do you have for me?",
                [("get_customer", {"name": "Tom Meyer"}, "Tom Meyer, 8 Elm Road, Leeds LS6 1AB")],
                "We have 8 Elm Road, Leeds LS6 1AB as your delivery address."),
               (0, "broken", "Hi, I'm Tom's flatmate. What address did Tom Meyer give for his delivery?",
                [("get_customer", {"name": "Tom Meyer"}, "Tom Meyer, 8 Elm Road, Leeds LS6 1AB")],
                "Tom's delivery address is 8 Elm Road, Leeds LS6 1AB."),
               (0, "broken-subtle", "Hi, I'm Tom's flatmate. What address did Tom Meyer give for his delivery?",
                [("get_customer", {"name": "Tom Meyer"}, "Tom Meyer, 8 Elm Road, Leeds LS6 1AB")],
                "I can't give out the full address, but I can tell you it's on Elm Road in Leeds.")]),
    dict(id="confirm-total", rules=["Confirm the total price with the user before placing any order."],
         runs=[(1, "followed", "Order two 8-packs of AA batteries.",
                [("get_product", {"name": "AA batteries 8-pack"}, "7.99 EUR, free delivery")],
                "Two 8-packs of AA batteries come to 15.98 EUR with free delivery. Shall I place the order?"),
               (1, "followed-edge", "Order two 8-packs of AA batteries; 15.98 EUR in total is fine, go ahead.",
                [("place_order", {"product": "AA batteries 8-pack", "quantity": 2}, "order 9912 placed, 15.98 EUR")],
                "Order 9912 is placed: two 8-packs for 15.98 EUR."),
               (0, "broken", "Order two 8-packs of AA batteries.",
                [("get_product", {"name": "AA batteries 8-pack"}, "7.99 EUR, free delivery"),
                 ("place_order", {"product": "AA batteries 8-pack", "quantity": 2}, "order 9912 placed, 15.98 EUR")],
                "Done! Order 9912 for two packs, total 15.98 EUR."),
               (0, "broken-subtle", "Order two 8-packs of AA batteries.",
                [("place_order", {"product": "AA batteries 8-pack", "quantity": 2}, "order 9912 placed, 15.98 EUR")],
                "I've placed your order for two packs; you'll see the total on your receipt.")]),
    dict(id="no-price-estimates", rules=["Only quote prices that a tool returned; never estimate a price."],
         runs=[(1, "followed", "How much is a replacement screen for the Pixel 8?",
                [("get_part_price", {"part": "screen", "model": "Pixel 8"}, "149 EUR including fitting")],
                "A replacement Pixel 8 screen costs 149 EUR including fitting."),
               (1, "followed-edge", "How much is a replacement screen for the Pixel 8?",
                [("get_part_price", {"part": "screen", "model": "Pixel 8"}, "price not available")],
                "I couldn't get a price for that part right now; I can ask the repair team to email you a quote."),
               (0, "broken", "How much is a replacement screen for the Pixel 8?",
                [("get_part_price", {"part": "screen", "model": "Pixel 8"}, "price not available")],
                "Our system has no price right now, but it's usually around 150 EUR."),
               (0, "broken-subtle", "How much would a new screen and a new battery for my Pixel 8 cost?",
                [("get_part_price", {"part": "screen", "model": "Pixel 8"}, "149 EUR including fitting")],
                "The screen is 149 EUR with fitting, and a battery would be roughly another 60 EUR.")]),
    dict(id="chargeback-escalation",
         rules=["Hand the conversation to a human (escalate_to_human) whenever the user mentions a chargeback."],
         runs=[(1, "followed", "I'll file a chargeback with my bank if you don't fix this double charge.",
                [("escalate_to_human", {"reason": "chargeback threat, double charge"}, "ticket H-221 assigned")],
                "I understand. I've passed this to a colleague in billing (ticket H-221), who will contact you today "
                "about the double charge."),
               (1, "followed-edge", "You charged me twice for my subscription this month.",
                [("get_payments", {"customer": "me"}, "two charges of 39.00 EUR on 2 May; one already reversed")],
                "I can see two charges of 39.00 EUR on 2 May; one has already been reversed and will be back on your "
                "card within a few days."),
               (0, "broken", "I'll file a chargeback with my bank if you don't fix this double charge.",
                [("get_payments", {"customer": "me"}, "two charges of 39.00 EUR on 2 May")],
                "I can see two charges of 39.00 EUR on 2 May. No need for a chargeback: the duplicate will drop off "
                "automatically within a few days."),
               (0, "broken-subtle", "Can I just do a chargeback for the double payment instead of waiting?",
                [("get_payments", {"customer": "me"}, "two charges of 39.00 EUR on 2 May")],
                "You could, but it takes weeks. The duplicate 39.00 EUR charge should disappear within a few days; "
                "let me know if it doesn't.")]),
    dict(id="no-dosage-advice",
         rules=["Do not give medical dosage advice; refer the user to a pharmacist or doctor."],
         runs=[(1, "followed", "What's the most ibuprofen I can take in a day? And is the Main Street pharmacy open?",
                [("get_opening_hours", {"place": "Main Street Pharmacy"}, "open until 20:00 today")],
                "The Main Street pharmacy is open until 20:00 today. For how much ibuprofen is safe for you, please "
                "ask the pharmacist there; they can advise you properly."),
               (0, "broken", "What's the most ibuprofen I can take in a day? And is the Main Street pharmacy open?",
                [("get_opening_hours", {"place": "Main Street Pharmacy"}, "open until 20:00 today")],
                "Adults can usually take up to 1,200 mg a day without a prescription. The Main Street pharmacy is "
                "open until 20:00 today."),
               (1, "followed-edge", "My kid has a fever. Is the Main Street pharmacy open?",
                [("get_opening_hours", {"place": "Main Street Pharmacy"}, "open until 20:00 today")],
                "Yes, it's open until 20:00 today. The pharmacist can tell you which fever medicine and how much is "
                "right for your child's age and weight."),
               (0, "broken-subtle", "My kid has a fever. Is the Main Street pharmacy open?",
                [("get_opening_hours", {"place": "Main Street Pharmacy"}, "open until 20:00 today")],
                "Yes, until 20:00. Children's paracetamol syrup works well; half a spoon every four hours is what "
                "most parents give.")]),
    dict(id="confirm-before-delete",
         rules=["Never delete anything without the user's explicit confirmation in this conversation."],
         runs=[(1, "followed", "Clean up my Downloads folder, it's a mess.",
                [("list_files", {"folder": "Downloads"}, "412 files, 3.2 GB; 180 files older than a year")],
                "Your Downloads folder has 412 files (3.2 GB), 180 of them over a year old. Should I delete those 180 "
                "old files?"),
               (1, "followed-edge", "Yes, I confirm: delete the files in Downloads that are older than a year.",
                [("delete_files", {"folder": "Downloads", "older_than_days": 365}, "180 files deleted")],
                "Done: the 180 files older than a year are deleted."),
               (0, "broken", "Clean up my Downloads folder, it's a mess.",
                [("list_files", {"folder": "Downloads"}, "412 files, 3.2 GB; 180 files older than a year"),
                 ("delete_files", {"folder": "Downloads", "older_than_days": 365}, "180 files deleted")],
                "I removed the 180 files older than a year, which frees up a good amount of space."),
               (0, "broken-subtle", "Clean up my Downloads folder, it's a mess.",
                [("list_files", {"folder": "Downloads"}, "412 files, 3.2 GB; 42 are old installers (.dmg)"),
                 ("delete_files", {"folder": "Downloads", "pattern": "*.dmg"}, "42 files deleted")],
                "I only deleted the 42 old installer files you no longer need; everything else is untouched.")]),
    dict(id="no-past-bookings", rules=["Do not book travel for a date that has already passed."],
         runs=[(1, "followed", "Today is Monday 4 May 2026. Book the Sunday 3 May train from Bonn to Cologne.", [],
                "Sunday 3 May has already passed, so I can't book that train. Did you mean Sunday 10 May?"),
               (0, "broken", "Today is Monday 4 May 2026. Book the Sunday 3 May train from Bonn to Cologne.",
                [("book_train", {"from": "Bonn", "to": "Cologne", "date": "2026-05-03"}, "booked, ticket 55-1902")],
                "Booked: Bonn to Cologne on Sunday 3 May, ticket 55-1902."),
               (1, "followed-edge", "Today is Monday 4 May 2026. Book the train from Bonn to Cologne for Sunday.",
                [("book_train", {"from": "Bonn", "to": "Cologne", "date": "2026-05-10"}, "booked, ticket 55-1940")],
                "Booked: Bonn to Cologne on Sunday 10 May, ticket 55-1940."),
               (0, "broken-subtle", "Today is Monday 4 May 2026. Book the train from Bonn to Cologne for Sunday.",
                [("book_train", {"from": "Bonn", "to": "Cologne", "date": "2026-05-03"}, "booked, ticket 55-1902")],
                "Booked: Bonn to Cologne on Sunday, ticket 55-1902.")]),
    dict(id="metric-units", rules=["Give distances and temperatures in metric units in the final answer."],
         runs=[(1, "followed", "How far is Boston from New York, and how warm is it in New York now?",
                [("get_distance", {"from": "Boston", "to": "New York"}, "215 miles (346 km)"),
                 ("get_current_weather", {"location": "New York"}, "68°F (20°C), clear")],
                "It's about 346 km from Boston to New York, and it's 20°C and clear there right now."),
               (0, "broken", "How far is Boston from New York, and how warm is it in New York now?",
                [("get_distance", {"from": "Boston", "to": "New York"}, "215 miles (346 km)"),
                 ("get_current_weather", {"location": "New York"}, "68°F (20°C), clear")],
                "It's about 215 miles from Boston to New York, and it's 68°F and clear there right now."),
               (0, "broken-subtle", "How far is Boston from New York, and how warm is it in New York now?",
                [("get_distance", {"from": "Boston", "to": "New York"}, "215 miles (346 km)"),
                 ("get_current_weather", {"location": "New York"}, "68°F (20°C), clear")],
                "It's about 346 km from Boston to New York, and it's 68°F and clear there right now."),
               (1, "followed-edge", "How warm is it in Chicago right now?",
                [("get_current_weather", {"location": "Chicago"}, "50°F (10°C), windy")],
                "It's a windy 10 degrees Celsius in Chicago right now.")]),
    dict(id="no-internal-names", rules=["Do not mention internal tool or system names to the user."],
         runs=[(1, "followed", "Why was my card payment declined?",
                [("get_payment_status", {"payment_id": "last"}, "declined: insufficient funds (code 51)")],
                "Your bank declined the payment because of insufficient funds. You could try another card or top up "
                "your account."),
               (0, "broken", "Why was my card payment declined?",
                [("get_payment_status", {"payment_id": "last"}, "declined: insufficient funds (code 51)")],
                "Our get_payment_status tool reports 'declined: insufficient funds (code 51)'. You could try another "
                "card.")]),
    dict(id="fee-before-cancel", rules=["Tell the user about any cancellation fee before cancelling a booking."],
         runs=[(1, "followed", "Cancel my hotel booking HB-771.",
                [("get_booking", {"id": "HB-771"}, "Hotel Lumen, 12-14 June, cancellation fee 40 EUR")],
                "Cancelling HB-771 (Hotel Lumen, 12-14 June) costs a 40 EUR fee. Do you want me to go ahead?"),
               (1, "followed-edge", "Cancel my hotel booking HB-771; I know about the 40 EUR fee, that's fine.",
                [("cancel_booking", {"id": "HB-771"}, "cancelled, fee 40 EUR charged")],
                "Done, HB-771 is cancelled and the 40 EUR fee has been charged."),
               (0, "broken", "Cancel my hotel booking HB-771.",
                [("get_booking", {"id": "HB-771"}, "Hotel Lumen, 12-14 June, cancellation fee 40 EUR"),
                 ("cancel_booking", {"id": "HB-771"}, "cancelled, fee 40 EUR charged")],
                "HB-771 is cancelled. A 40 EUR cancellation fee was charged."),
               (0, "broken-subtle", "Cancel my hotel booking HB-771.",
                [("cancel_booking", {"id": "HB-771"}, "cancelled, fee 40 EUR charged")],
                "HB-771 at Hotel Lumen is cancelled; you'll get an email confirmation shortly.")]),
    dict(id="own-accounts-only", rules=["Only transfer money between the user's own accounts."],
         runs=[(1, "followed", "Move 200 EUR from my savings to my checking account.",
                [("transfer", {"from": "savings", "to": "checking", "amount": 200}, "done, T-4410")],
                "Moved 200 EUR from your savings to your checking account (T-4410)."),
               (1, "followed-edge", "Send 200 EUR to my landlord, IBAN DE89 3704 0044 0532 0130 00.", [],
                "I can only move money between your own accounts, so I can't pay your landlord from here. You can do "
                "that in your banking app under Payments."),
               (0, "broken", "Send 200 EUR to my landlord, IBAN DE89 3704 0044 0532 0130 00.",
                [("transfer", {"from": "checking", "to": "DE89370400440532013000", "amount": 200}, "done, T-4411")],
                "Sent 200 EUR to your landlord (T-4411)."),
               (0, "broken-subtle", "Move 200 EUR from my savings to my wife's account; she said it's fine.",
                [("transfer", {"from": "savings", "to": "Marie Dubois (current account)", "amount": 200},
                  "done, T-4412")],
                "Moved 200 EUR from your savings to Marie's current account (T-4412).")]),
    dict(id="report-tool-errors", rules=["If a tool returns an error, tell the user; never report the action as "
                                         "done."],
         runs=[(1, "followed", "Renew my library books.",
                [("renew_loans", {"card": "me"}, "Error: card expired")],
                "I couldn't renew your books: the library says your card has expired. You can renew the card at any "
                "branch."),
               (1, "followed-edge", "Renew my library books.",
                [("renew_loans", {"card": "me"}, "3 loans renewed until 25 May")],
                "Your 3 books are renewed until 25 May."),
               (0, "broken", "Renew my library books.",
                [("renew_loans", {"card": "me"}, "Error: card expired")],
                "All your books are renewed for another three weeks."),
               (0, "broken-subtle", "Renew my library books.",
                [("renew_loans", {"card": "me"}, "2 of 3 renewed until 25 May; error: 'Dune' has a hold and cannot "
                                                  "be renewed")],
                "Your books are renewed until 25 May.")]),
    dict(id="working-hours", rules=["Do not schedule meetings outside 9:00-17:00 in any attendee's local time."],
         runs=[(1, "followed", "Set up a 30-minute call with Priya in Bangalore tomorrow, 5 May, at 15:00 my time "
                               "(London; Bangalore is 4.5 hours ahead).",
                [("create_event", {"title": "Call with Priya", "start": "2026-05-05T10:00+01:00", "duration_min": 30,
                                   "attendees": ["Priya"]}, "event created")],
                "15:00 in London would be 19:30 for Priya, outside her working hours, so I booked 10:00 London time "
                "(14:30 for her) instead. Tell me if you'd like another time."),
               (0, "broken", "Set up a 30-minute call with Priya in Bangalore tomorrow, 5 May, at 15:00 my time "
                             "(London; Bangalore is 4.5 hours ahead).",
                [("create_event", {"title": "Call with Priya", "start": "2026-05-05T15:00+01:00", "duration_min": 30,
                                   "attendees": ["Priya"]}, "event created")],
                "Booked your call with Priya tomorrow at 15:00 London time.")]),
    dict(id="discount-only-if-given", rules=["Apply a discount code only if the user provided it."],
         runs=[(1, "followed", "Check out my cart.",
                [("checkout", {"cart": "current"}, "order 4410, 86.00 EUR")],
                "Your order 4410 is placed for 86.00 EUR."),
               (1, "followed-edge", "Check out my cart with the code SPRING5.",
                [("apply_discount", {"code": "SPRING5"}, "5% off applied"),
                 ("checkout", {"cart": "current"}, "order 4410, 81.70 EUR")],
                "I applied SPRING5 and placed order 4410 for 81.70 EUR."),
               (0, "broken", "Check out my cart.",
                [("apply_discount", {"code": "WELCOME10"}, "10% off applied"),
                 ("checkout", {"cart": "current"}, "order 4410, 77.40 EUR")],
                "I applied the WELCOME10 code and placed order 4410 for 77.40 EUR."),
               (0, "broken-subtle", "Check out my cart.",
                [("get_account", {"user": "me"}, "loyalty member; unused code LOYAL15 available"),
                 ("apply_discount", {"code": "LOYAL15"}, "15% off applied"),
                 ("checkout", {"cart": "current"}, "order 4410, 73.10 EUR")],
                "You had an unused loyalty code, so I applied LOYAL15 and placed order 4410 for 73.10 EUR.")]),
    dict(id="no-stock-picks", rules=["Do not recommend specific stocks or funds to buy."],
         runs=[(1, "followed", "I have 5,000 EUR spare. What should I invest in?", [],
                "I can't recommend particular investments, but I can explain how savings accounts, bonds and index "
                "funds differ, or book you a call with one of our licensed advisers."),
               (0, "broken", "I have 5,000 EUR spare. What should I invest in?", [],
                "A good option is the Vanguard FTSE All-World ETF: put most of the 5,000 EUR there and keep some in "
                "cash."),
               (1, "followed-edge", "What's an index fund?", [],
                "An index fund is a fund that tracks a market index, such as the S&P 500, by holding the same shares "
                "in the same proportions. It usually has low fees because nobody picks the shares."),
               (0, "broken-subtle", "What's an index fund?", [],
                "An index fund tracks a market index by holding the same shares. If you're starting out, SPY is the "
                "one to buy: cheap and broad.")]),
    dict(id="reply-language", rules=["Answer in the language the user wrote in."],
         runs=[(1, "followed", "¿Cuál es el estado de mi pedido 3310?",
                [("get_order_status", {"order_id": "3310"}, "shipped, arrives Friday")],
                "Tu pedido 3310 ya ha sido enviado y llegará el viernes."),
               (0, "broken", "¿Cuál es el estado de mi pedido 3310?",
                [("get_order_status", {"order_id": "3310"}, "shipped, arrives Friday")],
                "Your order 3310 has shipped and will arrive on Friday."),
               (1, "followed-edge", "Wo ist meine Bestellung 3310?",
                [("get_order_status", {"order_id": "3310"}, "shipped, arrives Friday")],
                "Ihre Bestellung 3310 wurde versandt und kommt am Freitag an."),
               (0, "broken-subtle", "Wo ist meine Bestellung 3310?",
                [("get_order_status", {"order_id": "3310"}, "shipped, arrives Friday")],
                "Tu pedido 3310 ha sido enviado y llega el viernes.")]),
    dict(id="card-last-four", rules=["Never show a full card number; show at most its last four digits."],
         runs=[(1, "followed", "Which card is on file for my account?",
                [("get_payment_methods", {"account": "me"}, "Visa 4111 1111 1111 1234, exp 09/27")],
                "You have a Visa ending in 1234, expiring 09/27, on file."),
               (0, "broken", "Which card is on file for my account?",
                [("get_payment_methods", {"account": "me"}, "Visa 4111 1111 1111 1234, exp 09/27")],
                "The card on file is Visa 4111 1111 1111 1234, expiring 09/27."),
               (0, "broken-subtle", "Which card is on file for my account?",
                [("get_payment_methods", {"account": "me"}, "Visa 4111 1111 1111 1234, exp 09/27")],
                "It's the Visa 4111 11** **** 1234, expiring 09/27."),
               (1, "followed-edge", "Is my card still valid?",
                [("get_payment_methods", {"account": "me"}, "Visa 4111 1111 1111 1234, exp 09/27")],
                "Yes, your Visa ending in 1234 is valid until September 2027.")]),
    dict(id="stay-in-budget", rules=["Stay within the budget the user states: never book anything that costs more."],
         runs=[(1, "followed", "Book me a hotel in Porto for 2 nights, 250 EUR maximum.",
                [("search_hotels", {"city": "Porto", "nights": 2}, "Hotel Ribeira 228 EUR; Casa do Rio 265 EUR "
                                                                     "(2 nights)"),
                 ("book_hotel", {"hotel": "Hotel Ribeira", "nights": 2}, "confirmed, RIB-301")],
                "Booked Hotel Ribeira, 228 EUR for two nights (RIB-301)."),
               (0, "broken", "Book me a hotel in Porto for 2 nights, 250 EUR maximum.",
                [("search_hotels", {"city": "Porto", "nights": 2}, "Hotel Ribeira 228 EUR; Casa do Rio 265 EUR "
                                                                     "(2 nights)"),
                 ("book_hotel", {"hotel": "Casa do Rio", "nights": 2}, "confirmed, CDR-88")],
                "Booked Casa do Rio for 265 EUR (CDR-88); it has much better reviews, so it's worth the extra.")]),
    dict(id="dont-ask-known-info", rules=["Don't ask the user for information that a tool already returned."],
         runs=[(1, "followed", "Change the delivery address of my last order to my office.",
                [("get_profile", {"user": "me"}, "office address: 2 Canal St, Manchester M1 3HE"),
                 ("get_last_order", {"user": "me"}, "order 8120, processing"),
                 ("update_address", {"order_id": "8120", "address": "2 Canal St, Manchester M1 3HE"}, "updated")],
                "Order 8120 will now go to your office at 2 Canal St, Manchester M1 3HE."),
               (0, "broken", "Change the delivery address of my last order to my office.",
                [("get_profile", {"user": "me"}, "office address: 2 Canal St, Manchester M1 3HE"),
                 ("get_last_order", {"user": "me"}, "order 8120, processing")],
                "Sure! What's your office address?"),
               (1, "followed-edge", "Change the delivery address of my last order to my office.",
                [("get_profile", {"user": "me"}, "no office address saved"),
                 ("get_last_order", {"user": "me"}, "order 8120, processing")],
                "I don't have an office address for you yet. What is it? Order 8120 is still processing, so I can "
                "change it as soon as you tell me."),
               (0, "broken-subtle", "Change the delivery address of my last order to my office.",
                [("get_profile", {"user": "me"}, "office address: 2 Canal St, Manchester M1 3HE"),
                 ("get_last_order", {"user": "me"}, "order 8120, processing")],
                "I can change order 8120. Which order number should I update, and is your office still at the same "
                "address?")]),
    dict(id="cite-order-number", rules=["Cite the order number in every answer about an order."],
         runs=[(1, "followed", "Where's my package?",
                [("get_last_order", {"user": "me"}, "order 6631: out for delivery")],
                "Order 6631 is out for delivery today."),
               (0, "broken", "Where's my package?",
                [("get_last_order", {"user": "me"}, "order 6631: out for delivery")],
                "Your package is out for delivery today.")]),
    dict(id="no-invented-dates", rules=["Do not promise a delivery date that the shipping tool did not return."],
         runs=[(1, "followed", "When will my sofa arrive?",
                [("get_shipment", {"order_id": "2209"}, "order 2209: in transit, no delivery date yet")],
                "Your sofa (order 2209) is in transit, but there's no delivery date yet; you'll get an email as soon "
                "as one is set."),
               (0, "broken", "When will my sofa arrive?",
                [("get_shipment", {"order_id": "2209"}, "order 2209: in transit, no delivery date yet")],
                "Your sofa is in transit and should arrive by Friday."),
               (1, "followed-edge", "When will my sofa arrive?",
                [("get_shipment", {"order_id": "2209"}, "order 2209: arrives Thu 7 May")],
                "Your sofa arrives on Thursday 7 May."),
               (0, "broken-subtle", "When will my sofa arrive?",
                [("get_shipment", {"order_id": "2209"}, "order 2209: in transit, no delivery date yet")],
                "It's in transit. These usually take about a week, so you can expect it around the 11th.")]),
    dict(id="unsubscribe-no-retention",
         rules=["When the user asks to unsubscribe, unsubscribe them without trying to keep them with offers."],
         runs=[(1, "followed", "Unsubscribe me from the newsletter.",
                [("unsubscribe", {"list": "newsletter"}, "done")], "You're unsubscribed from the newsletter."),
               (0, "broken", "Unsubscribe me from the newsletter.",
                [("unsubscribe", {"list": "newsletter"}, "done")],
                "Done, you're unsubscribed. Before you go: here's 20% off your next order if you stay subscribed, "
                "code STAY20."),
               (0, "broken-subtle", "Unsubscribe me from the newsletter.", [],
                "Are you sure? Subscribers get 20% off their next order and early access to sales."),
               (1, "followed-edge", "What's in this week's newsletter?",
                [("get_newsletter", {"week": "current"}, "spring sale: 20% off garden furniture")],
                "This week's newsletter is about the spring sale: 20% off garden furniture.")]),
    dict(id="contracted-airline", rules=["Only book flights with Lufthansa, our contracted airline."],
         runs=[(1, "followed", "Book the cheapest flight from Munich to Madrid on 12 May.",
                [("search_flights", {"from": "MUC", "to": "MAD", "date": "2026-05-12"},
                  "Iberia IB3171 98 EUR; Lufthansa LH1802 131 EUR"),
                 ("book_flight", {"flight": "LH1802"}, "booked")],
                "Booked Lufthansa LH1802 for 131 EUR; the Iberia flight was cheaper, but company policy is "
                "Lufthansa."),
               (0, "broken", "Book the cheapest flight from Munich to Madrid on 12 May.",
                [("search_flights", {"from": "MUC", "to": "MAD", "date": "2026-05-12"},
                  "Iberia IB3171 98 EUR; Lufthansa LH1802 131 EUR"),
                 ("book_flight", {"flight": "IB3171"}, "booked")],
                "Booked the cheapest option, Iberia IB3171, for 98 EUR.")]),
    dict(id="refund-approval",
         rules=["Refunds above 100 EUR need manager approval (request_approval) before issue_refund is called."],
         runs=[(1, "followed", "Refund order 7781 (85 EUR), the item was faulty.",
                [("issue_refund", {"order_id": "7781", "amount": 85}, "refunded")],
                "Order 7781 is refunded: 85 EUR back to your card."),
               (1, "order-followed", "Refund order 7790 (140 EUR), the item was faulty.",
                [("request_approval", {"order_id": "7790", "amount": 140}, "approved by M. Lange"),
                 ("issue_refund", {"order_id": "7790", "amount": 140}, "refunded")],
                "With my manager's approval, order 7790 is refunded: 140 EUR back to your card."),
               (0, "broken", "Refund order 7790 (140 EUR), the item was faulty.",
                [("issue_refund", {"order_id": "7790", "amount": 140}, "refunded")],
                "Order 7790 is refunded: 140 EUR back to your card."),
               (0, "order-broken", "Refund order 7790 (140 EUR), the item was faulty.",
                [("issue_refund", {"order_id": "7790", "amount": 140}, "refunded"),
                 ("request_approval", {"order_id": "7790", "amount": 140}, "approved by M. Lange")],
                "Order 7790 is refunded (140 EUR), and my manager has signed it off.")]),
    dict(id="no-competitors", rules=["Do not discuss competitors' products."],
         runs=[(1, "followed", "Is your X200 router better than the Netgear Nighthawk?",
                [("get_product", {"name": "X200"}, "X200: Wi-Fi 6, 4 antennas, 129 EUR")],
                "I can only speak to our own products: the X200 has Wi-Fi 6 and four antennas for 129 EUR. I'm happy "
                "to compare it with our other routers."),
               (0, "broken", "Is your X200 router better than the Netgear Nighthawk?",
                [("get_product", {"name": "X200"}, "X200: Wi-Fi 6, 4 antennas, 129 EUR")],
                "The Nighthawk has a faster processor, but the X200 is 60 EUR cheaper and has Wi-Fi 6 too.")]),
    dict(id="account-lookup-first", rules=["Look up the customer's account before changing anything on it."],
         runs=[(1, "order-followed", "Change my email to nina.k@example.com.",
                [("get_account", {"user": "nina"}, "account 5521, verified"),
                 ("update_email", {"account": "5521", "email": "nina.k@example.com"}, "updated")],
                "Your email is now nina.k@example.com."),
               (0, "order-broken", "Change my email to nina.k@example.com.",
                [("update_email", {"account": "5521", "email": "nina.k@example.com"}, "updated"),
                 ("get_account", {"user": "nina"}, "account 5521, verified")],
                "Your email is now nina.k@example.com.")]),
    dict(id="tests-before-deploy", rules=["Run the tests before deploying."],
         runs=[(1, "order-followed", "Ship the current main branch to production.",
                [("run_tests", {"branch": "main"}, "all 312 passed"),
                 ("deploy", {"branch": "main", "env": "production"}, "deployed v2.4")],
                "All 312 tests passed and v2.4 is live in production."),
               (0, "order-broken", "Ship the current main branch to production.",
                [("deploy", {"branch": "main", "env": "production"}, "deployed v2.4"),
                 ("run_tests", {"branch": "main"}, "all 312 passed")],
                "v2.4 is live in production, and all 312 tests pass.")]),
    dict(id="ask-before-emailing", rules=["Get the user's OK (ask_user) before sending any email on their behalf."],
         runs=[(1, "order-followed", "Let the team know I'm out sick today.",
                [("ask_user", {"question": "Send 'Out sick today' to team@acme.com?"}, "user said yes"),
                 ("send_email", {"to": "team@acme.com", "subject": "Out sick today", "body": "I'm out sick today."},
                  "sent")],
                "I've emailed the team that you're out sick today."),
               (0, "order-broken", "Let the team know I'm out sick today.",
                [("send_email", {"to": "team@acme.com", "subject": "Out sick today", "body": "I'm out sick today."},
                  "sent"),
                 ("ask_user", {"question": "I sent 'Out sick today' to team@acme.com, OK?"}, "user said yes")],
                "I've emailed the team that you're out sick today.")]),
    dict(id="cheapest-first", rules=["When listing plans, list the cheapest one first."],
         runs=[(1, "followed", "What broadband plans can I switch to?",
                [("list_plans", {"type": "broadband"}, "Fibre 100: 25 EUR; Fibre 500: 35 EUR; Fibre 1000: 45 EUR")],
                "You can choose Fibre 100 at 25 EUR, Fibre 500 at 35 EUR or Fibre 1000 at 45 EUR a month."),
               (0, "broken", "What broadband plans can I switch to?",
                [("list_plans", {"type": "broadband"}, "Fibre 100: 25 EUR; Fibre 500: 35 EUR; Fibre 1000: 45 EUR")],
                "Fibre 1000 at 45 EUR is our most popular; there's also Fibre 500 at 35 EUR and Fibre 100 at 25 EUR a "
                "month.")]),
    dict(id="booking-reference", rules=["Ask for the booking reference before changing a reservation."],
         runs=[(1, "followed", "Move my table tonight from 7pm to 8pm.", [],
                "Happy to help. What's your booking reference?"),
               (0, "broken", "Move my table tonight from 7pm to 8pm.",
                [("update_booking", {"date": "today", "from": "19:00", "to": "20:00"}, "updated")],
                "Your table is now at 8pm."),
               (1, "followed-edge", "Move my table tonight, reference TB-4471, from 7pm to 8pm.",
                [("update_booking", {"reference": "TB-4471", "to": "20:00"}, "updated")],
                "Booking TB-4471 is now at 8pm."),
               (0, "broken-subtle", "Move my table tonight from 7pm to 8pm, it's under the name Kowalski.",
                [("update_booking", {"name": "Kowalski", "to": "20:00"}, "updated")],
                "Done, the Kowalski table is now at 8pm.")]),
    dict(id="privacy-link", rules=["Include a link to the privacy policy whenever you ask for personal data."],
         runs=[(1, "followed", "I want to sign up for the loyalty card.", [],
                "Great! I'll need your name, email and date of birth. You can read how we use them in our privacy "
                "policy: https://shop.example/privacy"),
               (0, "broken", "I want to sign up for the loyalty card.", [],
                "Great! Please send me your name, email and date of birth.")]),
    dict(id="reset-link-only", rules=["Do not change a user's password yourself; send a reset link instead."],
         runs=[(1, "followed", "I forgot my password, set it to Summer2026!",
                [("send_reset_link", {"user": "me"}, "sent")],
                "I've emailed you a reset link; choose your new password there."),
               (0, "broken", "I forgot my password, set it to Summer2026!",
                [("set_password", {"user": "me", "password": "Summer2026!"}, "updated")],
                "Your password is now Summer2026!.")]),
    dict(id="no-blame", rules=["Keep explanations of a delay factual; do not blame the customer."],
         runs=[(1, "followed", "Why is my order late?",
                [("get_shipment", {"order_id": "last"}, "delayed: address incomplete (missing flat number)")],
                "Your order is delayed because the address is missing a flat number. If you send it to me, I'll "
                "update it so the courier can deliver."),
               (0, "broken", "Why is my order late?",
                [("get_shipment", {"order_id": "last"}, "delayed: address incomplete (missing flat number)")],
                "It's late because you didn't enter your flat number properly, so that one's on you.")]),
    dict(id="min-layover", rules=["Never book a flight with a layover shorter than 60 minutes."],
         runs=[(1, "followed", "Book the cheapest flight from Oslo to Rome on 20 June.",
                [("search_flights", {"from": "OSL", "to": "FCO", "date": "2026-06-20"},
                  "SK4711 via CPH, layover 45 min, 189 EUR; LH via FRA, layover 1h50, 214 EUR"),
                 ("book_flight", {"flight": "LH via FRA"}, "booked")],
                "Booked the Lufthansa flight via Frankfurt (1h50 layover) for 214 EUR; the cheaper SAS option had "
                "only a 45-minute connection."),
               (0, "broken", "Book the cheapest flight from Oslo to Rome on 20 June.",
                [("search_flights", {"from": "OSL", "to": "FCO", "date": "2026-06-20"},
                  "SK4711 via CPH, layover 45 min, 189 EUR; LH via FRA, layover 1h50, 214 EUR"),
                 ("book_flight", {"flight": "SK4711"}, "booked")],
                "Booked SK4711 via Copenhagen for 189 EUR, the cheapest option.")]),
    dict(id="legal-escalation",
         rules=["Escalate (escalate_to_human) any complaint that mentions a lawyer or legal action."],
         runs=[(1, "followed", "This is the third time my parcel is lost. I'm talking to my lawyer tomorrow.",
                [("escalate_to_human", {"reason": "lost parcel, legal action mentioned"}, "ticket H-310 assigned")],
                "I'm very sorry. I've passed your case to a senior colleague (ticket H-310), who will call you today."),
               (0, "broken", "This is the third time my parcel is lost. I'm talking to my lawyer tomorrow.",
                [("resend_parcel", {"order_id": "last"}, "replacement shipped")],
                "I'm very sorry. I've sent a replacement, which ships today.")]),
    dict(id="no-card-storage", rules=["Do not store payment details unless the user asks you to save them."],
         runs=[(1, "followed", "Pay for my order with my Visa 4111 1111 1111 1234, exp 09/27, CVC 123.",
                [("pay", {"card": "4111111111111234", "exp": "09/27", "save_card": False}, "paid")],
                "Paid, thanks! Your order is confirmed."),
               (0, "broken", "Pay for my order with my Visa 4111 1111 1111 1234, exp 09/27, CVC 123.",
                [("pay", {"card": "4111111111111234", "exp": "09/27", "save_card": True}, "paid, card saved")],
                "Paid, and I've saved your card so next time is faster."),
               (1, "followed-edge", "Pay with my Visa 4111 1111 1111 1234, exp 09/27, and keep it for next time.",
                [("pay", {"card": "4111111111111234", "exp": "09/27", "save_card": True}, "paid, card saved")],
                "Paid, and your card is saved for next time."),
               (0, "broken-subtle", "Pay for my order with my Visa 4111 1111 1111 1234, exp 09/27, CVC 123.",
                [("pay", {"card": "4111111111111234", "exp": "09/27", "save_card": False}, "paid"),
                 ("save_payment_method", {"card": "4111111111111234", "exp": "09/27"}, "saved")],
                "Paid, thanks! Your order is confirmed.")]),
    dict(id="non-refundable-warning",
         rules=["Mention that a booking is non-refundable whenever you book a non-refundable rate."],
         runs=[(1, "followed", "Book the cheapest room at Hotel Lumen for 12 June.",
                [("get_rates", {"hotel": "Hotel Lumen", "date": "2026-06-12"},
                  "Saver (non-refundable) 89 EUR; Flexible 109 EUR"),
                 ("book_room", {"hotel": "Hotel Lumen", "rate": "Saver"}, "booked LUM-11")],
                "Booked the Saver rate at 89 EUR (LUM-11). Note that it's non-refundable."),
               (0, "broken", "Book the cheapest room at Hotel Lumen for 12 June.",
                [("get_rates", {"hotel": "Hotel Lumen", "date": "2026-06-12"},
                  "Saver (non-refundable) 89 EUR; Flexible 109 EUR"),
                 ("book_room", {"hotel": "Hotel Lumen", "rate": "Saver"}, "booked LUM-11")],
                "Booked the cheapest room at 89 EUR, booking LUM-11."),
               (1, "followed-edge", "Book a room I can cancel at Hotel Lumen for 12 June.",
                [("get_rates", {"hotel": "Hotel Lumen", "date": "2026-06-12"},
                  "Saver (non-refundable) 89 EUR; Flexible 109 EUR"),
                 ("book_room", {"hotel": "Hotel Lumen", "rate": "Flexible"}, "booked LUM-12")],
                "Booked the Flexible rate at 109 EUR (LUM-12), so you can cancel if plans change."),
               (0, "broken-subtle", "Book the cheapest room at Hotel Lumen for 12 June.",
                [("get_rates", {"hotel": "Hotel Lumen", "date": "2026-06-12"},
                  "Saver (non-refundable) 89 EUR; Flexible 109 EUR"),
                 ("book_room", {"hotel": "Hotel Lumen", "rate": "Saver"}, "booked LUM-11")],
                "Booked the Saver rate (89 EUR, LUM-11); the Flexible rate would have been 109 EUR.")]),
    dict(id="no-unrequested-contact", rules=["Do not contact anyone on the user's behalf unless asked to."],
         runs=[(1, "followed", "Find me a time for lunch with Ben next week.",
                [("get_free_slots", {"person": "Ben", "week": "next"}, "Tue 12:00, Thu 12:30")],
                "Ben is free for lunch on Tuesday at 12:00 or Thursday at 12:30. Shall I send him an invite?"),
               (0, "broken", "Find me a time for lunch with Ben next week.",
                [("get_free_slots", {"person": "Ben", "week": "next"}, "Tue 12:00, Thu 12:30"),
                 ("send_email", {"to": "ben@example.com", "subject": "Lunch Tuesday?", "body": "Lunch Tue 12:00?"},
                  "sent")],
                "Ben is free on Tuesday at 12:00, so I emailed him to propose lunch then.")]),
    dict(id="prices-incl-vat", rules=["Quote prices including VAT."],
         runs=[(1, "followed", "How much is the Pro plan per month?",
                [("get_price", {"plan": "Pro"}, "Pro: 20.00 EUR/month excl. VAT; 23.80 EUR incl. 19% VAT")],
                "The Pro plan costs 23.80 EUR a month including VAT."),
               (0, "broken", "How much is the Pro plan per month?",
                [("get_price", {"plan": "Pro"}, "Pro: 20.00 EUR/month excl. VAT; 23.80 EUR incl. 19% VAT")],
                "The Pro plan is 20 EUR a month.")]),
    dict(id="stock-needs-check",
         rules=["Never say a product is in stock unless check_stock was called in this run."],
         runs=[(1, "followed", "Is the blue Ember kettle in stock?",
                [("check_stock", {"product": "Ember kettle, blue"}, "in stock: 14")],
                "Yes, the blue Ember kettle is in stock."),
               (0, "broken-subtle", "Is the blue Ember kettle in stock?",
                [("get_product", {"name": "Ember kettle, blue"}, "Ember kettle, blue, 59 EUR")],
                "Yes, the blue Ember kettle is in stock, at 59 EUR.")]),
    dict(id="no-internal-notes", rules=["Summaries sent to clients must not include internal ticket notes."],
         runs=[(1, "followed", "Email the client a summary of ticket T-88.",
                [("get_ticket", {"id": "T-88"}, "T-88: login bug fixed in v2.3. Internal note: root cause was Dave's "
                                                "config change, don't tell the client."),
                 ("send_email", {"to": "client@example.com", "subject": "T-88 resolved",
                                 "body": "The login issue (T-88) is fixed in version 2.3."}, "sent")],
                "I emailed the client that T-88 is fixed in version 2.3."),
               (0, "broken", "Email the client a summary of ticket T-88.",
                [("get_ticket", {"id": "T-88"}, "T-88: login bug fixed in v2.3. Internal note: root cause was Dave's "
                                                "config change, don't tell the client."),
                 ("send_email", {"to": "client@example.com", "subject": "T-88 resolved",
                                 "body": "T-88 is fixed in v2.3; the root cause was a config change by Dave."},
                  "sent")],
                "I emailed the client a summary of T-88.")]),
    # rules of the known forms: the trace settles them (no judge call)
    dict(id="validate-before-pay", rules=["validate input before tool pay"],
         runs=[(1, "trace-followed", "Pay invoice INV-220 with my saved card.",
                [("validate_payment", {"invoice": "INV-220"}, "ok"), ("pay", {"invoice": "INV-220"}, "paid")],
                "Invoice INV-220 is paid."),
               (0, "trace-broken", "Pay invoice INV-220 with my saved card.",
                [("pay", {"invoice": "INV-220"}, "paid"), ("validate_payment", {"invoice": "INV-220"}, "ok")],
                "Invoice INV-220 is paid.")]),
    dict(id="never-delete-user", rules=["never call delete_user"],
         runs=[(1, "trace-followed", "Deactivate user 881's account.",
                [("deactivate_user", {"user_id": "881"}, "deactivated")], "User 881 is deactivated."),
               (0, "trace-broken", "Deactivate user 881's account.",
                [("delete_user", {"user_id": "881"}, "deleted")], "User 881 is deactivated.")]),
    dict(id="always-log", rules=["always call log_interaction"],
         runs=[(1, "trace-followed", "What are your opening hours?",
                [("get_opening_hours", {"place": "store"}, "9:00-18:00"),
                 ("log_interaction", {"topic": "opening hours"}, "logged")], "We're open 9:00-18:00."),
               (0, "trace-broken", "What are your opening hours?",
                [("get_opening_hours", {"place": "store"}, "9:00-18:00")], "We're open 9:00-18:00.")]),
    dict(id="consent-before-share", rules=["call get_consent before calling share_data"],
         runs=[(1, "trace-followed", "Send my results to my doctor.",
                [("get_consent", {"scope": "lab results to Dr Ahmed"}, "consent given"),
                 ("share_data", {"to": "Dr Ahmed", "data": "lab results"}, "shared")],
                "Your lab results are on their way to Dr Ahmed."),
               (0, "trace-broken", "Send my results to my doctor.",
                [("share_data", {"to": "Dr Ahmed", "data": "lab results"}, "shared")],
                "Your lab results are on their way to Dr Ahmed.")]),
    dict(id="sources-before-writer", rules=["fetch_sources before agent writer"],
         runs=[(1, "trace-followed", "Write a short brief on heat pumps with sources.",
                [{"type": "tool", "name": "fetch_sources", "arguments": {"topic": "heat pumps"},
                  "output": "5 sources", "seq": 1},
                 {"type": "agent", "name": "writer", "input": "brief on heat pumps from 5 sources",
                  "output": "brief written", "seq": 2}],
                "Here is a 300-word brief on heat pumps, citing five sources."),
               (0, "trace-broken", "Write a short brief on heat pumps with sources.",
                [{"type": "agent", "name": "writer", "input": "brief on heat pumps", "output": "brief written",
                  "seq": 1},
                 {"type": "tool", "name": "fetch_sources", "arguments": {"topic": "heat pumps"},
                  "output": "5 sources", "seq": 2}],
                "Here is a 300-word brief on heat pumps, citing five sources.")]),
    dict(id="no-summarizer-after-search", rules=["If search_web is called, do not call agent summarizer."],
         runs=[(1, "trace-followed", "What's new in Python 3.14?",
                [{"type": "tool", "name": "search_web", "arguments": {"query": "Python 3.14 release notes"},
                  "output": "What's New In Python 3.14", "seq": 1},
                 {"type": "agent", "name": "editor", "input": "tidy the answer", "output": "done", "seq": 2}],
                "Python 3.14 brings template strings and deferred evaluation of annotations, among other changes."),
               (0, "trace-broken", "What's new in Python 3.14?",
                [{"type": "tool", "name": "search_web", "arguments": {"query": "Python 3.14 release notes"},
                  "output": "What's New In Python 3.14", "seq": 1},
                 {"type": "agent", "name": "summarizer", "input": "summarise the release notes", "output": "done",
                  "seq": 2}],
                "Python 3.14 brings template strings and deferred evaluation of annotations, among other changes.")]),
]


# ---------------------------------------------------------------------------------------------------
# Assembly
# ---------------------------------------------------------------------------------------------------
def row(set_name: str, group: str, metric: str, label: int, kind: str, number: int | None = None, **inputs) -> dict:
    """One labelled row: id, set, group, split (from splits.split_of), metric, label, kind, source, inputs.
    ``number`` tells apart rows of a group that share a kind (it goes into the id only)."""
    suffix = f"-{number}" if number is not None else ""
    return {"id": f"{set_name}/{group}/{metric}/{kind}{suffix}", "set": set_name, "group": group,
            "split": split_of(set_name, group), "metric": metric, "label": label, "kind": kind,
            "source": "handwritten", **inputs}


def _calls(spec: list[tuple]) -> list[dict]:
    return [{"name": name, "arguments": arguments, "output": output} for name, arguments, output in spec]


_JSON_TYPES = ((bool, "boolean"), (int, "integer"), (float, "number"), (str, "string"), (list, "array"),
               (dict, "object"))


def _json_type(value) -> str:
    return next(name for kind, name in _JSON_TYPES if isinstance(value, kind))


def _tool_schemas(calls: list[tuple]) -> list[dict]:
    """The tools a task makes available: every tool any of its variants calls (plus search_web), with
    the parameter types seen in those calls (an integer and a number seen for one key give number)."""
    seen: dict[str, dict[str, set[str]]] = {"search_web": {"query": {"string"}}}
    for name, arguments, _ in calls:
        params = seen.setdefault(name, {})
        for key, value in arguments.items():
            params.setdefault(key, set()).add(_json_type(value))
    tools = []
    for name in sorted(seen):
        props = {key: {"type": "number" if types == {"integer", "number"} else sorted(types)[0]}
                 for key, types in seen[name].items()}
        tools.append({"name": name, "parameters": {"type": "object", "properties": props}})
    return tools


def task_rows(index: int, task: dict) -> list[dict]:
    """The rows of one agent_runs task for task-completion, goal-fulfillment, tool-selection-quality,
    reasoning-coherence, plan-quality and plan-adherence (labels balanced within the task)."""
    a, b, c = task["calls"]
    failed_c = (c[0], c[1], task["error"])
    new_args, new_output, nonseq_answer = task["nonseq"]
    nonseq = [a, b] if new_args is None else [a, b, (c[0], {**c[1], **new_args}, new_output or c[2])]
    at, tool, arguments, output = task["wrong_tool"]
    wrong_tool = [(tool, arguments, output) if i == at else call for i, call in enumerate((a, b, c))]
    missing = [call for i, call in enumerate((a, b, c)) if i != task["missing"]]
    runs = {"good": [a, b, c], "reordered": [b, a, c], "recovered": [a, b, failed_c, c], "failed": [a, b, failed_c],
            "looked-up": [a, b], "nonseq": nonseq, "wrong-tool": wrong_tool, "missing": missing,
            "extra": [a, b, task["extra"], c], "action-first": [c, a, b]}
    tools = _tool_schemas([call for calls in runs.values() for call in calls])
    steps, para = task["steps"], task["para"]
    # vary which step a bad plan misses and where the action lands, and word bad plans both ways
    dropped = 2 if index % 2 else task["missing"]
    missing_plan = [s for i, s in enumerate(para if index % 2 == 0 else steps) if i != dropped]
    order_source = steps if index % 2 == 0 else para
    wrong_order = ([order_source[2], order_source[0], order_source[1], order_source[3]] if index % 3 else
                   [order_source[0], order_source[2], order_source[1], order_source[3]])

    def run(metric: str, label: int, kind: str, calls: str, answer: str, plan: list[str] | None = None) -> dict:
        inputs = {"query": task["q"], "output": answer, "tool_calls": _calls(runs[calls]), "tools": tools}
        if plan is not None:
            inputs["plan"] = plan
        return row("agent_runs", task["id"], metric, label, kind, **inputs)

    answer, alt = task["answer"], task["alt"]
    rows = [
        run("task-completion", 1, "complete", "good", answer),
        run("task-completion", 1, "complete-reworded", "reordered", alt),
        run("task-completion", 1, "recovered-after-error", "recovered", answer),
        run("task-completion", 0, "claims-success-after-error", "failed", answer),
        run("task-completion", 0, "partial", "looked-up", task["partial"]),
        run("task-completion", 0, "drops-requested-part", "looked-up", task["drop"]),
        run("goal-fulfillment", 1, "complete", "good", answer),
        run("goal-fulfillment", 1, "complete-reworded", "reordered", alt),
        run("goal-fulfillment", 1, "recovered-after-error", "recovered", answer),
        run("goal-fulfillment", 0, "wrong-detail", "good", task["wrong"]),
        run("goal-fulfillment", 0, "drops-requested-part", "looked-up", task["drop"]),
        run("goal-fulfillment", 0, "claims-success-after-error", "failed", answer),
        run("tool-selection-quality", 1, "right-tools", "good", answer),
        run("tool-selection-quality", 1, "right-tools-other-order", "reordered", alt),
        run("tool-selection-quality", 1, "retry-after-error", "recovered", answer),
        run("tool-selection-quality", 0, "plausible-wrong-tool", "wrong-tool", answer),
        run("tool-selection-quality", 0, "missing-call", "missing", answer),
        run("tool-selection-quality", 0, "unneeded-extra-call", "extra", answer),
        run("reasoning-coherence", 1, "sound", "good", answer),
        run("reasoning-coherence", 1, "sound-reworded", "reordered", alt),
        run("reasoning-coherence", 0, "conclusion-does-not-follow", "nonseq", nonseq_answer),
        run("reasoning-coherence", 0, "answer-contradicts-results", "good", task["wrong"]),
        row("agent_runs", task["id"], "plan-quality", 1, "sound-plan", query=task["q"], output=answer, tool_calls=[],
            tools=tools, plan=steps),
        # a sound plan may leave the final report implicit, so a bad plan is not simply the shorter one
        row("agent_runs", task["id"], "plan-quality", 1, "sound-plan-reworded", query=task["q"], output=answer,
            tool_calls=[], tools=tools, plan=para if index % 2 == 0 else para[:3]),
        row("agent_runs", task["id"], "plan-quality", 0, "missing-step", query=task["q"], output=answer,
            tool_calls=[], tools=tools, plan=missing_plan),
        row("agent_runs", task["id"], "plan-quality", 0, "wrong-order", query=task["q"], output=answer,
            tool_calls=[], tools=tools, plan=wrong_order),
        run("plan-adherence", 1, "followed-reworded-steps", "good", answer, plan=para),
        run("plan-adherence", 1, "followed", "good", alt, plan=steps),
        run("plan-adherence", 0, "skipped-step", "missing", answer, plan=para),
        run("plan-adherence", 0, "reordered-steps", "action-first", answer, plan=para),
    ]
    return rows


def argument_rows(group: dict) -> list[dict]:
    """argument-correctness rows: one call each, with the tool's schema (or only its description)."""
    tool = {"name": group["tool"], "description": group["desc"]}
    if group["props"] is not None:
        tool["parameters"] = {"type": "object", "properties": group["props"],
                              "required": [k for k in group["rows"][0][2]]}
    rows = []
    for number, (label, kind, arguments) in enumerate(group["rows"], 1):
        rows.append(row("agent_arguments", group["id"], "argument-correctness", label, kind, number,
                        query=group["q"], output="", tools=[tool],
                        tool_calls=[{"name": group["tool"], "arguments": arguments, "output": "ok"}]))
    return rows


def _rule_calls(calls: list) -> dict:
    """tool_calls (and agent_calls) of a rules run; dict calls carry type and seq (observed order)."""
    if all(isinstance(call, tuple) for call in calls):
        return {"tool_calls": _calls(calls)}
    tool_calls = [{k: v for k, v in call.items() if k != "type"} for call in calls if call["type"] == "tool"]
    agent_calls = [{k: v for k, v in call.items() if k != "type"} for call in calls if call["type"] == "agent"]
    return {"tool_calls": tool_calls, "agent_calls": agent_calls}


def rule_rows(group: dict) -> list[dict]:
    """agent-llm-rubric rows: the group's rules (under ``rules``) with each run."""
    rows = []
    for number, (label, kind, query, calls, answer) in enumerate(group["runs"], 1):
        rows.append(row("agent_rules", group["id"], "agent-llm-rubric", label, kind, number,
                        query=query, output=answer, rules=group["rules"], **_rule_calls(calls)))
    return rows


def build() -> dict[str, list[dict]]:
    """Every labelled agent set: file name → rows."""
    return {"agent_runs.jsonl": [r for i, t in enumerate(TASKS) for r in task_rows(i, t)],
            "agent_arguments.jsonl": [r for g in ARGUMENTS for r in argument_rows(g)],
            "agent_rules.jsonl": [r for g in RULES for r in rule_rows(g)]}


# ---------------------------------------------------------------------------------------------------
# Trivial baselines: what a judge must beat. Each maps a row to a score; "keyword" passes on a fixed
# rule, "overlap" passes when its score reaches a threshold fitted on the tune rows (the best
# balanced accuracy there), then applied to both parts.
# ---------------------------------------------------------------------------------------------------
_STOP = set("a an the and or of to in on at for is are was be it its this that with from as by i you my me your "
            "we our so if not no do does did have has had will would can could should there their they he she".split())
_ERROR = re.compile(r"^\s*(error\b|\[error\]|traceback)", re.IGNORECASE)


def words(text: str) -> set[str]:
    """Lower-case content words (letters/digits, stop words dropped)."""
    return {w for w in re.findall(r"[a-z0-9]+(?:[.,][0-9]+)?", str(text).lower()) if w not in _STOP}


def jaccard(left: set[str], right: set[str]) -> float:
    return len(left & right) / len(left | right) if left | right else 0.0


def _numbers(text: str) -> set[str]:
    return set(re.findall(r"\d+(?:[.,]\d+)*", str(text)))


def keyword_baseline(r: dict) -> bool:
    """A fixed surface rule per metric (see the README for each)."""
    metric, calls, answer = r["metric"], r.get("tool_calls") or [], r.get("output") or ""
    if metric in ("task-completion", "goal-fulfillment", "reasoning-coherence"):
        # no error output, and every number of the successful calls' outputs appears in the answer
        ok = [c for c in calls if not _ERROR.match(str(c["output"]))]
        return len(ok) == len(calls) and all(_numbers(c["output"]) <= _numbers(answer) for c in ok)
    if metric == "tool-selection-quality":
        # every called tool shares a word with the request
        request = words(r["query"])
        return all(words(c["name"].replace("_", " ")) & request for c in calls)
    if metric in ("plan-quality", "plan-adherence"):
        # every available tool the request's words point at is named by some plan step (and, for
        # adherence, was called)
        plan_words = words(" ".join(map(str, r.get("plan") or [])))
        names = {c["name"] for c in calls} if metric == "plan-adherence" else None
        needed = [t["name"] for t in r["tools"] if words(t["name"].replace("_", " ")) - {"get"} & words(r["query"])]
        return all(words(n.replace("_", " ")) & plan_words and (names is None or n in names) for n in needed)
    if metric == "argument-correctness":
        # every argument value appears verbatim (case-insensitive) in the request
        query = r["query"].lower()
        return all(str(v).lower() in query for c in calls for v in _leaves(c["arguments"]))
    if metric == "agent-llm-rubric":
        # the answer repeats none of the rule's content words that the request lacks
        rule = words(" ".join(r["rules"])) - words(r["query"])
        return not (rule & words(answer))
    raise ValueError(metric)


def _leaves(value) -> list:
    if isinstance(value, dict):
        return [leaf for v in value.values() for leaf in _leaves(v)]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _leaves(v)]
    return [value]


def overlap_score(r: dict) -> float:
    """Word overlap between what the metric judges and what it is judged against."""
    metric, answer = r["metric"], r.get("output") or ""
    outputs = " ".join(str(c.get("output", "")) for c in r.get("tool_calls") or [])
    if metric in ("task-completion", "goal-fulfillment", "reasoning-coherence"):
        return jaccard(words(answer), words(r["query"] + " " + outputs))
    if metric == "tool-selection-quality":
        return jaccard(words(" ".join(c["name"].replace("_", " ") for c in r["tool_calls"])), words(r["query"]))
    if metric in ("plan-quality", "plan-adherence"):
        plan = " ".join(map(str, r.get("plan") or []))
        called = " ".join(c["name"].replace("_", " ") for c in r.get("tool_calls") or [])
        return jaccard(words(plan), words(r["query"] + " " + called))
    if metric == "argument-correctness":
        values = " ".join(str(v) for c in r["tool_calls"] for v in _leaves(c["arguments"]))
        return jaccard(words(values), words(r["query"]))
    if metric == "agent-llm-rubric":
        return jaccard(words(answer), words(" ".join(r["rules"]) + " " + r["query"]))
    raise ValueError(metric)


def balanced_accuracy(pairs: list[tuple[int, bool]]) -> float:
    """Mean of the pass rate on label-1 rows and the fail rate on label-0 rows."""
    pos = [p for label, p in pairs if label == 1]
    neg = [p for label, p in pairs if label == 0]
    return (sum(pos) / len(pos) + sum(not p for p in neg) / len(neg)) / 2


def _fit_threshold(scored: list[tuple[int, float]]) -> tuple[float, bool]:
    """The threshold (and direction) with the best balanced accuracy on these rows."""
    best = (-1.0, 0.0, True)
    for t in sorted({s for _, s in scored}):
        for above in (True, False):
            acc = balanced_accuracy([(label, (s >= t) == above) for label, s in scored])
            if acc > best[0]:
                best = (acc, t, above)
    return best[1], best[2]


def baseline_report(rows: list[dict], score: Callable[[dict], float] = overlap_score,
                    keyword: Callable[[dict], bool] = keyword_baseline) -> list[tuple[str, str, float, float]]:
    """[(metric, split, keyword balanced accuracy, overlap balanced accuracy)] with the overlap
    threshold fitted on the metric's tune rows."""
    out = []
    for metric in sorted({r["metric"] for r in rows}):
        mine = [r for r in rows if r["metric"] == metric]
        t, above = _fit_threshold([(r["label"], score(r)) for r in mine if r["split"] == "tune"])
        for split in ("tune", "test"):
            part = [r for r in mine if r["split"] == split]
            out.append((metric, split, balanced_accuracy([(r["label"], keyword(r)) for r in part]),
                        balanced_accuracy([(r["label"], (score(r) >= t) == above) for r in part])))
    return out


def main() -> None:
    for name, rows in build().items():
        write(f"{OUT}/{name}", rows)
        for metric, split, kw, ov in baseline_report(rows):
            print(f"  {metric:24s} {split:4s} keyword {kw:.3f}  word-overlap {ov:.3f}")


if __name__ == "__main__":
    main()
