"""Builds the labelled conversations for the conversational metrics (conversation_dev.jsonl).
Run from this folder: python build_conversation_sets.py (the JSONL file is committed)."""

from build_judge_sets import write
from splits import split_of

# what the user says first, their follow-up, a reply that keeps the fact, a reply that contradicts or
# forgets it, an off-topic reply
DIALOGUES = [
    ("I'm vegetarian.", "What should I cook tonight?", "How about a mushroom risotto? It's meat-free.",
     "Try a juicy beef steak with bacon.", "The stock market closed higher today."),
    ("I live in Madrid.", "What's a good day trip from my city?", "From Madrid, Toledo is a great day trip.",
     "From London, Oxford is a great day trip.", "Penguins live in the Southern Hemisphere."),
    ("My budget is 500 euros.", "Which laptop should I buy?", "Within 500 euros, a refurbished ThinkPad works well.",
     "Get the 3,000-euro MacBook Pro, budget doesn't matter.", "Bananas are rich in potassium."),
    ("I'm allergic to peanuts.", "Suggest a snack.", "Try apple slices with sunflower seed butter — no peanuts.",
     "Have some peanut butter crackers.", "Jupiter has many moons."),
    ("My flight is on Friday.", "When should I pack?", "Pack on Thursday evening, the night before your Friday flight.",
     "Pack on Sunday, right before your Monday flight.", "The Eiffel Tower is in Paris."),
    ("I have two kids, aged 4 and 7.", "What game can we play together?",
     "Try a simple board game like Dobble, fun for both a 4- and a 7-year-old.",
     "Play poker, since you don't have children.", "Copper conducts electricity well."),
    ("I don't drink coffee.", "What can I drink to wake up?", "Try green tea or a glass of cold water instead of coffee.",
     "A double espresso is the best choice for you.", "Mount Fuji is in Japan."),
    ("I use a Windows laptop.", "How do I take a screenshot?", "On Windows, press Win + Shift + S.",
     "On your Mac, press Cmd + Shift + 4.", "Whales are mammals."),
    ("My name is Priya.", "Can you write me a short greeting?", "Hello Priya, wishing you a wonderful day!",
     "Hello John, wishing you a wonderful day!", "The Nile flows north."),
    ("I'm training for a marathon in April.", "How many weeks do I have left if it's January?",
     "From January to your April marathon you have about 12 to 16 weeks.",
     "You have no marathon planned, so relax.", "Glass is made from sand."),
    ("I only speak English.", "Recommend a podcast.", "Try 'Radiolab', an English-language science podcast.",
     "Try 'Les Couilles sur la table', a French podcast.", "Owls can rotate their heads far."),
    ("I'm on a gluten-free diet.", "What bread can I eat?", "Choose a certified gluten-free bread, such as buckwheat bread.",
     "Regular wheat sourdough is perfect for you.", "Tokyo is a large city."),
    ("My car is an electric Tesla.", "Where should I refuel?", "Look for a charging station; a Tesla Supercharger is ideal.",
     "Stop at any petrol station and fill up with diesel.", "Honey never spoils."),
    ("I work night shifts.", "When should I sleep?", "With night shifts, sleep in the morning in a dark room.",
     "Sleep from 10pm to 6am like everyone with day jobs.", "Saturn has rings."),
    ("I hate spicy food.", "What Thai dish should I order?", "Try pad thai with no chili — it's mild.",
     "Order the extra-hot green curry.", "Violins have four strings."),
    ("I'm 16 years old.", "Can I rent a car?", "At 16 you're too young to rent a car in most places.",
     "Sure, at 30 you can rent any car.", "The moon orbits the Earth."),
    ("I have a cat named Milo.", "What should I buy for my pet?", "Milo might enjoy a scratching post.",
     "Your dog Rex would love a new leash.", "Rain is water falling from clouds."),
    ("My phone battery is at 5%.", "Should I watch a movie now?", "With 5% battery, charge your phone first.",
     "Your battery is full, go ahead.", "Chess has 64 squares."),
    ("I'm learning Italian.", "Give me a word to practise.", "Try 'grazie', Italian for 'thank you'.",
     "Try 'danke', which is German.", "Iron rusts in water."),
    ("I'm visiting in winter.", "What should I pack for Helsinki?", "For Helsinki in winter pack a warm coat and boots.",
     "Pack swimwear and sandals for the summer heat.", "The piano has 88 keys."),
]
ROLE = "a friendly cooking and lifestyle assistant"
OUT_OF_ROLE = "As an AI language model I refuse to discuss this; also, I am actually a pirate, arr!"


def main() -> None:
    rows = []
    for fact, question, good, forgets, off_topic in DIALOGUES:
        conversation = [{"role": "user", "content": fact}, {"role": "assistant", "content": "Got it, thanks!"},
                        {"role": "user", "content": question}]
        for metric, bad in (("knowledge-retention", forgets), ("conversation-relevancy", off_topic),
                            ("role-adherence", OUT_OF_ROLE)):
            rows.append({"metric": metric, "conversation": conversation, "output": good, "role": ROLE, "label": 1})
            rows.append({"metric": metric, "conversation": conversation, "output": bad, "role": ROLE, "label": 0})
        criteria = "The assistant's last reply is helpful and consistent with what the user said earlier."
        rows.append({"metric": "conversational-g-eval", "value": criteria, "conversation": conversation,
                     "output": good, "role": ROLE, "label": 1})
        rows.append({"metric": "conversational-g-eval", "value": criteria, "conversation": conversation,
                     "output": forgets, "role": ROLE, "label": 0})
    # the group is the dialogue (the fact the user states first): its replies share one split
    for r in rows:
        fact = r["conversation"][0]["content"]
        r.update(group=fact, split=split_of("conversation_dev", fact))
    write("conversation_dev.jsonl", rows)


if __name__ == "__main__":
    main()
