"""Builds the labelled agent-run sets for the judge-backed agentic metrics (agent_dev.jsonl).

Each of 20 tasks gives one good run and, per metric, one run broken in the way that metric should
catch. Run from this folder: python build_agent_sets.py (the JSONL file is committed).
"""

from build_judge_sets import write
from splits import split_of

# request, tool calls [(name, arguments, output)], good answer, wrong answer (contradicts the tools), plan
TASKS = [
    ("What's the weather in Paris?", [("get_weather", {"city": "Paris"}, "18°C, sunny")],
     "It is 18°C and sunny in Paris.", "It is snowing heavily in Paris.", ["call get_weather for Paris", "answer"]),
    ("What's the weather in Oslo?", [("get_weather", {"city": "Oslo"}, "-3°C, snow")],
     "It is -3°C and snowing in Oslo.", "It is hot and sunny in Oslo.", ["call get_weather for Oslo", "answer"]),
    ("Convert 100 USD to EUR.", [("convert_currency", {"amount": 100, "from": "USD", "to": "EUR"}, "92.10 EUR")],
     "100 USD is 92.10 EUR.", "100 USD is 150 EUR.", ["call convert_currency", "answer"]),
    ("Convert 50 GBP to JPY.", [("convert_currency", {"amount": 50, "from": "GBP", "to": "JPY"}, "9,400 JPY")],
     "50 GBP is about 9,400 JPY.", "50 GBP is 12 JPY.", ["call convert_currency", "answer"]),
    ("What is 17 times 23?", [("calculator", {"expression": "17*23"}, "391")],
     "17 times 23 is 391.", "17 times 23 is 401.", ["call calculator", "answer"]),
    ("What is 1024 divided by 8?", [("calculator", {"expression": "1024/8"}, "128")],
     "1024 divided by 8 is 128.", "1024 divided by 8 is 256.", ["call calculator", "answer"]),
    ("Find flights from Berlin to Rome on May 3.",
     [("search_flights", {"from": "Berlin", "to": "Rome", "date": "2026-05-03"}, "LH 1234 at 09:10, 129 EUR")],
     "There is LH 1234 at 09:10 for 129 EUR.", "There are no flights from Berlin to Rome that day.",
     ["call search_flights", "present the options"]),
    ("Book a table for two at Luigi's at 8pm.",
     [("book_restaurant", {"restaurant": "Luigi's", "people": 2, "time": "20:00"}, "confirmed #A17")],
     "Your table for two at Luigi's at 8pm is confirmed (booking A17).",
     "I could not book Luigi's, it is closed.", ["call book_restaurant", "confirm the booking"]),
    ("Email Sam that the meeting moved to 3pm.",
     [("send_email", {"to": "sam@example.com", "subject": "Meeting moved", "body": "The meeting is now at 3pm."},
       "sent")],
     "I emailed Sam that the meeting is now at 3pm.", "I emailed Sam that the meeting is cancelled.",
     ["write the email", "call send_email", "confirm"]),
    ("What is Apple's stock price?", [("get_stock_price", {"ticker": "AAPL"}, "189.30 USD")],
     "Apple (AAPL) trades at 189.30 USD.", "Apple trades at 12 USD.", ["call get_stock_price for AAPL", "answer"]),
    ("Translate 'good morning' to Spanish.",
     [("translate", {"text": "good morning", "target": "es"}, "buenos días")],
     "'Good morning' in Spanish is 'buenos días'.", "'Good morning' in Spanish is 'bonjour'.",
     ["call translate", "answer"]),
    ("How many kilometres is 26 miles?", [("convert_units", {"value": 26, "from": "mi", "to": "km"}, "41.84 km")],
     "26 miles is 41.84 km.", "26 miles is 10 km.", ["call convert_units", "answer"]),
    ("What time is it in Tokyo?", [("get_time", {"timezone": "Asia/Tokyo"}, "21:15")],
     "It is 21:15 in Tokyo.", "It is 04:00 in Tokyo.", ["call get_time for Tokyo", "answer"]),
    ("Is the Louvre open on Tuesday?", [("get_opening_hours", {"place": "Louvre", "day": "Tuesday"}, "closed")],
     "No, the Louvre is closed on Tuesdays.", "Yes, the Louvre is open all day on Tuesday.",
     ["call get_opening_hours", "answer"]),
    ("What's the population of Canada?", [("search_facts", {"query": "population of Canada"}, "about 40 million")],
     "Canada has about 40 million people.", "Canada has about 400 million people.",
     ["call search_facts", "answer"]),
    ("Set a reminder to call mom at 6pm.",
     [("create_reminder", {"text": "call mom", "time": "18:00"}, "created")],
     "I set a reminder to call your mom at 6pm.", "I set a reminder to call your dentist at 9am.",
     ["call create_reminder", "confirm"]),
    ("Check the status of order 5521.", [("get_order_status", {"order_id": "5521"}, "shipped, arrives Friday")],
     "Order 5521 has shipped and arrives on Friday.", "Order 5521 was cancelled.",
     ["call get_order_status", "answer"]),
    ("What's the weather in Cairo tomorrow?",
     [("get_forecast", {"city": "Cairo", "day": "tomorrow"}, "35°C, clear")],
     "Tomorrow in Cairo: 35°C and clear.", "Tomorrow Cairo will be cold and rainy.",
     ["call get_forecast for Cairo", "answer"]),
    ("How far is Madrid from Lisbon by road?",
     [("get_distance", {"from": "Madrid", "to": "Lisbon"}, "625 km")],
     "Madrid to Lisbon is about 625 km by road.", "Madrid to Lisbon is about 60 km by road.",
     ["call get_distance", "answer"]),
    ("Cancel my 10am dentist appointment.",
     [("cancel_appointment", {"time": "10:00", "type": "dentist"}, "cancelled")],
     "Your 10am dentist appointment is cancelled.", "Your 10am dentist appointment is confirmed.",
     ["call cancel_appointment", "confirm"]),
]
UNRELATED = ("send_email", {"to": "someone@example.com", "subject": "hi", "body": "hi"}, "sent")


def run(request, calls, answer, plan):
    return {"query": request, "plan": plan,
            "tool_calls": [{"name": n, "arguments": a, "output": o} for n, a, o in calls], "output": answer}


def _perturb(value):
    """A plausible but wrong argument value."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value * 7 + 3
    swaps = {"Paris": "Lima", "Oslo": "Perth", "USD": "CHF", "EUR": "INR", "GBP": "MXN", "JPY": "SEK", "17*23": "17+23",
             "1024/8": "1024*8", "Berlin": "Boston", "Rome": "Riga", "AAPL": "TSLA", "es": "de", "mi": "ft",
             "Asia/Tokyo": "America/Lima", "Louvre": "Prado", "Tuesday": "Sunday", "Cairo": "Quito", "Madrid": "Milan",
             "Lisbon": "Leeds", "5521": "9999", "10:00": "16:00", "dentist": "barber", "20:00": "11:00",
             "18:00": "03:00", "call mom": "buy milk", "2026-05-03": "2026-12-24", "Luigi's": "Burger Barn",
             "sam@example.com": "alex@example.com", "population of Canada": "height of Everest"}
    return swaps.get(value, f"{value} (wrong)") if isinstance(value, str) else value


def main() -> None:
    rows = []
    for request, calls, good, wrong, plan in TASKS:
        base = run(request, calls, good, plan)
        for metric in ("task-completion", "goal-fulfillment", "tool-selection-quality", "plan-quality",
                       "reasoning-coherence"):
            rows.append({"metric": metric, **base, "label": 1})
        rows.append({"metric": "task-completion", **run(request, [], "I'll look into that for you.", plan),
                     "label": 0})
        rows.append({"metric": "goal-fulfillment", **run(request, calls, wrong, plan), "label": 0})
        off_tools = [UNRELATED if calls[0][0] != "send_email" else ("get_weather", {"city": "Paris"}, "18°C")]
        rows.append({"metric": "tool-selection-quality", **run(request, off_tools, good, plan), "label": 0})
        rows.append({"metric": "plan-quality", **run(request, calls, good, ["book a hotel", "order a pizza"]),
                     "label": 0})
        rows.append({"metric": "reasoning-coherence", **run(request, calls, wrong, plan), "label": 0})
    rule = "The final answer must agree with what the tools returned."
    for request, calls, good, wrong, plan in TASKS:
        bad_calls = [(name, {k: _perturb(v) for k, v in args.items()}, out) for name, args, out in calls]
        rows.append({"metric": "argument-correctness", **run(request, calls, good, plan), "label": 1})
        rows.append({"metric": "argument-correctness", **run(request, bad_calls, good, plan), "label": 0})
        rows.append({"metric": "agent-llm-rubric", "value": [rule], **run(request, calls, good, plan), "label": 1})
        rows.append({"metric": "agent-llm-rubric", "value": [rule], **run(request, calls, wrong, plan), "label": 0})
        told = [plan[0], "Tell the user the result in the final answer."]
        rows.append({"metric": "plan-adherence", **run(request, calls, good, told), "label": 1})
        rows.append({"metric": "plan-adherence", **run(request, calls, "", told), "label": 0})
    # the group is the task (its request): all of a task's good and broken runs share one split
    for r in rows:
        r.update(group=r["query"], split=split_of("agent_dev", r["query"]))
    write("agent_dev.jsonl", rows)


if __name__ == "__main__":
    main()
