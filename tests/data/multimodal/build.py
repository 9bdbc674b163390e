"""Build the labelled sets of tests/data/multimodal/ (label 1 = pass, 0 = fail; both classes in each split).

- grounding.jsonl (cross_modal_grounding): a sign drawn from ``sign`` (text, background, ink) and an
  ``output`` about it; label 1 when the output's checkable claims are true.
- captions.jsonl (image_caption_accuracy): an ``output`` caption against an ``expected`` one; label 1
  when they describe the same scene.
- coherence.jsonl (multimodal_coherence), helpfulness.jsonl (image-helpfulness), relevancy.jsonl
  (multimodal-contextual-relevancy), recall.jsonl (multimodal-contextual-recall): built from 22
  drawn scenes (bar and line charts, receipts, timetables, app screenshots, slides, signs, price
  tables) in 11 pairs of neighbouring topics (sales 2024 / sales 2023, a café / a bakery receipt…),
  plus 2 pictures without text. A scene is a JSON ``spec`` that ``draw(spec)`` turns into the same PNG
  bytes every time, so no image is stored: the bench and the tests draw them.

Every row has ``id``, ``metric``, ``kind`` (the sort of case), ``group`` (the scene pair its variants
share) and ``split``: the pairs alternate tune / test by their index — fixed here, before any metric
was run, so paired rows never straddle the split. Tuning may read only ``tune`` rows.

Run: python tests/data/multimodal/build.py [--png DIR]   (--png also writes every scene as a PNG)
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SIGNS = [("OPEN 24 HOURS", "white"), ("NO PARKING", "yellow"), ("EXIT", "green"), ("STOP", "red"),
         ("SALE 50% OFF", "white"), ("WELCOME", "blue"), ("PUSH", "white"), ("PRIVATE", "orange"),
         ("CAFE", "white"), ("PHARMACY", "green"), ("LIBRARY", "white"), ("DANGER", "yellow"),
         ("TICKETS", "white"), ("PLATFORM 3", "blue"), ("CLOSED", "red"), ("BAKERY", "white"),
         ("TAXI", "yellow"), ("HOTEL", "blue"), ("GATE B12", "white"), ("WIFI FREE", "white")]
WRONG_TEXT = ["CLOSED", "PARKING OK", "ENTRANCE", "GO", "FULL PRICE", "GOODBYE", "PULL", "PUBLIC", "BAR",
              "HOSPITAL", "MUSEUM", "SAFE", "REFUNDS", "PLATFORM 9", "OPEN", "BUTCHER", "BUS", "MOTEL",
              "GATE A1", "NO WIFI"]
OTHER_COLOUR = {"white": "black", "yellow": "purple", "green": "red", "red": "blue", "blue": "orange",
                "orange": "green"}
CAPTIONS = [
    ("A red double-decker bus on a city street.", "A red bus with two decks drives through town.",
     "Two cats asleep on a sofa."),
    ("A dog catching a frisbee in a park.", "A dog leaps to catch a flying disc on the grass.",
     "A bowl of soup on a wooden table."),
    ("A bowl of fresh fruit on a kitchen table.", "Fresh fruit in a bowl on the kitchen table.",
     "A skier going down a snowy slope."),
    ("A man riding a bicycle along the beach.", "A cyclist rides his bike by the sea shore.",
     "A plate of spaghetti with tomato sauce."),
    ("Children playing football on a field.", "Kids kick a soccer ball around a grass pitch.",
     "An old clock tower at night."),
    ("A cup of coffee next to a laptop.", "A laptop on a desk beside a mug of coffee.",
     "A herd of elephants crossing a river."),
    ("A snowy mountain under a clear blue sky.", "Snow-covered peaks beneath a cloudless sky.",
     "A woman reading in a library."),
    ("A cat sleeping on a windowsill.", "A cat naps in the sun on a window ledge.",
     "A busy airport terminal."),
    ("A sailboat on a calm lake at sunset.", "A sailing boat on still water as the sun goes down.",
     "A pizza with pepperoni slices."),
    ("A chef chopping vegetables in a kitchen.", "A cook slices vegetables on a kitchen counter.",
     "A train arriving at a station."),
    ("Two horses grazing in a green field.", "A pair of horses eat grass in a meadow.",
     "A laptop showing a spreadsheet."),
    ("A lighthouse on a rocky coast.", "A lighthouse stands on rocks by the ocean.",
     "A birthday cake with candles."),
    ("A crowded market with fruit stalls.", "Shoppers walk between stands of fruit at a market.",
     "A single tree in a desert."),
    ("A toddler eating an ice cream cone.", "A small child licks an ice cream.",
     "Cars stuck in a traffic jam on a highway."),
    ("A bridge over a river in a city.", "A city bridge spans a wide river.",
     "A close-up of a bee on a flower."),
    ("A pile of books on a desk.", "Books stacked on a desk.",
     "A surfer riding a large wave."),
    ("A plane taking off from a runway.", "An airplane lifts off the runway.",
     "A basket of kittens."),
    ("A red apple on a white plate.", "A single red apple sits on a white plate.",
     "A crowd at a rock concert."),
    ("A person jogging in the rain.", "Someone runs through the rain.",
     "A bowl of rice with chopsticks."),
    ("A family having a picnic in a park.", "A family eats lunch on a blanket in the park.",
     "A tractor ploughing a field."),
]

# -- the scenes: 11 pairs of neighbouring topics ------------------------------------------------------
# Each scene: spec (what draw() draws), what (how a description names it), question (one the scene
# answers), facts (three sentences the image supports), wrong (the same sentences with a wrong figure
# or item: near misses). Both scenes of a pair share a group.

PAIRS: list[tuple[dict[str, Any], dict[str, Any]]] = [
    ({"name": "sales-2024",
      "spec": {"type": "bar", "title": "Monthly sales 2024 (units)", "labels": ["Jan", "Feb", "Mar", "Apr"],
               "values": [120, 90, 150, 60], "colour": "blue"},
      "what": "bar chart", "question": "Which month had the most sales in 2024?",
      "facts": ["March had the most sales in 2024, with 150 units.", "April was the weakest month at 60 units.",
                "January sold 120 units."],
      "wrong": ["February had the most sales in 2024, with 150 units.", "April was the weakest month at 90 units.",
                "January sold 210 units."]},
     {"name": "sales-2023",
      "spec": {"type": "bar", "title": "Monthly sales 2023 (units)", "labels": ["Jan", "Feb", "Mar", "Apr"],
               "values": [80, 110, 95, 130], "colour": "green"},
      "what": "bar chart", "question": "How many units were sold in April 2023?",
      "facts": ["130 units were sold in April 2023.", "February 2023 sold 110 units.",
                "January 2023 was the weakest month with 80 units."],
      "wrong": ["150 units were sold in April 2023.", "February 2023 sold 95 units.",
                "March 2023 was the weakest month with 80 units."]}),
    ({"name": "web-visitors",
      "spec": {"type": "line", "title": "Website visitors per week", "labels": ["W1", "W2", "W3", "W4"],
               "values": [1200, 1450, 1380, 1900], "colour": "red"},
      "what": "line chart", "question": "How many people visited the website in week 4?",
      "facts": ["The website had 1900 visitors in week 4.", "Visitors dipped slightly in week 3 to 1380.",
                "Week 1 had 1200 visitors."],
      "wrong": ["The website had 1450 visitors in week 4.", "Visitors dipped slightly in week 2 to 1380.",
                "Week 1 had 2100 visitors."]},
     {"name": "app-downloads",
      "spec": {"type": "line", "title": "App downloads per week", "labels": ["W1", "W2", "W3", "W4"],
               "values": [300, 520, 610, 480], "colour": "purple"},
      "what": "line chart", "question": "In which week did app downloads peak?",
      "facts": ["App downloads peaked in week 3 at 610.", "Downloads fell to 480 in week 4.",
                "Week 1 had 300 downloads."],
      "wrong": ["App downloads peaked in week 4 at 610.", "Downloads fell to 380 in week 4.",
                "Week 1 had 520 downloads."]}),
    ({"name": "cafe-receipt",
      "spec": {"type": "receipt", "shop": "GREEN LEAF CAFE", "date": "12/03/2024",
               "items": [["Latte", "3.80"], ["Croissant", "2.50"], ["Orange juice", "4.20"]], "total": "10.50"},
      "what": "receipt", "question": "How much did the croissant cost at Green Leaf Cafe?",
      "facts": ["The croissant cost 2.50.", "The total at Green Leaf Cafe was 10.50.",
                "The receipt is dated 12/03/2024."],
      "wrong": ["The croissant cost 3.80.", "The total at Green Leaf Cafe was 12.50.",
                "The receipt is dated 21/03/2024."]},
     {"name": "bakery-receipt",
      "spec": {"type": "receipt", "shop": "CORNER BAKERY", "date": "14/03/2024",
               "items": [["Sourdough", "5.40"], ["Bagel", "1.90"], ["Muffin", "2.75"]], "total": "10.05"},
      "what": "receipt", "question": "What was the total on the Corner Bakery receipt?",
      "facts": ["The Corner Bakery total was 10.05.", "The sourdough loaf cost 5.40.", "A bagel cost 1.90."],
      "wrong": ["The Corner Bakery total was 10.50.", "The sourdough loaf cost 4.50.", "A bagel cost 2.75."]}),
    ({"name": "train-times",
      "spec": {"type": "table", "title": "Trains from Platform 2", "header": ["Destination", "Departs"],
               "rows": [["Leeds", "08:15"], ["York", "08:42"], ["Hull", "09:10"]]},
      "what": "timetable", "question": "When does the train to York leave platform 2?",
      "facts": ["The train to York departs at 08:42.", "The Leeds train leaves at 08:15.",
                "The last listed train goes to Hull at 09:10."],
      "wrong": ["The train to York departs at 08:15.", "The Leeds train leaves at 08:24.",
                "The last listed train goes to Hull at 09:40."]},
     {"name": "bus-times",
      "spec": {"type": "table", "title": "Buses from Stop B", "header": ["Route", "Departs"],
               "rows": [["Airport", "08:05"], ["Centre", "08:30"], ["Harbour", "09:00"]]},
      "what": "timetable", "question": "What time is the airport bus from stop B?",
      "facts": ["The airport bus leaves stop B at 08:05.", "A bus to the centre departs at 08:30.",
                "The harbour bus leaves at 09:00."],
      "wrong": ["The airport bus leaves stop B at 08:30.", "A bus to the centre departs at 08:05.",
                "The harbour bus leaves at 09:30."]}),
    ({"name": "wifi-settings",
      "spec": {"type": "screen", "app": "Settings > Wi-Fi", "bar": "blue",
               "lines": ["Wi-Fi: On", "Network: HomeNet-5G", "Signal: Strong"], "button": "Forget network"},
      "what": "screenshot", "question": "Which Wi-Fi network is the phone connected to?",
      "facts": ["The phone is connected to the HomeNet-5G network.", "Wi-Fi is switched on.",
                "The signal is strong."],
      "wrong": ["The phone is connected to the HomeNet-2G network.", "Wi-Fi is switched off.",
                "The signal is weak."]},
     {"name": "bluetooth-settings",
      "spec": {"type": "screen", "app": "Settings > Bluetooth", "bar": "navy",
               "lines": ["Bluetooth: Off", "Paired: Car Audio", "Visible: No"], "button": "Pair new device"},
      "what": "screenshot", "question": "Is Bluetooth turned on?",
      "facts": ["Bluetooth is turned off.", "Car Audio is a paired device.", "The phone is not visible to others."],
      "wrong": ["Bluetooth is turned on.", "Home Speaker is a paired device.", "The phone is visible to others."]}),
    ({"name": "q3-results",
      "spec": {"type": "slide", "title": "Q3 2024 results",
               "bullets": ["Revenue up 12% to $4.2M", "Operating costs down 3%", "New customers: 1,850"]},
      "what": "slide", "question": "How much did revenue grow in Q3 2024?",
      "facts": ["Revenue grew 12% in Q3 2024, to $4.2M.", "Operating costs fell by 3%.",
                "The company gained 1,850 new customers."],
      "wrong": ["Revenue grew 21% in Q3 2024, to $4.2M.", "Operating costs rose by 3%.",
                "The company gained 1,580 new customers."]},
     {"name": "q3-hiring",
      "spec": {"type": "slide", "title": "Q3 2024 hiring plan",
               "bullets": ["Hire 6 engineers", "Open Berlin office", "Budget: $900K"]},
      "what": "slide", "question": "How many engineers does the Q3 hiring plan include?",
      "facts": ["The Q3 plan is to hire 6 engineers.", "A Berlin office will open.", "The hiring budget is $900K."],
      "wrong": ["The Q3 plan is to hire 9 engineers.", "A Munich office will open.", "The hiring budget is $600K."]}),
    ({"name": "opening-hours",
      "spec": {"type": "sign", "background": "white", "ink": "black",
               "lines": ["OPENING HOURS", "Mon-Fri 9am-6pm", "Sat 10am-4pm", "Sun CLOSED"]},
      "what": "sign", "question": "Is the shop open on Sunday?",
      "facts": ["The shop is closed on Sunday.", "On weekdays it opens from 9am to 6pm.",
                "On Saturday it is open 10am to 4pm."],
      "wrong": ["The shop is open on Sunday from 10am.", "On weekdays it opens from 8am to 6pm.",
                "On Saturday it is open 10am to 6pm."]},
     {"name": "delivery-hours",
      "spec": {"type": "sign", "background": "yellow", "ink": "black",
               "lines": ["DELIVERIES", "Mon-Fri 7am-9am only", "Use rear entrance"]},
      "what": "sign", "question": "When can deliveries be made?",
      "facts": ["Deliveries are accepted Monday to Friday from 7am to 9am.", "Drivers must use the rear entrance.",
                "There are no weekend deliveries."],
      "wrong": ["Deliveries are accepted Monday to Friday from 7am to 11am.", "Drivers must use the front entrance.",
                "Deliveries are also taken on Saturday."]}),
    ({"name": "lisbon-rain",
      "spec": {"type": "bar", "title": "Average rainfall in Lisbon (mm)", "labels": ["Oct", "Nov", "Dec", "Jan"],
               "values": [95, 120, 130, 100], "colour": "teal"},
      "what": "bar chart", "question": "Which month is wettest in Lisbon?",
      "facts": ["December is the wettest month in Lisbon, with 130 mm of rain.", "November gets 120 mm.",
                "October is the driest of the four months at 95 mm."],
      "wrong": ["November is the wettest month in Lisbon, with 130 mm of rain.", "November gets 100 mm.",
                "January is the driest of the four months at 95 mm."]},
     {"name": "lisbon-temperature",
      "spec": {"type": "bar", "title": "Average temperature in Lisbon (C)", "labels": ["Oct", "Nov", "Dec", "Jan"],
               "values": [22, 17, 14, 13], "colour": "orange"},
      "what": "bar chart", "question": "How warm is Lisbon in October?",
      "facts": ["October in Lisbon averages 22 C.", "December averages 14 C.", "January is the coldest at 13 C."],
      "wrong": ["October in Lisbon averages 27 C.", "December averages 17 C.", "December is the coldest at 13 C."]}),
    ({"name": "payment-failed",
      "spec": {"type": "screen", "app": "Checkout", "bar": "red",
               "lines": ["Payment failed", "Card declined: insufficient funds", "Error code E-402"],
               "button": "Try another card"},
      "what": "screenshot", "question": "Why did my payment fail?",
      "facts": ["The card was declined for insufficient funds.", "The error code is E-402.",
                "The app offers to try another card."],
      "wrong": ["The card was declined because it has expired.", "The error code is E-420.",
                "The app offers to retry the same card."]},
     {"name": "order-confirmed",
      "spec": {"type": "screen", "app": "Checkout", "bar": "green",
               "lines": ["Order confirmed", "Order #58213", "Arrives Thu 14 Nov"], "button": "Track order"},
      "what": "screenshot", "question": "When will my order arrive?",
      "facts": ["The order arrives on Thursday 14 November.", "The order number is 58213.",
                "The order has been confirmed."],
      "wrong": ["The order arrives on Tuesday 12 November.", "The order number is 58231.",
                "The order is still awaiting payment."]}),
    ({"name": "plans",
      "spec": {"type": "table", "title": "Plan comparison", "header": ["Plan", "Price", "Storage"],
               "rows": [["Basic", "$9/mo", "10 GB"], ["Pro", "$19/mo", "100 GB"], ["Team", "$49/mo", "1 TB"]]},
      "what": "price table", "question": "How much storage does the Pro plan include?",
      "facts": ["The Pro plan includes 100 GB of storage.", "Pro costs $19 a month.",
                "The Team plan has 1 TB for $49 a month."],
      "wrong": ["The Pro plan includes 10 GB of storage.", "Pro costs $29 a month.",
                "The Team plan has 2 TB for $49 a month."]},
     {"name": "add-ons",
      "spec": {"type": "table", "title": "Storage add-ons", "header": ["Extra", "Price"],
               "rows": [["+50 GB", "$3/mo"], ["+200 GB", "$8/mo"], ["+1 TB", "$20/mo"]]},
      "what": "price table", "question": "How much does an extra 200 GB of storage cost?",
      "facts": ["An extra 200 GB costs $8 a month.", "50 GB more costs $3 a month.", "An extra 1 TB is $20 a month."],
      "wrong": ["An extra 200 GB costs $3 a month.", "50 GB more costs $8 a month.", "An extra 1 TB is $30 a month."]}),
    ({"name": "fire-safety",
      "spec": {"type": "slide", "title": "Fire safety",
               "bullets": ["Leave by the nearest exit", "Do not use the lifts", "Meet at car park C"]},
      "what": "slide", "question": "Where do we meet after a fire alarm?",
      "facts": ["After a fire alarm everyone meets at car park C.", "You must not use the lifts.",
                "Leave by the nearest exit."],
      "wrong": ["After a fire alarm everyone meets at car park B.", "You should take the lifts.",
                "Leave by the main entrance only."]},
     {"name": "first-aid",
      "spec": {"type": "slide", "title": "First aid",
               "bullets": ["Call 112", "Check breathing", "First aider: room 204"]},
      "what": "slide", "question": "Where can I find the first aider?",
      "facts": ["The first aider is in room 204.", "In an emergency call 112.", "Check the person's breathing."],
      "wrong": ["The first aider is in room 240.", "In an emergency call 999.", "Check the person's pulse first."]}),
]

# Pictures without text: what the offline pipeline cannot read (not measured without a vision model).
NO_TEXT = [
    {"name": "sunset", "spec": {"type": "picture", "scene": "sunset"}, "what": "picture",
     "question": "What does a sunset over the sea look like?",
     "facts": ["An orange sun sets over a blue sea.", "The sky is orange.", "The sea is calm."],
     "wrong": ["A white moon rises over a green field.", "The sky is black.", "It is snowing."]},
    {"name": "meadow", "spec": {"type": "picture", "scene": "meadow"}, "what": "picture",
     "question": "What does the meadow behind the office look like?",
     "facts": ["A green meadow under a blue sky.", "A single tree stands in the middle.", "The sun is out."],
     "wrong": ["A grey car park under a dark sky.", "There are no trees.", "It is night."]},
]

COLOURS = {"white": (255, 255, 255), "yellow": (255, 230, 0), "green": (0, 160, 0), "red": (220, 20, 20),
           "blue": (20, 40, 220), "orange": (255, 140, 0), "teal": (0, 128, 128), "purple": (128, 0, 128),
           "navy": (0, 0, 128), "black": (0, 0, 0), "gray": (128, 128, 128)}


# -- drawing ------------------------------------------------------------------------------------------

def _font(size: int):
    from PIL import ImageFont

    return ImageFont.load_default(size=size)


def _chart(draw, spec: dict[str, Any], width: int, height: int) -> None:
    draw.text((30, 14), spec["title"], fill="black", font=_font(26))
    top, bottom, left = 80, height - 50, 60
    values, labels = spec["values"], spec["labels"]
    peak = max(values)
    step = (width - left - 30) // len(values)
    draw.line((left - 10, bottom, width - 20, bottom), fill="black", width=2)
    points = []
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        x = left + i * step + step // 2
        y = bottom - round((bottom - top) * value / peak)
        if spec["type"] == "bar":
            draw.rectangle((x - step // 3, y, x + step // 3, bottom), fill=COLOURS[spec["colour"]])
        points.append((x, y))
        draw.text((x - 22, y - 30), str(value), fill="black", font=_font(20))
        draw.text((x - 18, bottom + 10), label, fill="black", font=_font(20))
    if spec["type"] == "line":
        draw.line(points, fill=COLOURS[spec["colour"]], width=4)
        for x, y in points:
            draw.ellipse((x - 6, y - 6, x + 6, y + 6), fill=COLOURS[spec["colour"]])


def draw(spec: dict[str, Any]) -> bytes:
    """The PNG of a scene spec (deterministic: same spec, same bytes with the same Pillow)."""
    from PIL import Image, ImageDraw

    kind = spec["type"]
    if kind in ("bar", "line"):
        image = Image.new("RGB", (560, 360), "white")
        _chart(ImageDraw.Draw(image), spec, 560, 360)
    elif kind == "receipt":
        lines = len(spec["items"])
        image = Image.new("RGB", (360, 200 + 34 * lines), (250, 248, 240))
        d = ImageDraw.Draw(image)
        d.text((30, 20), spec["shop"], fill="black", font=_font(28))
        d.text((30, 60), spec["date"], fill="black", font=_font(20))
        for i, (item, price) in enumerate(spec["items"]):
            d.text((30, 100 + 34 * i), item, fill="black", font=_font(22))
            d.text((260, 100 + 34 * i), price, fill="black", font=_font(22))
        y = 110 + 34 * lines
        d.line((30, y, 330, y), fill="black", width=2)
        d.text((30, y + 14), "TOTAL", fill="black", font=_font(24))
        d.text((250, y + 14), spec["total"], fill="black", font=_font(24))
    elif kind == "table":
        columns = len(spec["header"])
        width, height = 160 * columns + 60, 120 + 44 * len(spec["rows"])
        image = Image.new("RGB", (width, height), "white")
        d = ImageDraw.Draw(image)
        d.text((30, 14), spec["title"], fill="black", font=_font(26))
        d.rectangle((30, 60, width - 30, 100), fill=(220, 220, 220))
        for r, row in enumerate([spec["header"], *spec["rows"]]):
            for c, cell in enumerate(row):
                d.text((40 + 160 * c, 68 + 44 * r), cell, fill="black", font=_font(22))
            d.line((30, 100 + 44 * r, width - 30, 100 + 44 * r), fill="gray", width=1)
    elif kind == "screen":
        image = Image.new("RGB", (400, 420), (245, 245, 245))
        d = ImageDraw.Draw(image)
        d.rectangle((0, 0, 400, 64), fill=COLOURS[spec["bar"]])
        d.text((20, 18), spec["app"], fill="white", font=_font(26))
        for i, line in enumerate(spec["lines"]):
            d.text((24, 100 + 52 * i), line, fill="black", font=_font(22))
        d.rounded_rectangle((40, 330, 360, 390), radius=12, fill=(30, 120, 250))
        d.text((70, 346), spec["button"], fill="white", font=_font(24))
    elif kind == "slide":
        image = Image.new("RGB", (640, 360), (255, 255, 255))
        d = ImageDraw.Draw(image)
        d.rectangle((0, 0, 640, 80), fill=(20, 40, 120))
        d.text((30, 20), spec["title"], fill="white", font=_font(34))
        for i, bullet in enumerate(spec["bullets"]):
            d.ellipse((36, 130 + 64 * i, 48, 142 + 64 * i), fill="black")
            d.text((64, 120 + 64 * i), bullet, fill="black", font=_font(26))
    elif kind == "sign":
        image = Image.new("RGB", (480, 70 + 56 * len(spec["lines"])), COLOURS[spec["background"]])
        d = ImageDraw.Draw(image)
        for i, line in enumerate(spec["lines"]):
            d.text((30, 30 + 56 * i), line, fill=spec["ink"], font=_font(40 if i == 0 else 32))
    elif kind == "picture":
        image = Image.new("RGB", (480, 320), (90, 160, 230))
        d = ImageDraw.Draw(image)
        if spec["scene"] == "sunset":
            d.rectangle((0, 0, 480, 200), fill=(255, 150, 40))
            d.ellipse((190, 130, 290, 230), fill=(255, 90, 0))
            d.rectangle((0, 200, 480, 320), fill=(20, 40, 160))
        else:
            d.rectangle((0, 200, 480, 320), fill=(40, 170, 40))
            d.rectangle((230, 120, 250, 210), fill=(110, 70, 30))
            d.ellipse((190, 60, 290, 150), fill=(20, 110, 20))
            d.ellipse((380, 30, 440, 90), fill=(255, 230, 0))
    else:
        raise ValueError(f"unknown scene type {kind!r}")
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=False)
    return buffer.getvalue()


def spec_id(spec: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]


# -- rows ---------------------------------------------------------------------------------------------

def _intro(scene: dict[str, Any], quoted: bool) -> str:
    spec = scene["spec"]
    title = spec.get("title") or spec.get("shop") or spec.get("app") or (spec.get("lines") or [""])[0]
    return f'A {scene["what"]} titled "{title}".' if quoted else f"A {scene['what']} about {title.lower()}."


def _row(metric: str, name: str, kind: str, group: int, label: int, **fields: Any) -> dict[str, Any]:
    return {"id": f"{metric}-{name}-{'pass' if label else 'fail'}-{kind}", "metric": metric, "kind": kind,
            "group": f"pair-{group}",
            "split": "tune" if group % 2 == 0 else "test", "label": label, **fields}


def scene_rows() -> dict[str, list[dict[str, Any]]]:
    coherence, helpfulness, relevancy, recall = [], [], [], []
    pairs = [*PAIRS, (NO_TEXT[0], NO_TEXT[1])]
    for g, pair in enumerate(pairs):
        for side, scene in enumerate(pair):
            other = pair[1 - side]
            far = PAIRS[(g + 3) % len(PAIRS)][side]  # a scene with text from an unrelated pair
            i = 2 * g + side
            name, spec, facts, wrong = scene["name"], scene["spec"], scene["facts"], scene["wrong"]
            no_text = spec["type"] == "picture"
            # multimodal_coherence: does the description fit the image?
            quoted = i % 3 != 2  # a third of the faithful descriptions quote nothing (as many replies do)
            good_kind = "no_text" if no_text else ("faithful_quoted" if quoted else "faithful_unquoted")
            coherence.append(_row("multimodal_coherence", name, good_kind, g, 1, image=spec,
                                  output=" ".join([_intro(scene, quoted), *facts[:2]])))
            if no_text or i % 2 == 0:
                coherence.append(_row("multimodal_coherence", name, "no_text" if no_text else "wrong_figures", g, 0,
                                      image=spec, output=" ".join([_intro(scene, True), *wrong[:2]])))
            else:
                coherence.append(_row("multimodal_coherence", name, "other_image", g, 0, image=spec,
                                      output=" ".join([_intro(other, True), *other["facts"][:2]])))
            # image-helpfulness: the reply answers the question; does its image help?
            helpfulness.append(_row("image-helpfulness", name, "no_text" if no_text else "matching_image", g, 1,
                                    query=scene["question"], output=facts[0], image=spec))
            bad = other if i % 2 == 0 or no_text else far
            helpfulness.append(_row("image-helpfulness", name, "no_text" if no_text else
                                    ("neighbour_topic" if i % 2 == 0 else "unrelated"), g, 0,
                                    query=scene["question"], output=facts[0], image=bad["spec"]))
            # multimodal-contextual-relevancy: is the retrieved context (images, text) relevant?
            relevancy.append(_row("multimodal-contextual-relevancy", name,
                                  "no_text" if no_text else "relevant_image", g, 1,
                                  query=scene["question"], output=facts[0], context=[{"image": spec}]))
            if no_text:
                context, kind = [{"image": other["spec"]}], "no_text"
            elif i % 3 == 0:
                context, kind = [{"image": other["spec"]}], "neighbour_image"
            elif i % 3 == 1:
                context, kind = [{"image": far["spec"]}], "unrelated_image"
            else:
                context, kind = [{"image": other["spec"]}, " ".join(far["facts"])], "neighbour_image+text"
            relevancy.append(_row("multimodal-contextual-relevancy", name, kind, g, 0,
                                  query=scene["question"], output=facts[0], context=context))
            # multimodal-contextual-recall: does the context support the expected answer?
            if no_text:
                recall.append(_row("multimodal-contextual-recall", name, "no_text", g, 1, query=scene["question"],
                                   expected=" ".join(facts[:2]), context=[{"image": spec}]))
                recall.append(_row("multimodal-contextual-recall", name, "no_text", g, 0, query=scene["question"],
                                   expected=" ".join(wrong[:2]), context=[{"image": spec}]))
                continue
            if i % 2 == 0:
                recall.append(_row("multimodal-contextual-recall", name, "all_supported", g, 1,
                                   query=scene["question"], expected=" ".join(facts[:2]), context=[{"image": spec}]))
            else:
                recall.append(_row("multimodal-contextual-recall", name, "two_of_three", g, 1,
                                   query=scene["question"], expected=" ".join([facts[0], wrong[1], facts[2]]),
                                   context=[{"image": spec}]))
            if i % 4 == 0:
                expected, context, kind = " ".join(wrong[:2]), [{"image": spec}], "wrong_figures"
            elif i % 4 == 1:
                expected, context, kind = " ".join([facts[0], wrong[1], wrong[2]]), [{"image": spec}], "one_of_three"
            elif i % 4 == 2:
                expected, context, kind = " ".join(facts[:2]), [{"image": other["spec"]}], "neighbour_image"
            else:
                expected, context, kind = (" ".join(facts[:2]), [{"image": other["spec"]}, " ".join(far["facts"])],
                                           "neighbour_image+text")
            recall.append(_row("multimodal-contextual-recall", name, kind, g, 0, query=scene["question"],
                               expected=expected, context=context))
    return {"coherence.jsonl": coherence, "helpfulness.jsonl": helpfulness, "relevancy.jsonl": relevancy,
            "recall.jsonl": recall}


def all_specs() -> list[dict[str, Any]]:
    return [scene["spec"] for pair in PAIRS for scene in pair] + [scene["spec"] for scene in NO_TEXT]


def main() -> None:
    rows = []
    for i, ((text, background), wrong) in enumerate(zip(SIGNS, WRONG_TEXT, strict=True)):
        sign = {"text": text, "background": background, "ink": "black" if background != "blue" else "white"}
        common = {"metric": "cross_modal_grounding", "group": f"sign-{i}", "split": "tune" if i % 2 == 0 else "test"}
        rows.append({"id": f"grounding-{i}-true", **common, "kind": "true_claims", "sign": sign,
                     "output": f'The sign reads "{text}" on a {background} background.', "label": 1})
        rows.append({"id": f"grounding-{i}-text", **common, "kind": "wrong_text", "sign": sign,
                     "output": f'The sign reads "{wrong}".', "label": 0})
        rows.append({"id": f"grounding-{i}-colour", **common, "kind": "wrong_colour", "sign": sign,
                     "output": f"A {OTHER_COLOUR[background]} sign.", "label": 0})
    (HERE / "grounding.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    captions = []
    for i, (expected, same, other) in enumerate(CAPTIONS):
        common = {"metric": "image_caption_accuracy", "group": f"caption-{i}",
                  "split": "tune" if i % 2 == 0 else "test", "expected": expected}
        captions.append({"id": f"caption-{i}-same", **common, "kind": "same_scene", "output": same, "label": 1})
        captions.append({"id": f"caption-{i}-other", **common, "kind": "other_scene", "output": other, "label": 0})
    (HERE / "captions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in captions))
    for name, items in scene_rows().items():
        (HERE / name).write_text("".join(json.dumps(r) + "\n" for r in items))
    if "--png" in sys.argv:
        folder = Path(sys.argv[sys.argv.index("--png") + 1])
        folder.mkdir(parents=True, exist_ok=True)
        for spec in all_specs():
            (folder / f"{spec_id(spec)}.png").write_bytes(draw(spec))


if __name__ == "__main__":
    main()
