"""Build tests/data/multimodal/grounding.jsonl and captions.jsonl (labelled, both classes).

grounding: a sign drawn from ``sign`` (text, background, ink) and an ``output`` about it; label 1 when
the output's checkable claims are true. captions: an ``output`` caption against an ``expected`` one;
label 1 when they describe the same scene. Run: python tests/data/multimodal/build.py
"""

import json
from pathlib import Path

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


def main() -> None:
    rows = []
    for (text, background), wrong in zip(SIGNS, WRONG_TEXT, strict=True):
        sign = {"text": text, "background": background, "ink": "black" if background != "blue" else "white"}
        rows.append({"sign": sign, "output": f'The sign reads "{text}" on a {background} background.', "label": 1})
        rows.append({"sign": sign, "output": f'The sign reads "{wrong}".', "label": 0})
        rows.append({"sign": sign, "output": f"A {OTHER_COLOUR[background]} sign.", "label": 0})
    (HERE / "grounding.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    captions = []
    for expected, same, other in CAPTIONS:
        captions.append({"expected": expected, "output": same, "label": 1})
        captions.append({"expected": expected, "output": other, "label": 0})
    (HERE / "captions.jsonl").write_text("".join(json.dumps(r) + "\n" for r in captions))


if __name__ == "__main__":
    main()
