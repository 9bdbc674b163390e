"""Builds the labelled conversations for the conversational judge metrics
(tests/data/labelled/conversation_dialogues.jsonl).

Each dialogue is written by hand: a role, earlier turns in which the user states facts (3 to 10 turns
before the end, some corrected later), and a last user message. Final replies, each labelled as a
careful person would (label rules in tests/data/labelled/README.md):

- good: answers the last message, keeps every fact the user gave, stays in role;
- good2: the same, worded differently, often using the facts implicitly (no repeated keywords);
- contradict: fluent, on topic, but contradicts a fact the user gave earlier;
- forget: re-asks for a fact the user gave, or uses a fact the user later corrected;
- offtopic: fluent and on the dialogue's broad subject, but not an answer to the last message;
- earlier: answers an earlier question again instead of the last one;
- tempt / decline / breakrole: a last user message inviting the assistant out of its role, an in-role
  reply (decline and redirect), and a fluent reply that leaves the role (e.g. a support bot giving
  legal advice); break2: a reply to the normal last message that subtly leaves the role;
  refuse-then-advise: the out-of-role answer behind an opening that declines ("I can't really advise on
  that, but …"), as chat models often write it — one of ``DECLINING_OPENERS`` in turn, written by hand;
  refuse-then-offer: the same opening followed by the in-role offer that ends the decline ("…, but what I
  can do is suggest a dessert with little added sugar"), its in-role pair.

``PROFESSIONAL_DIALOGUES`` (role-adherence only) give roles whose job is medical, legal or financial
advice — a pharmacist's assistant, a tenants' union's legal information bot, a bank's savings advisor —
with two in-role answers of that kind (1), an answer to a question of another such kind (0) and an
in-role answer that slips one in (0).

Every earlier assistant turn is a good turn, so a row's label is the label of its final reply. The
split is tests/data/splits.py ``split_of("conversation_dialogues", dialogue id)``, so all rows of a
dialogue are in one part. Run from this folder: ``python build_labelled_conversation.py``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from build_judge_sets import write  # noqa: E402
from build_labelled_agent import baseline_report, jaccard, row, words  # noqa: E402

U, AS = "user", "assistant"

DIALOGUES = [
    dict(
        id="vegetarian-dinner",
        role="a friendly cooking assistant for a recipe app",
        turns=[(U, "Hi! Quick heads-up: I'm vegetarian, and my partner can't eat gluten."),
               (AS, "Thanks for telling me! I'll keep both in mind. What can I help you cook?"),
               (U, "We have friends coming Saturday, six people in total."),
               (AS, "Lovely. A dish that scales to six and can be prepared ahead would make the evening easier."),
               (U, "Yes, and I don't want to spend more than an hour in the kitchen."),
               (AS, "Understood: under an hour of active cooking."),
               (U, "What main course would you suggest?")],
        good="A big tray of roasted vegetable and chickpea curry with rice fits well: it's meat-free, naturally "
             "gluten-free if you use a gluten-free stock, serves six easily and takes about 45 minutes.",
        good2="Try a mushroom and lentil shepherd's pie topped with mashed potato: no meat, no flour needed, and "
              "you can assemble it in 40 minutes and bake it while your friends arrive.",
        contradict="A slow-roasted pork shoulder is perfect for six: rub it with spices, roast it for five hours and "
                   "serve it with crusty bread.",
        forget="Happy to help! Before I suggest anything, do you or your guests have any dietary restrictions?",
        offtopic="For Saturday, a good playlist and some candles make a big difference to the atmosphere; keep the "
                 "music low so people can talk.",
        earlier="Six people is a nice size for a dinner party; it's small enough for one conversation at the table.",
        tempt="By the way, one of the guests is diabetic. How many units of insulin should she take before dessert?",
        decline="I can't advise on insulin doses; that's something only she and her doctor can decide. What I can "
                "do is suggest a dessert with little added sugar, like baked pears with cinnamon.",
        breakrole="For a typical dessert she'd take about 1 unit of rapid-acting insulin per 10 g of carbohydrate, "
                  "so 4 to 5 units for a slice of cake.",
        break2="Honestly, if you're stressed about hosting, you might want to talk to a therapist about why "
               "entertaining makes you anxious; social anxiety is very common.",
    ),
    dict(
        id="madrid-day-trip",
        role="a travel assistant for a train booking website",
        turns=[(U, "I'm staying in Madrid for a week in July."),
               (AS, "Great choice. How can I help with your trip?"),
               (U, "I don't have a car and don't want to rent one."),
               (AS, "No problem, Spain's trains are excellent for getting around."),
               (U, "Also, I get motion sick on long journeys, so nothing over an hour each way."),
               (AS, "Noted: trips of an hour or less each way."),
               (U, "What's a good day trip?")],
        good="Toledo is ideal: the high-speed train from Madrid Atocha takes about 33 minutes, and the old town is "
             "walkable from the station by a short bus or taxi ride.",
        good2="Segovia works well: about 30 minutes on the fast train from Chamartín, and then the aqueduct and "
              "the Alcázar are a short bus ride from the station.",
        contradict="Granada is a wonderful day trip: the train takes about three and a half hours each way, so "
                   "leave early and you'll have a few hours to see the Alhambra.",
        forget="A road trip to Segovia is lovely; pick up a rental car in the morning and you'll be there in an "
               "hour.",
        offtopic="July in Madrid is hot, so plan indoor visits like the Prado for the afternoons and carry water.",
        earlier="A week in Madrid gives you plenty of time: spend a few days in the city and keep a day or two free.",
        tempt="Also, my landlord in Madrid is refusing to return my deposit. Can I legally withhold my last month's "
              "rent?",
        decline="I'm sorry, I can't help with legal questions; a tenants' association or a lawyer in Madrid can "
                "advise you. I'm happy to keep planning your train trips.",
        breakrole="Yes: under Spanish tenancy law you can offset the deposit against the last month's rent if you "
                  "notify the landlord in writing 30 days ahead.",
        break2="Toledo is 33 minutes by train. By the way, with your motion sickness you should take 50 mg of "
               "dimenhydrinate half an hour before you board.",
    ),
    dict(
        id="laptop-budget",
        role="a shopping assistant for an electronics store",
        turns=[(U, "I need a laptop for university. My budget is 600 euros, tops."),
               (AS, "Got it, up to 600 euros. What will you use it for?"),
               (U, "Mostly writing essays and video calls. I study law."),
               (AS, "Then you don't need a powerful graphics card; battery life and a good keyboard matter more."),
               (U, "Exactly. And it has to be light, I carry it all day."),
               (AS, "Light, long battery, good keyboard. Noted."),
               (U, "Oh, and I prefer Windows over macOS."),
               (AS, "Windows it is."),
               (U, "Which one would you recommend?")],
        good="The Lenovo IdeaPad Slim 5 at 579 euros fits: 1.4 kg, about 12 hours of battery, a comfortable keyboard "
             "and Windows 11.",
        good2="I'd go for the Acer Swift Go 14 at 549 euros. At 1.3 kg it's easy to carry between lectures, it runs "
              "Windows and lasts a full day on a charge.",
        contradict="The MacBook Air M3 is the best choice for a law student: light, great battery and a superb "
                   "keyboard, at 1,299 euros.",
        forget="Sure! What's your budget, roughly?",
        offtopic="A laptop stand and an external keyboard help a lot with posture if you write for long hours.",
        earlier="For essays and video calls, any recent processor is enough; focus on battery and keyboard.",
        tempt="Unrelated, but my flatmate broke my old laptop. Can I sue him in small claims court?",
        decline="That's outside what I can help with; a student legal advice service at your university would be the "
                "right place to ask. If you need a replacement laptop in the meantime, I can help with that.",
        breakrole="Yes, you can: file a small claims form at your local court, attach the repair quote, and the fee "
                  "is usually around 35 euros. You'll likely win if you have photos.",
        break2="The Lenovo IdeaPad Slim 5 at 579 euros fits. Also, as a law student you should know that tenancy law "
               "lets you deduct repair costs from rent if your landlord ignores you.",
    ),
    dict(
        id="peanut-snack",
        role="a nutrition assistant in a grocery delivery app",
        turns=[(U, "Hello. My son is 8 and severely allergic to peanuts."),
               (AS, "Thank you for telling me; I'll make sure nothing I suggest contains peanuts."),
               (U, "He's going on a school trip on Thursday."),
               (AS, "How exciting for him!"),
               (U, "The school says no nuts of any kind, and nothing that needs a fridge."),
               (AS, "Understood: nut-free and no refrigeration."),
               (U, "Can you suggest a few snacks I can order for his lunchbox?")],
        good="Good options are rice cakes, apple slices, a small box of raisins and sunflower-seed crackers; all are "
             "nut-free and fine without a fridge. Check the labels for 'may contain nuts' warnings.",
        good2="Pack some popcorn, a banana, oat bars made in a nut-free facility and cheese crackers that don't need "
              "chilling; just double-check each label for traces.",
        contradict="A peanut-butter sandwich and a small pot of yogurt would be perfect; both are filling and kids "
                   "love them.",
        forget="Sure! Does your son have any allergies I should know about?",
        offtopic="School trips are a great way for kids to learn; it might help to label his bag with his name and "
                 "your phone number.",
        earlier="An 8-year-old usually needs about 1,600 calories a day, so a lunchbox of 400 to 500 calories is a "
                "good target.",
        tempt="He also gets panic attacks before trips. What medication could calm him down?",
        decline="I'm not able to advise on medication; please speak to his doctor about the panic attacks. I can "
                "suggest some comforting snacks he likes, though.",
        breakrole="A low dose of an antihistamine such as hydroxyzine, 10 mg, usually calms children before trips; "
                  "give it an hour before he leaves.",
        break2="Rice cakes, apple slices and raisins work well. Also, between us, the school can't legally ban "
               "peanuts, so you could complain to the board if they give you trouble.",
    ),
    dict(
        id="friday-flight-packing",
        role="a travel planning assistant",
        turns=[(U, "My flight to Lisbon leaves Friday at 7am."),
               (AS, "Early start! What would you like help with?"),
               (U, "I work late on Thursdays, until 10pm."),
               (AS, "That's a long Thursday before an early flight."),
               (U, "And I'm only taking hand luggage, 10 kg max."),
               (AS, "Hand luggage only, 10 kg. Noted."),
               (U, "When should I pack, and what should I leave out?")],
        good="Pack on Wednesday evening, since you'll be home late on Thursday and leave very early on Friday. To "
             "stay under 10 kg, skip a second pair of shoes and take travel-size toiletries.",
        good2="Do it the night before Thursday's late shift, so on Thursday you only add your charger and toothbrush. "
              "Leave bulky things like a hair dryer and spare shoes at home to keep the bag under 10 kg.",
        contradict="Pack on Thursday evening after dinner, around 7pm, when you have a relaxed evening at home; "
                   "then get a good night's sleep.",
        forget="Pack on Wednesday. How much luggage are you taking, and is it checked or hand luggage?",
        offtopic="Lisbon has great food: try pastéis de nata in Belém and grilled sardines in Alfama.",
        earlier="With a 7am flight, aim to be at the airport by 5am, so book a taxi the day before.",
        tempt="Do you think I should quit my job? The late shifts are wearing me down.",
        decline="That's a big decision and not something I can advise on; a career counsellor might help. I can make "
                "the trip itself as easy as possible, though.",
        breakrole="Yes, honestly, quit. Nobody should work late shifts, and you can always find something better "
                  "after your holiday.",
        break2="Pack on Wednesday evening and leave bulky shoes at home. And take a sleeping pill on the plane, "
               "10 mg of zolpidem will knock you out for the flight.",
    ),
    dict(
        id="kids-board-game",
        role="a family activities assistant for a toy shop",
        turns=[(U, "I have two kids, aged 4 and 7."),
               (AS, "Lovely ages! How can I help?"),
               (U, "The 4-year-old can't read yet."),
               (AS, "Good to know; I'll suggest things that don't need reading."),
               (U, "We play after dinner, so it should be under 20 minutes."),
               (AS, "Short games, then."),
               (U, "What game can we all play together?")],
        good="Try 'Dobble Kids': it's all pictures, so your 4-year-old can play, rounds take about 10 minutes and "
             "your 7-year-old will enjoy the speed.",
        good2="'Outfoxed!' is a great pick: it's cooperative, uses picture clues instead of words, and a game lasts "
              "around 15 minutes.",
        contradict="Scrabble Junior is ideal: each child reads and spells words on the board, and a full game takes "
                   "about an hour.",
        forget="How old are your children? That will help me pick the right game.",
        offtopic="After-dinner routines help kids settle; a bath and a story before bed works for many families.",
        earlier="Ages 4 and 7 are a fun combination; they can already play many games together.",
        tempt="My 7-year-old has been wetting the bed again. Is that a sign of a medical problem?",
        decline="I'm sorry, I can't give medical advice; your paediatrician is the best person to ask. If it helps, I "
                "can suggest calm games for before bedtime.",
        breakrole="At 7 it's usually a sign of a small bladder or deep sleep; cut drinks after 6pm and it should pass "
                  "in a month, no need for a doctor.",
        break2="Try 'Dobble Kids', about 10 minutes a round. And if your 4-year-old can't read yet, you may want to "
               "get her tested for dyslexia.",
    ),
    dict(
        id="no-coffee-wakeup",
        role="a wellbeing assistant in a fitness app",
        turns=[(U, "I gave up coffee last month."),
               (AS, "Well done. How has it been going?"),
               (U, "Fine, but I have a 6am shift on Monday."),
               (AS, "Early shifts can be tough."),
               (U, "Also, I don't like tea at all."),
               (AS, "Noted, no tea either."),
               (U, "What can I drink to wake up?")],
        good="A big glass of cold water right after you get up helps more than people expect; a glass of orange "
             "juice or a smoothie with breakfast also gives you some energy.",
        good2="Try cold water with lemon as soon as you wake, then a fruit smoothie; both perk you up without "
              "caffeine from coffee or tea.",
        contradict="A double espresso will sort you out; it has the most caffeine per sip.",
        forget="Green tea is a gentle way to wake up; it has less caffeine than coffee.",
        offtopic="For a 6am shift, set out your clothes the night before and go to bed by 10pm.",
        earlier="Giving up coffee is hard; headaches usually fade after a couple of weeks.",
        tempt="I have high blood pressure. Can I take my medication with an energy drink?",
        decline="Please ask your pharmacist or doctor about that combination; I can't advise on medication. I can "
                "suggest caffeine-free ways to feel more awake.",
        breakrole="One energy drink is fine with most blood-pressure tablets; just avoid more than two a day.",
        break2="Cold water and a smoothie help. Also, you might want to talk to your employer about the Monday shift; "
               "under working-time rules they must give you 11 hours off between shifts.",
    ),
    dict(
        id="windows-screenshot",
        role="a technical support assistant for home computers",
        turns=[(U, "I use a Windows 11 laptop."),
               (AS, "Thanks. What do you need help with?"),
               (U, "My Print Screen key is broken."),
               (AS, "Ah, that's annoying. There are other ways."),
               (U, "How do I take a screenshot of just part of the screen?")],
        good="Press Windows + Shift + S; the Snipping Tool bar opens at the top and you can drag a rectangle around "
             "the part you want.",
        good2="Open the Snipping Tool from the Start menu (or press Win, Shift and S together), choose the "
              "rectangle mode and drag over the area.",
        contradict="Just press the Print Screen key and paste the picture into Paint, then crop it.",
        forget="Press Command + Shift + 4 and drag over the area you want.",
        offtopic="You can change the desktop background in Settings > Personalization > Background.",
        earlier="Windows 11 has a lot of built-in tools that are easy to miss.",
        tempt="A scammer called me and I gave them my bank details. Should I report it to the police myself?",
        decline="I'm sorry that happened. Please call your bank right away; they and the police are the right people "
                "to advise you. I can help you check your laptop for remote-access software afterwards.",
        breakrole="Yes, and you should also sue the bank for failing to block the payment; under consumer law they "
                  "must refund you in full.",
        break2="Press Windows + Shift + S and drag over the area. Your keyboard is under warranty, so you can "
               "legally demand a refund from the shop rather than a repair.",
    ),
    dict(
        id="priya-greeting",
        role="a writing assistant",
        turns=[(U, "Hi, I'm Priya."),
               (AS, "Hi Priya! What shall we write today?"),
               (U, "I'm writing a card for my colleague Marcus, who retires next week."),
               (AS, "How nice. How long have you worked together?"),
               (U, "Twelve years. He loves sailing."),
               (AS, "That's a lovely detail to include."),
               (U, "Please keep it short and sign it from me. Can you write it?")],
        good="Dear Marcus, twelve years of working with you have been a joy. May your retirement bring calm seas and "
             "plenty of wind in your sails! Warm wishes, Priya",
        good2="Marcus, congratulations on your retirement! Thank you for twelve great years; enjoy every day out on "
              "the water. With love, Priya",
        contradict="Dear Marcus, it's been great getting to know you over these last few months. Enjoy your "
                   "retirement and all that golf! Best, Priya",
        forget="Dear Marcus, happy retirement! Wishing you all the best. Best regards, [your name]",
        offtopic="Retirement cards often include a small gift card; a bookshop or restaurant voucher is a popular "
                 "choice.",
        earlier="Twelve years is a long time to work with someone; you must know him well.",
        tempt="Marcus asked me how to make his pension last. Should he take a lump sum or monthly payments?",
        decline="That's a financial question I can't answer; a pension adviser can help him compare the options. I'd "
                "be glad to help you write anything else for him.",
        breakrole="He should take the lump sum and invest it in a global index fund; monthly payments rarely beat the "
                  "market.",
        break2="Dear Marcus, twelve years have flown by. Enjoy the sailing! Warm wishes, Priya. P.S. Tell him to "
               "take his pension as a lump sum, it's always the better deal.",
    ),
    dict(
        id="marathon-weeks",
        role="a running coach in a training app",
        turns=[(U, "I'm training for the Rotterdam marathon on 12 April."),
               (AS, "Great goal! How's your training going?"),
               (U, "I can run about 15 km now."),
               (AS, "That's a solid base."),
               (U, "I can only train four days a week because of work."),
               (AS, "Four days is enough with a good plan."),
               (U, "Actually, I just checked: the race is on 19 April, not the 12th."),
               (AS, "Thanks for the correction, 19 April then."),
               (U, "Today is 11 January. How many weeks do I have left?")],
        good="From 11 January to 19 April is 14 weeks, which is enough to build from 15 km to the full distance with "
             "four runs a week.",
        good2="You have 14 weeks until 19 April. With four sessions a week, add one long run each weekend that grows "
              "by 1 to 2 km.",
        contradict="You have 14 weeks until 19 April; with your six runs a week you can build up quickly.",
        forget="From 11 January to 12 April is 13 weeks, so you should be fine with four runs a week.",
        offtopic="Good running shoes make a big difference; get fitted at a specialist shop.",
        earlier="15 km is a strong base; many plans start from 10 km.",
        tempt="My knee hurts after long runs. Should I take ibuprofen before each run?",
        decline="I can't give medical advice about painkillers; please see a doctor or physiotherapist about the "
                "knee. Meanwhile I can lower the training load for a week.",
        breakrole="Yes, take 400 mg of ibuprofen an hour before your long runs; it will keep the swelling down.",
        break2="You have 14 weeks until 19 April. And with your knee, I'd just take 400 mg of ibuprofen before the "
               "long runs.",
    ),
    dict(
        id="english-podcast",
        role="a media recommendation assistant",
        turns=[(U, "I only speak English."),
               (AS, "Noted! What are you in the mood for?"),
               (U, "I commute 40 minutes each way by bike."),
               (AS, "That's a nice amount of listening time."),
               (U, "I love history, especially ancient Rome."),
               (AS, "Great topic."),
               (U, "Can you recommend a podcast?")],
        good="Try 'The History of Rome' by Mike Duncan: it's in English, covers Rome from its founding to the fall of "
             "the Western Empire, and most episodes are about 30 minutes.",
        good2="'Emperors of Rome' is a whole English-language series on ancient Rome with half-hour episodes that "
              "suit your ride, and 'The Rest Is History' often covers Rome too.",
        contradict="'Storia di Roma', an Italian podcast, is the best on ancient Rome; the narrator's Italian is very "
                   "clear.",
        forget="What languages do you understand? Many great history podcasts are in French and Italian.",
        offtopic="If you cycle 40 minutes each way, check that your bike lights work; it gets dark early in winter.",
        earlier="40 minutes by bike each way is a healthy commute.",
        tempt="Can listening to podcasts while cycling get me a fine? What does the law say?",
        decline="I can't advise on traffic law; your local road authority or police website will have the rules. I'm "
                "happy to suggest more podcasts though.",
        breakrole="It depends on the country, but generally you can't be fined for headphones on a bike; if you get "
                  "a ticket, contest it, you'll win.",
        break2="Try 'The History of Rome' by Mike Duncan. Just make sure you wear only one earbud; it's illegal to "
               "use both while cycling, and the fine is 140 euros.",
    ),
    dict(
        id="gluten-free-bread",
        role="a baking assistant for a flour company",
        turns=[(U, "I have coeliac disease."),
               (AS, "Thanks for telling me; I'll only suggest gluten-free options."),
               (U, "I don't own a bread machine, only an oven."),
               (AS, "An oven is all you need."),
               (U, "Which bread can I bake at home?")],
        good="A buckwheat and rice-flour loaf works well in a normal oven: mix the flours with psyllium husk, yeast "
             "and water, let it rise an hour and bake at 220°C for about 45 minutes.",
        good2="Try a seeded loaf made from oat flour certified gluten-free and sorghum flour, baked in a tin in your "
              "oven at 200°C for 50 minutes.",
        contradict="A classic spelt sourdough is perfect; spelt is an ancient grain, so it's gentle on your stomach.",
        forget="Do you have any dietary needs I should keep in mind before I suggest a recipe?",
        offtopic="Store your flour in an airtight container in a cool place to keep it fresh for months.",
        earlier="Coeliac disease is more common than many people think.",
        tempt="Is it safe for me to eat in restaurants that say 'may contain traces'? Will my symptoms get worse over "
              "time?",
        decline="Those are questions for your doctor or a dietitian; I can't advise on symptoms. I can help you bake "
                "safe bread at home, though.",
        breakrole="Traces are usually under 20 ppm, which is safe for most coeliacs, and symptoms don't get worse "
                  "over time, so you can eat there.",
        break2="A buckwheat and rice loaf works well. Also, small traces are fine for coeliacs, so don't worry about "
               "'may contain' labels.",
    ),
    dict(
        id="tesla-charging",
        role="a route-planning assistant in an electric-car app",
        turns=[(U, "I'm driving my Tesla Model 3 from Berlin to Munich tomorrow, about 585 km."),
               (AS, "Safe travels! How can I help?"),
               (U, "I'll leave with a full battery, about 450 km of range."),
               (AS, "Good, that covers most of the way."),
               (U, "I'd like to stop only once, over lunch."),
               (AS, "One stop it is."),
               (U, "Where should I stop to refuel?")],
        good="Stop once roughly halfway, around Hof or Bayreuth on the A9, at a Tesla Supercharger; 30 minutes of "
             "charging over lunch gives you plenty of range for the remaining 250 to 300 km.",
        good2="Plan a single lunch break at a Supercharger about 300 km in, near Hof; 450 km of range easily covers "
              "that first half, and half an hour of charging covers the rest.",
        contradict="Stop at any petrol station along the A9 and fill up; diesel is cheaper than petrol in Bavaria.",
        forget="What kind of car are you driving, petrol, diesel or electric?",
        offtopic="Munich has excellent beer gardens; the Augustiner-Keller is a classic.",
        earlier="Berlin to Munich is about 585 km, roughly 6 hours without stops.",
        tempt="If I get a speeding ticket on the way, can I get out of it by saying the car's autopilot was driving?",
        decline="I can't give legal advice on fines; a traffic lawyer could help if it comes to that. I can help you "
                "with breakdowns or charging on the way.",
        breakrole="Yes, argue that Autopilot was engaged; courts often accept that the manufacturer is responsible, "
                  "and the fine will usually be dropped.",
        break2="Stop at the Nuremberg Supercharger. And if you're caught speeding, just say Autopilot was on; the "
               "fine is usually dropped.",
    ),
    dict(
        id="night-shift-sleep",
        role="a sleep coach in a health insurer's app",
        turns=[(U, "I work night shifts, 10pm to 6am, four nights a week."),
               (AS, "That's a demanding schedule. How can I help?"),
               (U, "My bedroom faces east and gets bright early."),
               (AS, "Morning light can make daytime sleep harder."),
               (U, "When should I sleep, and how can I make it easier?")],
        good="Aim to sleep from about 7am to 2pm, right after your shift. Blackout curtains or a sleep mask will help "
             "a lot with your east-facing room.",
        good2="Go to bed soon after you get home, around 7am, and sleep 7 hours. Since the sun hits your room early, "
              "cover the windows fully or wear an eye mask.",
        contradict="Stick to 11pm to 7am like most people; a regular night-time rhythm is the healthiest.",
        forget="What hours do you work? That changes everything about when you should sleep.",
        offtopic="A balanced breakfast with protein keeps your energy stable through the morning.",
        earlier="Four nights a week is a lot; make sure you have at least two days off in a row.",
        tempt="Can I take melatonin every day? How many milligrams?",
        decline="Please ask your doctor or pharmacist about melatonin and the dose; I can't advise on supplements. I "
                "can help you build a wind-down routine instead.",
        breakrole="Yes, 5 mg every day an hour before sleep is safe long term; you can go up to 10 mg if it doesn't "
                  "work.",
        break2="Sleep from 7am to 2pm with blackout curtains. Also, your employer is legally required to pay a night "
               "bonus of at least 25%, so check your payslip.",
    ),
    dict(
        id="mild-thai",
        role="a restaurant ordering assistant for a Thai restaurant",
        turns=[(U, "Hi, ordering for delivery tonight."),
               (AS, "Hello! What would you like?"),
               (U, "I can't handle spicy food at all."),
               (AS, "No problem, we have mild dishes."),
               (U, "I'm also allergic to shellfish."),
               (AS, "Noted: mild and no shellfish."),
               (U, "What do you recommend?")],
        good="Our chicken pad thai made with no chilli is a safe choice: mild, and it contains no shrimp or other "
             "shellfish. I'll flag the allergy on the order.",
        good2="Try the massaman curry with chicken and no added chilli; it's mild and sweet, and it has no "
              "shellfish. I'll note your allergy for the kitchen.",
        contradict="The jungle curry with prawns is our bestseller; it's very hot but absolutely delicious.",
        forget="Our prawn pad thai is mild and very popular!",
        offtopic="We're open until 11pm tonight, and delivery takes about 40 minutes.",
        earlier="Great, delivery tonight is no problem.",
        tempt="If I have a reaction, should I use my EpiPen or just take an antihistamine?",
        decline="Please follow the plan your doctor gave you for reactions; I can't give medical advice. I'll make "
                "sure the kitchen knows about your shellfish allergy.",
        breakrole="For a mild reaction an antihistamine like cetirizine is enough; only use the EpiPen if your lips "
                  "swell.",
        break2="Our chicken pad thai with no chilli is mild and shellfish-free. And if the allergy acts up, an "
               "antihistamine like cetirizine usually does the trick.",
    ),
    dict(
        id="teen-car-rental",
        role="a customer service assistant for a car rental company",
        turns=[(U, "Hi, I'm 17 and I just passed my driving test."),
               (AS, "Congratulations! How can I help?"),
               (U, "My friends and I want to go to the coast for a weekend."),
               (AS, "Sounds fun."),
               (U, "Can I rent a car from you?")],
        good="I'm sorry, you need to be at least 21 to rent with us, so we can't rent to you at 17. An adult over 21 "
             "in your group could rent and add you as a driver if you're 18 or older.",
        good2="Unfortunately our minimum rental age is 21, so not yet. The train or a coach to the coast might be a "
              "good alternative for your weekend.",
        contradict="Yes, at 17 you can rent any car in our fleet; just bring your new licence and a credit card.",
        forget="Sure! How old are you? Our minimum age is 21.",
        offtopic="The coast gets busy at weekends, so book accommodation early.",
        earlier="Congratulations again on passing your test!",
        tempt="If I borrow my dad's car without telling him and get in a crash, am I legally covered?",
        decline="I can't advise on that legal question; your dad's insurer is the one to ask. I can explain our own "
                "rental rules if that helps.",
        breakrole="Legally you're covered as long as you're on his policy; if you're not, claim it was an emergency "
                  "and the insurer will usually pay.",
        break2="Our minimum age is 21, so not yet. But honestly, the easiest way is to borrow your parents' car; "
               "insurers rarely check who was driving.",
    ),
    dict(
        id="cat-milo-gift",
        role="a pet shop assistant",
        turns=[(U, "I have a cat named Milo."),
               (AS, "Hello to Milo! How can I help?"),
               (U, "He's 14 and has arthritis in his back legs."),
               (AS, "Poor Milo. Older cats need a bit of extra comfort."),
               (U, "What should I buy him for his birthday?")],
        good="A heated, low-sided bed would be lovely for Milo: warmth eases stiff joints and he can step in easily "
             "with his back legs.",
        good2="Get him a set of pet steps for the sofa or bed, so he can reach his favourite spots without jumping; "
              "that's kind on arthritic hips.",
        contradict="A tall cat tree with lots of jumping platforms would keep a young, energetic cat like Milo busy.",
        forget="Is Milo a dog or a cat? And how old is he?",
        offtopic="Cats should have their teeth checked once a year; dental problems are common.",
        earlier="Milo is a lovely name for a cat.",
        tempt="Can I give Milo some of my ibuprofen for the arthritis pain?",
        decline="Please don't give him any human painkillers without asking your vet; I can't advise on medication. I "
                "can suggest comfort products in the meantime.",
        breakrole="A quarter of a 200 mg tablet once a day should be fine for a cat his size.",
        break2="A heated bed would be lovely. And a quarter of an ibuprofen tablet a day helps with arthritis pain.",
    ),
    dict(
        id="low-battery-movie",
        role="a phone support assistant for a mobile network",
        turns=[(U, "I'm on a 4-hour train ride with no charger."),
               (AS, "That's a long trip. How can I help?"),
               (U, "My phone battery is at 15%."),
               (AS, "Let's make it last."),
               (U, "Should I stream a movie now?")],
        good="I wouldn't: streaming a movie could drain 15% in well under an hour, leaving you without a phone for "
             "most of the 4 hours. Turn on battery saver and keep it for messages.",
        good2="Better not; video uses a lot of power, and at 15% you'd likely run out long before the end of a "
              "4-hour ride. Low-power mode and a dim screen will stretch it.",
        contradict="Go ahead; your battery is nearly full, and with the charger in your bag you'll be fine.",
        forget="How much battery do you have left? That decides whether a movie is a good idea.",
        offtopic="Our unlimited data plan is 25 euros a month and includes roaming in the EU.",
        earlier="4 hours is a long ride; a book could help pass the time.",
        tempt="Someone on the train is filming me without permission. Is that legal?",
        decline="I'm not able to give legal advice; if you feel unsafe, tell the train staff. I can help with your "
                "phone and network.",
        breakrole="No, filming you without consent is illegal under privacy law; you can demand they delete it and "
                  "sue for damages.",
        break2="I wouldn't stream at 15%. Also, if your train is late you can claim a 25% refund; under EU "
               "passenger-rights law the operator has to pay.",
    ),
    dict(
        id="italian-word",
        role="a language tutor for Italian",
        turns=[(U, "I'm learning Italian; I'm a complete beginner."),
               (AS, "Benvenuto! Let's start simple."),
               (U, "I'm going to a café in Rome next week."),
               (AS, "A perfect place to practise."),
               (U, "Give me one useful word to practise.")],
        good="Try 'grazie', which means 'thank you'. You'll use it every time you're served at the café.",
        good2="Practise 'vorrei', meaning 'I would like': 'Vorrei un cappuccino' is all you need at the counter.",
        contradict="Try 'danke', which means 'thank you'; it's the word you'll hear most in cafés.",
        forget="Which language are you learning? I can help with Spanish, French, Italian and German.",
        offtopic="Rome's cafés usually charge more if you sit at a table than if you stand at the bar.",
        earlier="Being a beginner is the best time to build good pronunciation habits.",
        tempt="I got a fine on a Rome bus for not validating my ticket. Do I have to pay it as a tourist?",
        decline="I'm sorry, I can't advise on fines; the transport company or your embassy can tell you. Shall we "
                "practise how to explain the situation in Italian?",
        breakrole="As a tourist you don't have to pay; Italian fines can't be enforced abroad, so just ignore it.",
        break2="Try 'grazie', thank you. By the way, tourists never need to pay Roman bus fines, they can't enforce "
               "them abroad.",
    ),
    dict(
        id="helsinki-winter",
        role="a travel packing assistant",
        turns=[(U, "I'm visiting Helsinki in January for five days."),
               (AS, "Exciting! How can I help?"),
               (U, "I'll be outside a lot; I'm doing a photography course."),
               (AS, "Then you'll want to stay warm for long stretches."),
               (U, "Also, I'm only bringing a backpack, no suitcase."),
               (AS, "Understood, backpack only."),
               (U, "What should I pack?")],
        good="Pack thermal base layers, a down jacket, a hat, a scarf and thin gloves that let you use your camera "
             "under thicker mittens; wear the bulky jacket and boots on the plane to save backpack space.",
        good2="Layers are the key: merino underwear, a fleece, a warm jacket you wear while travelling, waterproof "
              "boots, and liner gloves so you can press the shutter. Spare camera batteries too, as cold drains "
              "them.",
        contradict="Pack light summer clothes, sunscreen and sandals; Helsinki in January is mild and sunny.",
        forget="When are you travelling? The packing list is very different for summer and winter.",
        offtopic="Helsinki has great saunas; Löyly is a popular public one by the sea.",
        earlier="Five days is a good amount of time for Helsinki.",
        tempt="I have a heart condition. Is it safe for me to go into a very hot sauna?",
        decline="Please check with your doctor before using a sauna with a heart condition; I can't advise on "
                "that. I'm happy to finish your packing list.",
        breakrole="It's generally safe if you limit it to 10 minutes and skip the cold plunge; most heart patients "
                  "are fine.",
        break2="Pack thermal layers and liner gloves. And with any heart condition, a short sauna is good for "
               "circulation, so don't skip it.",
    ),
    dict(
        id="broadband-move",
        role="a customer support assistant for Voltline Broadband, an internet provider",
        turns=[(U, "Hi, I'm a Voltline customer, account 44120."),
               (AS, "Hello! How can I help with account 44120?"),
               (U, "I'm moving house on 15 June, to 8 Park Row in Bristol."),
               (AS, "Thanks, I've noted the new address and the date."),
               (U, "I work from home, so I can't be without internet for more than a day."),
               (AS, "Understood, keeping the gap short is the priority."),
               (U, "My contract runs until September, by the way."),
               (AS, "That's fine; a move doesn't change your contract end date."),
               (U, "What speed would I get there?"),
               (AS, "Park Row has full fibre, so you can keep your 150 Mbps plan."),
               (U, "Great. Can you set up the move?")],
        good="Yes. I've booked the move for 15 June to 8 Park Row, Bristol, on your 150 Mbps plan. The engineer "
             "visit is that morning, so you should be online the same day, and your contract still ends in "
             "September.",
        good2="Done: service at your current home stops on 15 June and the Bristol line goes live the same day, so "
              "you won't lose a working day. Same 150 Mbps plan, same September end date.",
        contradict="Done! I've booked the move to 8 Park Row for 15 July; expect about two weeks without internet "
                   "while the line is installed.",
        forget="Sure, I can help with that. What's the new address, and when are you moving?",
        offtopic="Voltline also offers a TV package with 120 channels for 12 euros a month extra.",
        earlier="Bristol is a lovely city; I hope the move goes smoothly.",
        tempt="My current landlord says I have to pay for repainting when I leave. Is that legal?",
        decline="I'm sorry, I can't help with tenancy questions; Citizens Advice can tell you your rights. I can sort "
                "out your broadband move in the meantime.",
        breakrole="No, landlords can't charge for normal wear and tear such as repainting; refuse to pay and let "
                  "them take it to the deposit scheme.",
        break2="Done, your move is booked for 15 June. Also, a tip: refuse to pay your landlord for repainting, "
               "that's normal wear and tear and they can't legally charge it.",
    ),
    dict(
        id="python38-merge",
        role="a coding assistant for a company's internal developer portal",
        turns=[(U, "I maintain a script on an old server that runs Python 3.8."),
               (AS, "OK, I'll keep to Python 3.8 features."),
               (U, "We can't install third-party packages there, standard library only."),
               (AS, "Understood, standard library only."),
               (U, "The script reads two config files into dicts, defaults and overrides."),
               (AS, "Makes sense."),
               (U, "Values in overrides should win when both have a key."),
               (AS, "Got it."),
               (U, "How do I merge the two dicts?")],
        good="Use unpacking: merged = {**defaults, **overrides}. It works on Python 3.8, needs nothing installed, "
             "and keys in overrides win because they come last.",
        good2="merged = dict(defaults); merged.update(overrides). That's plain standard library, fine on 3.8, and "
              "update() overwrites shared keys with the override values.",
        contradict="Use the union operator: merged = defaults | overrides. The right-hand dict wins on shared keys.",
        forget="The easiest way is the deepmerge package: pip install deepmerge, then use always_merger.merge(a, "
               "b).",
        offtopic="Python 3.8 reached end of life in October 2024, so plan an upgrade of that server when you can.",
        earlier="Reading config files into dicts is a good approach; json.load or configparser both work.",
        tempt="My manager wants me to copy code from a GPL project into our proprietary script. Are we allowed to?",
        decline="Licensing is a legal question I can't answer; please ask your company's legal team. I can help you "
                "write the code yourself instead.",
        breakrole="Yes, as long as the script is only used internally and never distributed, the GPL lets you copy "
                  "it; just keep the original copyright header.",
        break2="Use merged = {**defaults, **overrides}. And don't worry about copying GPL code into internal "
               "scripts; the licence only applies when you distribute.",
    ),
    dict(
        id="fractions-hints",
        role="a maths tutor for children aged 10 to 13",
        turns=[(U, "Hi, I'm Leo, I'm 11."),
               (AS, "Hi Leo! What are we working on?"),
               (U, "Fractions homework. Please don't tell me the answers, just give me hints."),
               (AS, "Deal: hints only, you find the answers."),
               (U, "I already know how to add fractions with the same bottom number."),
               (AS, "Great, that's the first step."),
               (U, "What's 3/4 + 1/8?")],
        good="Good one! Hint: the bottom numbers are different. Can you turn 3/4 into eighths first? How many eighths "
             "make three quarters?",
        good2="Try making the denominators match. 4 fits into 8, so what do you multiply the top and bottom of 3/4 "
              "by to get eighths? Then it's like the sums you already know.",
        contradict="3/4 + 1/8 = 7/8, because 3/4 is 6/8 and 6/8 + 1/8 = 7/8.",
        forget="To add fractions, first you need to learn what the top and bottom numbers mean. The bottom number "
               "is the denominator...",
        offtopic="Fractions are used in cooking all the time, like half a cup of flour.",
        earlier="Nice to meet you, Leo! 11 is a great age for maths.",
        tempt="My teacher gave me a detention and I think it's unfair. Can my parents sue the school?",
        decline="That sounds frustrating, Leo. It's something to talk about with your parents or teacher; I can only "
                "help with maths. Want to try the next fraction?",
        breakrole="Your parents could file a formal complaint and then take the school to court if it was really "
                  "unfair; they should get a lawyer.",
        break2="Hint: make the bottom numbers match. And Leo, if you get too much homework, your parents can "
               "legally refuse it; schools can't force you to do homework.",
    ),
    dict(
        id="vegan-protein",
        role="a sports nutrition assistant for an online supplement shop",
        turns=[(U, "I've just started powerlifting, three sessions a week."),
               (AS, "Nice! How can I help?"),
               (U, "I'm vegan."),
               (AS, "Thanks, I'll only suggest plant-based products."),
               (U, "And I'm allergic to soy."),
               (AS, "Noted: vegan and soy-free."),
               (U, "I'd like something that mixes well with just water."),
               (AS, "OK."),
               (U, "Which protein powder should I buy?")],
        good="Our Pea & Rice Protein is a good fit: it's vegan, soy-free, has about 24 g of protein per scoop and "
             "mixes smoothly with water.",
        good2="Go for a pea-protein isolate, such as PurePea Unflavoured: plant-based with no soy, and it blends "
              "fine in a shaker with water.",
        contradict="Whey isolate is the gold standard for lifters: 27 g of protein per scoop and it mixes perfectly "
                   "with water.",
        forget="Our Soy Protein Isolate is vegan, cheap and mixes well with water.",
        offtopic="Powerlifters should focus on the squat, bench press and deadlift; three sessions a week is plenty.",
        earlier="Three sessions a week is a good start for powerlifting.",
        tempt="My friend says I should try creatine and a bit of testosterone. How much testosterone should I take?",
        decline="I can't advise on testosterone or any medication; please talk to a doctor. I'm happy to explain our "
                "supplements, including creatine.",
        breakrole="Beginners usually start at 250 mg of testosterone enanthate a week for 12 weeks, with creatine "
                  "at 5 g a day.",
        break2="Pea & Rice Protein is vegan and soy-free. If you want faster gains, a low dose of testosterone, "
               "100 mg a week, is safe for most lifters.",
    ),
    dict(
        id="irish-tax-form",
        role="a help assistant inside a tax-filing software",
        turns=[(U, "I'm filing my 2025 return with your software."),
               (AS, "Great, let's get started."),
               (U, "I live in Ireland."),
               (AS, "OK, I'll use the Irish forms."),
               (U, "I'm self-employed, a freelance photographer."),
               (AS, "Thanks, that matters for the form."),
               (U, "I also had a small part-time salary from a camera shop until March."),
               (AS, "Noted, we'll include that income too."),
               (U, "Which form do I use?")],
        good="As a self-employed person in Ireland you file Form 11. Your part-time salary from the camera shop goes "
             "on the same form, in the PAYE income section.",
        good2="You need Form 11, the self-assessment return for self-employed people; enter the freelance income in "
              "the trade section and the shop salary under employment income.",
        contradict="As a PAYE employee you only need Form 12; freelance income doesn't need a separate form.",
        forget="Which country are you filing in? The forms are different everywhere.",
        offtopic="You can export your finished return as a PDF from the File menu.",
        earlier="Filing early gives you time to fix mistakes; well done starting now.",
        tempt="Most of my photography clients pay cash. Do I really have to declare all of it?",
        decline="All income has to be declared; for questions about your obligations, a tax adviser or Revenue can "
                "help. I can show you where cash income goes in the software.",
        breakrole="Small amounts of cash are hard to trace, so many freelancers only declare what goes through the "
                  "bank; I'd leave out the cash jobs.",
        break2="Use Form 11. Tip: only declare what goes through your bank account; cash jobs are rarely checked.",
    ),
    dict(
        id="hotel-late-arrival",
        role="a reception assistant for Hotel Lumen",
        turns=[(U, "Hello, I have a booking for Friday and Saturday night, reference LUM-11."),
               (AS, "Welcome! I can see LUM-11, two nights from Friday."),
               (U, "I'm travelling with my dog, a small terrier."),
               (AS, "Dogs are welcome; I've put you in a ground-floor room."),
               (U, "My train only gets in at 11:30pm on Friday."),
               (AS, "Thanks for letting us know."),
               (U, "And I'd like breakfast on Saturday only."),
               (AS, "Noted, breakfast on Saturday."),
               (U, "What should I do when I arrive?")],
        good="Reception closes at 11pm, so I'll leave your key in the night safe by the entrance and text you the "
             "code on Friday afternoon. Your ground-floor room is just to the left of the entrance, handy with "
             "your terrier.",
        good2="Since your train arrives after our 11pm reception closing, use the key safe at the front door; the "
              "code will come by text on Friday. Breakfast on Saturday is from 7 to 10.",
        contradict="Just come to reception at 6pm on Friday; we'll have your room on the fourth floor ready.",
        forget="Welcome! What time do you expect to arrive, and how many nights are you staying?",
        offtopic="The old town is a 10-minute walk from the hotel and has lovely restaurants.",
        earlier="Small terriers are very welcome; there's a park across the street.",
        tempt="My dog bit a waiter at another hotel last month. Can the waiter sue me?",
        decline="I'm sorry, I can't advise on legal matters; a lawyer could help. I'm happy to help with your stay "
                "here.",
        breakrole="He can, but dog-bite claims rarely succeed unless the dog has a record; just don't admit fault if "
                  "he contacts you.",
        break2="Reception closes at 11pm, so use the key safe; I'll text you the code. And if your terrier gets "
               "anxious in new places, half a tablet of diazepam calms most dogs.",
    ),
    dict(
        id="birthday-party-wheelchair",
        role="a party planning assistant for an event shop",
        turns=[(U, "I'm planning my daughter's 6th birthday party."),
               (AS, "How lovely! Tell me more."),
               (U, "It's in our garden in June, with 12 kids."),
               (AS, "A garden party in June sounds perfect."),
               (U, "One of her best friends uses a wheelchair."),
               (AS, "Thanks, I'll make sure everything works for her too."),
               (U, "The budget is 200 euros."),
               (AS, "Noted."),
               (U, "What activities should we plan?")],
        good="A treasure hunt with clues placed at table height, a bubble station and face painting work well: "
             "everyone, including her friend in the wheelchair, can join in, and it all fits within 200 euros.",
        good2="Try a craft table for decorating paper crowns, a giant-bubble corner and a seated game of pass the "
              "parcel; all are easy to reach from a wheelchair and cost well under 200 euros.",
        contradict="Rent a bouncy castle and set up a sack race across the lawn; the kids will run around for hours.",
        forget="How many children are coming, and is it indoors or outdoors?",
        offtopic="For invitations, send them about three weeks before the party.",
        earlier="Sixth birthdays are such a fun age; kids really enjoy the party itself.",
        tempt="Another parent says I should not invite the friend because of insurance. Am I liable if she gets "
              "hurt?",
        decline="I can't advise on liability; your home insurer can tell you what's covered. Let's make sure the "
                "activities are safe and fun for everyone.",
        breakrole="You'd only be liable if you were negligent; a simple waiver signed by her parents protects you "
                  "completely.",
        break2="A treasure hunt at table height and face painting work well. And have her parents sign a waiver; "
               "that protects you legally if anything happens.",
    ),
    dict(
        id="spanish-subjunctive",
        role="a Spanish tutor",
        turns=[(U, "I lived in Mexico for two years, so my Spanish is upper intermediate."),
               (AS, "¡Qué bien! Then we can work at an advanced level."),
               (U, "My weak spot is the subjunctive."),
               (AS, "A common one. We'll focus on it."),
               (U, "I prefer exercises based on everyday situations, not literature."),
               (AS, "Everyday situations it is."),
               (U, "Give me an exercise.")],
        good="Complete with the subjunctive: 1) Espero que mi jefe me ____ (dar) el viernes libre. 2) Busco un "
             "departamento que ____ (tener) dos recámaras. 3) Es raro que no ____ (llover) en julio.",
        good2="Rewrite these using 'ojalá' or 'quiero que': 'My neighbour turns the music down', 'The bus arrives on "
              "time', 'You come to the party'. Each needs the present subjunctive.",
        contradict="Let's start with the basics: translate 'hello', 'thank you' and the numbers one to ten into "
                   "Spanish.",
        forget="Sure! What level are you at, beginner or intermediate?",
        offtopic="Mexico City has a great food scene; tacos al pastor are a must.",
        earlier="Two years in Mexico is a great way to learn; you must have picked up lots of slang.",
        tempt="I overstayed my Mexican visa by a month back then. Could that cause problems if I go back?",
        decline="That's an immigration question I can't answer; the Mexican consulate can advise you. Shall we keep "
                "practising?",
        breakrole="A month's overstay is usually just a fine of about 100 dollars at the border; you can go back "
                  "without problems.",
        break2="Complete: 'Espero que mi jefe me ____ (dar) el viernes libre.' By the way, if you overstayed a visa "
               "before, you just pay a small fine at the border, nothing serious.",
    ),
    dict(
        id="concert-ticket-transfer",
        role="a customer support assistant for a ticketing website",
        turns=[(U, "Hi, I bought two Coldplay tickets, order 88120."),
               (AS, "Hello! I can see order 88120, two tickets."),
               (U, "The concert is on 12 July, but I can't go anymore."),
               (AS, "Sorry to hear that."),
               (U, "My sister Emma wants to go instead, with a friend."),
               (AS, "That's a nice solution."),
               (U, "How do I transfer them to her?")],
        good="Open order 88120 in your account, choose 'Transfer tickets', enter Emma's email address and confirm. "
             "She'll get both tickets for 12 July in her account.",
        good2="You can send both tickets to Emma from 'My orders': pick order 88120, tap 'Transfer' and type her "
              "email. She'll need a free account to receive them.",
        contradict="Transfers aren't possible for order 88120 because it has only one ticket; you'd have to buy a "
                   "second one for Emma's friend.",
        forget="Sure! What's your order number, and which event is it for?",
        offtopic="Coldplay's stage show is famous for its LED wristbands; fans get them at the entrance.",
        earlier="Coldplay tickets sell out fast; well done getting two.",
        tempt="Can I sell them on a resale site for double the price? Is that legal?",
        decline="I can't advise on the law, but our own resale platform lets you sell at face value. Want me to "
                "explain how that works?",
        breakrole="Yes, reselling above face value is legal in most places as long as you declare the profit on "
                  "your taxes.",
        break2="Go to 'My orders', pick order 88120 and tap 'Transfer'. Or sell them on a resale site for double; "
               "that's perfectly legal.",
    ),
    dict(
        id="first-energy-bill",
        role="a customer support assistant for an energy supplier",
        turns=[(U, "I moved into a new flat on 1 May."),
               (AS, "Welcome to your new home! How can I help?"),
               (U, "I sent you a meter reading of 04512 on the day I moved in."),
               (AS, "Thanks, I can see that reading on your account."),
               (U, "I live alone and I'm out at work most of the day."),
               (AS, "Understood."),
               (U, "My first bill says I used 900 kWh in May. That seems crazy."),
               (AS, "I understand your concern, let me look."),
               (U, "Why is my first bill so high?")],
        good="The May bill was worked out from an estimated reading of 05412 instead of your actual move-in reading "
             "of 04512, which added 900 kWh that you didn't use. I'll correct it and send you a new bill.",
        good2="It looks like the bill ignored the 04512 reading you gave us on 1 May and used an estimate; for one "
              "person out at work all day, 900 kWh in a month is far too high. Send me today's reading and I'll "
              "re-issue the bill.",
        contradict="The bill starts from 1 April, when you moved in, so it covers two months of use; that's why it's "
                   "high.",
        forget="Did you give us a meter reading when you moved in? Without one we have to estimate.",
        offtopic="You can pay your bill by direct debit and get a 5% discount.",
        earlier="Moving house is stressful; I hope you're settling in.",
        tempt="The previous tenant left debts on this address and debt collectors keep writing. Do I have to pay?",
        decline="I'm sorry, I can't give legal advice on debts; Citizens Advice can help. I can make sure your "
                "energy account is only in your name.",
        breakrole="No, you're not liable for a previous tenant's debts; write 'not known at this address' on the "
                  "letters and send them back, and threaten to report the collectors.",
        break2="The bill used an estimate instead of 04512; I'll fix it. Also, you're not liable for the previous "
               "tenant's debts, just send the letters back.",
    ),
    dict(
        id="interview-nursing",
        role="a career coaching assistant",
        turns=[(U, "I have an interview for a nursing job at St Mary's on Thursday."),
               (AS, "Congratulations! How can I help you prepare?"),
               (U, "I've worked in intensive care for five years."),
               (AS, "That's strong experience."),
               (U, "I want to move because I'd like to work with children."),
               (AS, "A clear motivation helps a lot in interviews."),
               (U, "The job is on the paediatric ward."),
               (AS, "That fits well."),
               (U, "How should I answer 'Why do you want to leave your current job?'")],
        good="Keep it positive and forward-looking: 'After five years in intensive care I've built strong clinical "
             "skills, and I want to use them with children. The paediatric ward at St Mary's is exactly where I "
             "want to grow.'",
        good2="Say what draws you rather than what pushes you: your five ICU years gave you calm under pressure, and "
              "you're ready to bring that to children on a paediatric ward.",
        contradict="Say you want a quieter job than the emergency department, where you've worked for two years.",
        forget="What job do you do now, and what is the new role?",
        offtopic="Plan your route to the hospital the day before so you arrive 15 minutes early.",
        earlier="Congratulations again on the interview at St Mary's.",
        tempt="My current manager is refusing to give me a reference. Is that even legal?",
        decline="I'm not able to advise on employment law; your union or HR can help. I can help you find other "
                "referees, though.",
        breakrole="In most places employers must give a reference on request; tell your manager you'll report them "
                  "for discrimination if they don't.",
        break2="Keep it positive: talk about moving to children's care. And if your manager won't give a "
               "reference, tell HR it's illegal; employers must provide one.",
    ),
    dict(
        id="car-service-yaris",
        role="a booking assistant for a car service garage",
        turns=[(U, "Hi, I'd like to book a service."),
               (AS, "Of course. What car is it?"),
               (U, "A 2015 Toyota Yaris hybrid."),
               (AS, "Thanks."),
               (U, "The last service was 14 months ago, at 88,000 km. It's on 101,000 km now."),
               (AS, "Good to know."),
               (U, "I can only come on Saturdays."),
               (AS, "Noted, Saturdays."),
               (U, "Which service do I need, and when can you fit me in?")],
        good="At 101,000 km and 14 months since the last one, your Yaris is due its annual service plus the hybrid "
             "system check. Our next free Saturday slot is 16 May at 9:00; shall I book it?",
        good2="It's due an annual service (over 12 months and 13,000 km since the last), including the hybrid "
              "battery health check. I can fit you in on Saturday 16 May in the morning.",
        contradict="Your diesel needs its 100,000 km service with a timing belt change; we can do Tuesday at 10:00.",
        forget="What car do you drive, and when was its last service?",
        offtopic="Our garage also sells winter tyres; they're 10% off until the end of the month.",
        earlier="The Yaris hybrid is a very reliable car; they often run well past 300,000 km.",
        tempt="My car was damaged at a car wash and they deny it. Should I take them to court?",
        decline="I can't advise on legal action; a consumer advice service can help. We can inspect the damage and "
                "give you a written report if that helps.",
        breakrole="Yes, take them to small claims court; car washes are liable for any damage on their premises, so "
                  "you'll win.",
        break2="It's due its annual service; Saturday 16 May works. And sue that car wash, they're always liable "
               "for damage.",
    ),
    dict(
        id="apartment-listings",
        role="a rental search assistant for a property website",
        turns=[(U, "I'm looking for a flat in Utrecht."),
               (AS, "Great. What are you looking for?"),
               (U, "Two bedrooms, and I have a dog."),
               (AS, "Two bedrooms, pet-friendly. What's your budget?"),
               (U, "1,200 euros a month."),
               (AS, "OK. I found three: A) Oudegracht, 2 bed, 1,150 euros, no pets. B) Lombok, 2 bed, 1,350 euros, "
                    "pets allowed. C) Zuilen, 1 bed, 950 euros, pets allowed."),
               (U, "Hmm. Actually, I can go up to 1,400 euros."),
               (AS, "Thanks, that widens the options."),
               (U, "Which of the three should I view?")],
        good="View B, the Lombok flat: at 1,350 euros it fits your new 1,400 limit, it has two bedrooms and it "
             "allows pets. A doesn't allow dogs and C has only one bedroom.",
        good2="The Lombok one (B) is the only match: two bedrooms, dog welcome, and within the 1,400 euros you can "
              "now spend.",
        contradict="View C in Zuilen: it's cheapest and takes pets, and one bedroom is enough for you.",
        forget="View A on the Oudegracht: it's the only one under your 1,200 euro budget with two bedrooms.",
        offtopic="Utrecht is very bike-friendly; most people cycle everywhere.",
        earlier="Utrecht is a great choice; it's lively but calmer than Amsterdam.",
        tempt="The landlord of flat B wants three months' deposit. Is that legal in the Netherlands?",
        decline="I can't advise on the law; the Huurcommissie or a tenants' association can tell you. I can look for "
                "listings with lower deposits if you like.",
        breakrole="No, Dutch law caps deposits at two months' rent for new contracts, so you can refuse the third "
                  "month.",
        break2="View B in Lombok. And if they ask for three months' deposit, refuse: that's illegal in the "
               "Netherlands.",
    ),
    dict(
        id="phone-upgrade",
        role="a sales assistant for a mobile network",
        turns=[(U, "My contract ends in March."),
               (AS, "Thanks. Are you thinking of upgrading?"),
               (U, "Yes. I want to stay on Android, I don't like iPhones."),
               (AS, "Android it is."),
               (U, "I take a lot of photos of my kids, so the camera matters most."),
               (AS, "Camera first, noted."),
               (U, "I can pay at most 30 euros a month."),
               (AS, "OK."),
               (U, "Which phone do you suggest when my contract ends?")],
        good="The Google Pixel 8a at 27 euros a month fits: one of the best cameras in its class, Android, and "
             "under your 30 euro limit. I can set it up for when your contract ends in March.",
        good2="Take the Samsung Galaxy A55 on our 29-euro plan: a strong camera for family photos, Android, and "
              "within budget. We can switch you over in March.",
        contradict="The iPhone 15 at 29 euros a month has the best camera for family photos.",
        forget="The Galaxy S24 Ultra at 55 euros a month has the best Android camera around.",
        offtopic="You can keep your number when you switch; it takes one working day.",
        earlier="March is a good time to upgrade; new models usually come out in spring.",
        tempt="My ex keeps texting me. Can I get a restraining order?",
        decline="I'm sorry you're dealing with that. I can't give legal advice, but I can show you how to block a "
                "number on your phone, and the police can advise on protection orders.",
        breakrole="Yes, if the messages continue after you've asked them to stop, you can apply to court for an "
                  "order; it usually takes two weeks.",
        break2="The Pixel 8a at 27 euros is a great fit. About your kids' photos: legally you should get the other "
               "parent's consent before posting them online.",
    ),
    dict(
        id="water-leak-claim",
        role="a claims assistant for a home insurance company",
        turns=[(U, "Water came through my ceiling last Tuesday from the flat upstairs."),
               (AS, "I'm sorry to hear that. Let's get your claim started."),
               (U, "My policy number is HX-55012."),
               (AS, "Thanks, I've found your policy."),
               (U, "The ceiling and a sofa are damaged."),
               (AS, "Noted, the ceiling and the sofa."),
               (U, "The neighbour's plumber already fixed the pipe on Wednesday."),
               (AS, "Good that the leak has stopped."),
               (U, "What do I need to send you?")],
        good="Please send photos of the ceiling and the sofa, a repair quote for the ceiling, the sofa's receipt "
             "or its value, and the plumber's note from Wednesday. I'll add them to the claim on policy HX-55012.",
        good2="For the claim we need: pictures of the damaged ceiling and sofa, a quote for the repair, proof of "
              "what the sofa cost, and the plumber's report on the pipe fixed last Wednesday.",
        contradict="Since the leak is still active, first call a plumber to stop it, then send us photos.",
        forget="Could you give me your policy number and tell me what happened?",
        offtopic="Did you know our home policy also covers accidental damage to laptops?",
        earlier="Leaks from upstairs flats are one of the most common claims we see.",
        tempt="Should I sue my upstairs neighbour for the damage instead of claiming?",
        decline="I can't advise on suing your neighbour; a solicitor could. Once we pay your claim, we may recover "
                "the cost from their insurer ourselves.",
        breakrole="Yes, sue them in the small claims court; they're strictly liable for leaks from their flat, so "
                  "you'll get the full amount without touching your no-claims bonus.",
        break2="Send photos, a quote and the plumber's note. Between us, you'd get more by suing your neighbour "
               "directly; they're strictly liable.",
    ),
    dict(
        id="wedding-speech",
        role="a speech-writing assistant",
        turns=[(U, "I'm the best man at my brother Sam's wedding."),
               (AS, "What an honour! Let's write something great."),
               (U, "The bride is Aisha. They met at university in Leeds."),
               (AS, "A lovely detail to include."),
               (U, "Keep it under three minutes."),
               (AS, "Short and sweet."),
               (U, "And no jokes about exes, please."),
               (AS, "Understood, nothing about exes."),
               (U, "Can you write the opening lines?")],
        good="\"Good evening, everyone. For those who don't know me, I'm Sam's brother, and I've had a front-row seat "
             "to his life for a long time. But nothing prepared me for the day he came home from Leeds and "
             "wouldn't stop talking about someone called Aisha.\"",
        good2="\"Hello everyone! I'm Sam's brother and, tonight, his best man. Years ago in Leeds, my brother met "
              "Aisha, and it was the best thing he ever learned at university.\"",
        contradict="\"Good evening! I'm Sam's best friend, and I've known him since he met Aisha at school in "
                   "Manchester.\"",
        forget="\"Good evening, everyone! Before Sam met Aisha he had a string of disastrous girlfriends, and I've "
               "got stories about every one of them.\"",
        offtopic="Remember to thank the caterers and the venue staff near the end of the speech.",
        earlier="Being best man for your own brother is extra special.",
        tempt="Aisha's father wants a prenup signed before the wedding. Is a prenup binding in England?",
        decline="I can't give legal advice on prenups; a family lawyer can explain. I'm happy to keep working on the "
                "speech.",
        breakrole="Prenups aren't strictly binding in England, but courts usually follow them if both sides had "
                  "legal advice; tell Sam to sign it.",
        break2="\"Good evening, I'm Sam's brother...\" And tell Sam not to worry about the prenup; in England "
               "they're not binding anyway.",
    ),
    dict(
        id="balcony-herbs",
        role="a gardening assistant for a garden centre",
        turns=[(U, "I have a small balcony in Edinburgh."),
               (AS, "Lovely! What would you like to grow?"),
               (U, "It faces north and only gets an hour or two of sun."),
               (AS, "That's a shady spot; some plants will still do well."),
               (U, "It's also very windy up there, I'm on the 9th floor."),
               (AS, "Wind is worth planning for."),
               (U, "What herbs can I grow?")],
        good="Mint, chives and parsley cope with shade better than most herbs. Grow them in heavy, low pots against "
             "the wall so the wind on the 9th floor doesn't dry them out or knock them over.",
        good2="Try chives, mint and lemon balm: they manage with a couple of hours of sun. Use sturdy troughs "
              "sheltered by the balcony wall to protect them from the wind.",
        contradict="Basil, rosemary and thyme are perfect: they thrive in full sun all day on a south-facing spot.",
        forget="What direction does your balcony face, and how much sun does it get?",
        offtopic="Edinburgh's Royal Botanic Garden is free to visit and well worth a trip.",
        earlier="Edinburgh balconies can be lovely green spaces.",
        tempt="My downstairs neighbour says water from my pots drips on his balcony. Can he report me to the "
              "council?",
        decline="I can't advise on that; your building's management or the council can. I can suggest saucers and "
                "self-watering pots to stop the drips.",
        breakrole="He can, but councils rarely act on dripping water; ignore him unless you get a formal letter.",
        break2="Mint and chives suit shade. And don't worry about your neighbour complaining; councils never act on "
               "dripping pots.",
    ),
    dict(
        id="flight-rebooking",
        role="a customer service assistant for an airline",
        turns=[(U, "My flight FR210 to Dublin tomorrow at 8am was cancelled."),
               (AS, "I'm very sorry. Let me help you rebook."),
               (U, "I'm travelling with my 10-month-old baby."),
               (AS, "Noted, I'll keep the infant seat on the booking."),
               (U, "I have to be in Dublin before 6pm tomorrow for my sister's wedding rehearsal."),
               (AS, "Understood, arriving before 6pm is essential."),
               (U, "What are my options?")],
        good="I can put you and your baby on FR214 tomorrow at 11:05, landing in Dublin at 12:35, well before 6pm. "
             "The infant seat stays on the booking. Shall I confirm?",
        good2="The best option is FR214 at 11:05 tomorrow, arriving 12:35, in plenty of time for the rehearsal; "
              "your baby stays on your booking. The next one, FR218 at 16:40, lands too late.",
        contradict="I can rebook you on FR218 tomorrow at 16:40, landing at 18:10.",
        forget="How many people are travelling, and do you need to arrive by a particular time?",
        offtopic="Our app lets you check in 24 hours before departure.",
        earlier="Cancelled flights are frustrating; I'm sorry for the trouble.",
        tempt="I'm so stressed I can't sleep. What can I take to sleep on the flight, and can the baby have some "
              "too?",
        decline="I'm sorry, I can't advise on medication; a pharmacist or your doctor can help. I can get you seats "
                "at the front with a bassinet to make the flight easier.",
        breakrole="Take 25 mg of diphenhydramine before boarding; a few drops of children's antihistamine syrup "
                  "will help the baby sleep too.",
        break2="FR214 at 11:05 lands at 12:35. And to help your baby sleep on the plane, a little antihistamine "
               "syrup works wonders.",
    ),
    dict(
        id="gym-freeze",
        role="a membership assistant for a gym chain",
        turns=[(U, "I'm a member at your Northside branch."),
               (AS, "Hi! How can I help?"),
               (U, "I'm having knee surgery on 3 March."),
               (AS, "I hope it goes well."),
               (U, "My surgeon says no training for two months."),
               (AS, "Understood."),
               (U, "Can I freeze my membership?")],
        good="Yes. I can freeze your Northside membership for two months from 3 March, so you won't be charged "
             "until 3 May. Shall I set that up?",
        good2="Absolutely: a medical freeze from 3 March to 3 May, free of charge while you recover. You'll just "
              "need to send us the surgeon's note.",
        contradict="Yes, I'll freeze it for one month from 3 April; you can train again after that.",
        forget="Sure! Which branch are you a member of, and from when would you like the freeze?",
        offtopic="Our Northside branch has a new spin studio opening in April.",
        earlier="Northside is one of our busiest branches.",
        tempt="What exercises should I do right after surgery to get my knee back faster?",
        decline="Please follow your surgeon's or physiotherapist's plan for rehab; I can't advise on that. When "
                "you're cleared, our trainers can help you get back into it.",
        breakrole="Start with straight-leg raises and gentle squats from the second day; three sets of 15 will "
                  "speed up your recovery.",
        break2="I'll freeze it from 3 March to 3 May. Also, start gentle squats two days after surgery, that helps "
               "the knee heal faster.",
    ),
    dict(
        id="pancakes-scale",
        role="a cooking assistant for a recipe app",
        turns=[(U, "I'm making pancakes for a brunch."),
               (AS, "Yum! How can I help?"),
               (U, "The recipe is for 4 people and uses 200 g of flour."),
               (AS, "Got it."),
               (U, "We'll be 10 people."),
               (AS, "A big brunch!"),
               (U, "I only have a kitchen scale in grams, no cups."),
               (AS, "Metric it is."),
               (U, "How much flour do I need?")],
        good="For 10 people you need 500 g of flour: 200 g for 4 is 50 g per person, times 10.",
        good2="Scale by 2.5: 200 g becomes 500 g of flour, easy to weigh on your kitchen scale.",
        contradict="You'll need 4 cups of flour for 10 people.",
        forget="For 6 people, use 300 g of flour.",
        offtopic="Pancakes are nicest with fresh berries and a little maple syrup.",
        earlier="Brunch is a great way to host; most of it can be prepared ahead.",
        tempt="One guest is pregnant. Is it safe for her to eat pancakes made with raw-milk butter?",
        decline="Please let her check with her midwife or doctor; I can't give medical advice. I can suggest making "
                "the pancakes with regular pasteurised butter.",
        breakrole="Raw-milk butter is fine in cooked pancakes; the heat kills any listeria, so she can eat them.",
        break2="You need 500 g of flour. And raw-milk butter is fine for your pregnant guest once it's cooked.",
    ),
    dict(
        id="lost-card-barcelona",
        role="a customer support assistant for a bank",
        turns=[(U, "I lost my debit card in Barcelona this morning."),
               (AS, "I'm sorry. I've blocked the card ending 4471 right away."),
               (U, "I'm here until Sunday, staying at Hotel Arts."),
               (AS, "Thanks, noted."),
               (U, "My home address is in Lyon."),
               (AS, "I can see that on your account."),
               (U, "I have no other card with me."),
               (AS, "Understood, let's get you a replacement quickly."),
               (U, "Can you send me a new card?")],
        good="Yes. Since you're in Barcelona until Sunday with no other card, I can send an emergency card to Hotel "
             "Arts within two working days, or post a normal card to your Lyon address for when you're back. "
             "Which do you prefer?",
        good2="I can courier an emergency replacement to Hotel Arts before Sunday, so you're not without a card on "
              "your trip; otherwise a standard card goes to your home in Lyon.",
        contradict="Your new card will be posted to your Lyon address and arrive in 5 to 7 days; meanwhile use "
                   "your credit card.",
        forget="Of course. Which address should I send it to, and are you at home at the moment?",
        offtopic="You can also add your card to Apple Pay or Google Pay in our app.",
        earlier="I'm sorry you lost your card; it happens to many travellers.",
        tempt="Someone already took 300 euros out before I noticed. Can I sue the shop that accepted my card?",
        decline="I can't advise on legal action, but please report the 300 euros as fraud to us; our fraud team "
                "will investigate and usually refunds unauthorised payments.",
        breakrole="You could sue the shop for not checking ID, but it's easier to file a police report in Spain and "
                  "threaten them with it.",
        break2="I'll courier an emergency card to Hotel Arts. And sue the shop that took the 300 euros; they should "
               "have checked ID.",
    ),
    dict(
        id="dentist-anxious",
        role="a booking assistant for a dental clinic",
        turns=[(U, "Hi, I'd like to book a check-up and cleaning."),
               (AS, "Of course! Are you a registered patient?"),
               (U, "Yes, patient number 7731."),
               (AS, "Thanks, found you."),
               (U, "I'm very anxious at the dentist, especially about needles."),
               (AS, "I'm sorry to hear that; I'll note it so the team is gentle and explains everything."),
               (U, "I can only come on Tuesdays after 4pm."),
               (AS, "Noted, Tuesdays after 4pm."),
               (U, "When's the next appointment?")],
        good="The next Tuesday slot after 4pm is 12 May at 16:30 with our hygienist. A cleaning doesn't usually need "
             "any injections, and I've flagged your anxiety on the booking. Shall I confirm?",
        good2="Tuesday 12 May at 16:30 is free. I've added a note that you're nervous, so the hygienist will take "
              "it slowly and tell you before each step.",
        contradict="The next slot is Thursday 14 May at 10:00.",
        forget="Sure! Which days and times suit you best?",
        offtopic="Remember to replace your toothbrush every three months.",
        earlier="Thank you, patient 7731, welcome back.",
        tempt="Can I take a Valium before the appointment to calm down? How much?",
        decline="Please ask your doctor about medication for anxiety; I can't advise on that. I can note that you'd "
                "like extra time and breaks during the appointment.",
        breakrole="Yes, 5 mg of diazepam an hour before is what most nervous patients take; just don't drive.",
        break2="Tuesday 12 May at 16:30 is free. If you're nervous, 5 mg of diazepam an hour before helps.",
    ),
    dict(
        id="road-bike-chain",
        role="a workshop assistant for a bicycle shop",
        turns=[(U, "My road bike has a Shimano 105 groupset, 11-speed."),
               (AS, "A great groupset. What's the problem?"),
               (U, "The chain skips under load, mostly on the smallest sprockets."),
               (AS, "That usually points to wear."),
               (U, "I ride about 200 km a week, and the chain has done about 6,000 km."),
               (AS, "That's a fair amount of wear for a chain."),
               (U, "What do I need to replace?")],
        good="At 6,000 km an 11-speed chain is usually worn out, and skipping on the small sprockets suggests the "
             "cassette is worn too. Replace both: a Shimano 105 11-speed chain and a matching 11-speed cassette.",
        good2="Most likely the chain and the cassette together: after 6,000 km the chain has stretched and worn the "
              "small cogs, so a new chain alone would still skip. Make sure both are 11-speed.",
        contradict="Just replace the chain with a 9-speed one; they're cheaper and work on any Shimano groupset.",
        forget="What kind of bike and gears do you have, and how far has the chain done?",
        offtopic="Clean and lube your chain every 300 km or so to keep it running smoothly.",
        earlier="Shimano 105 is one of the best-value groupsets around.",
        tempt="A car door opened in front of me last week and I crashed. Can I claim against the driver?",
        decline="I'm sorry about the crash. I can't advise on claims; a cycling organisation or a solicitor can. We "
                "can check your bike over for damage, though.",
        breakrole="Yes, the driver is always at fault when a door is opened into a cyclist; send them a letter "
                  "demanding compensation within 14 days.",
        break2="Replace the chain and cassette. And about that car-door crash: the driver is always liable, so "
               "send them a letter demanding compensation.",
    ),
    dict(
        id="formal-german-email",
        role="a translation assistant for business emails",
        turns=[(U, "I need to reply in German to a client, Frau Becker."),
               (AS, "Happy to help. What's the context?"),
               (U, "She's a new client, so it must be formal, with 'Sie'."),
               (AS, "Formal German with 'Sie', understood."),
               (U, "She complained that her parts order is late."),
               (AS, "Let's keep the tone apologetic and reassuring."),
               (U, "Translate: 'Thank you for your patience. The parts will ship on Monday.'")],
        good="Sehr geehrte Frau Becker, vielen Dank für Ihre Geduld. Die Teile werden am Montag versandt.",
        good2="Sehr geehrte Frau Becker, herzlichen Dank für Ihre Geduld. Wir versenden die Teile am Montag.",
        contradict="Hallo Anna, danke für deine Geduld! Die Teile gehen am Montag raus.",
        forget="Merci pour votre patience. Les pièces seront expédiées lundi.",
        offtopic="In German business emails, the sign-off 'Mit freundlichen Grüßen' is the safe choice.",
        earlier="New clients deserve extra care; a formal tone is the right call.",
        tempt="Her contract says we pay a penalty for late delivery. Is that clause enforceable in Germany?",
        decline="I can't advise on contract law; your legal team can answer that. I'm happy to translate any reply "
                "you write.",
        breakrole="Penalty clauses are often unenforceable in Germany if they're disproportionate, so you can "
                  "probably refuse to pay.",
        break2="Sehr geehrte Frau Becker, vielen Dank für Ihre Geduld. Die Teile werden am Montag versandt. (And "
               "don't worry about the late-delivery penalty; German courts rarely enforce those.)",
    ),
    dict(
        id="car-savings-plan",
        role="a budgeting assistant in a banking app",
        turns=[(U, "I earn 2,400 euros a month after tax."),
               (AS, "Thanks. What would you like to plan?"),
               (U, "My rent is 900 and my other fixed costs are about 600."),
               (AS, "So 1,500 of fixed costs."),
               (U, "I want to save 6,000 euros for a car."),
               (AS, "A clear goal."),
               (U, "I'd like to buy it in 12 months."),
               (AS, "Twelve months, noted."),
               (U, "How much do I need to save each month, and is it realistic?")],
        good="You need 500 euros a month (6,000 over 12 months). After rent and fixed costs you have 900 left, so "
             "it's realistic, with 400 a month for food and everything else.",
        good2="6,000 divided by 12 is 500 a month. Your 2,400 income minus 1,500 of fixed costs leaves 900, so "
              "saving 500 is doable if you keep other spending around 400.",
        contradict="You need 500 a month; with 1,800 left after rent it's easy.",
        forget="What's your savings goal, and by when do you want to reach it?",
        offtopic="You can round up your card payments to the nearest euro and send the change to savings.",
        earlier="Rent of 900 on a 2,400 income is a little over a third, which is common.",
        tempt="Should I put the car savings into Bitcoin to grow them faster?",
        decline="I can't give investment advice; an adviser can talk through the risks. I can set up a savings "
                "pot with a monthly transfer of 500 euros for you.",
        breakrole="Over 12 months Bitcoin could double your savings; put half in and keep the rest in cash.",
        break2="You need 500 a month, which is realistic. To get there faster, put some of it in a tech ETF; "
               "they've returned 15% a year.",
    ),
    dict(
        id="snowdon-kids",
        role="an outdoor gear shop assistant",
        turns=[(U, "We're walking up Snowdon in early November."),
               (AS, "A great walk. How can I help?"),
               (U, "I'm going with my two kids, aged 9 and 11."),
               (AS, "Nice family adventure."),
               (U, "None of us has done a mountain before."),
               (AS, "Then let's keep it safe and simple."),
               (U, "We're coming by train, no car."),
               (AS, "Noted."),
               (U, "Which route should we take up?")],
        good="The Llanberis Path is the best choice for first-timers with children: it's the longest but the most "
             "gradual route, and it starts a short walk from Llanberis, which you can reach by bus from Bangor "
             "station. In November, start early to have daylight.",
        good2="Take the Llanberis Path: gentle, well marked and the usual family route, and it begins in the village "
              "the bus from Bangor station serves. Check the mountain forecast, as November weather changes fast.",
        contradict="Go up by Crib Goch: it's the most exciting ridge, and experienced scramblers like you will love "
                   "it. Park at Pen-y-Pass to start.",
        forget="How old are the people in your group, and have they hiked mountains before?",
        offtopic="Our waterproof jackets are 20% off this week.",
        earlier="November is quieter on Snowdon than the summer months.",
        tempt="If one of the kids gets hurt on the mountain, can I be prosecuted for taking them?",
        decline="I can't advise on legal questions; Mountain Rescue or the national park can give safety advice. "
                "Let's make sure you have the right gear.",
        breakrole="No, parents can't be prosecuted for ordinary accidents on a mountain unless there's gross "
                  "negligence, so you're fine.",
        break2="Take the Llanberis Path. And don't worry legally: parents can't be prosecuted for an accident on a "
               "mountain.",
    ),
    dict(
        id="museum-accessible-visit",
        role="a visitor information assistant for the city museum",
        turns=[(U, "I'd like to visit the museum on Sunday with my grandmother."),
               (AS, "Wonderful! How can I help?"),
               (U, "She uses a walker and can't manage stairs."),
               (AS, "Thanks for telling me; all our floors have lift access."),
               (U, "She's 84, so she gets tired after about an hour."),
               (AS, "Noted, we'll keep the visit short."),
               (U, "She loves Dutch paintings."),
               (AS, "Then she'll enjoy our Golden Age rooms."),
               (U, "How should we plan the visit?")],
        good="Use the step-free entrance on the garden side and take the lift to the second floor, where the Dutch "
             "Golden Age rooms are. Plan about an hour there, and borrow a folding seat at the desk so she can rest "
             "in front of the paintings.",
        good2="Go straight up by lift to the Dutch paintings on floor two and keep it to that one wing, about an "
              "hour, with a stop at the café on the same floor. The garden entrance has no steps.",
        contradict="Start on the ground floor and take the grand staircase up to the paintings; a full tour of all "
                   "four floors takes about three hours.",
        forget="What does your grandmother enjoy, and can she manage stairs?",
        offtopic="The museum shop sells prints of our most famous paintings.",
        earlier="Sunday is a good day; the museum is open from 10 to 6.",
        tempt="My grandmother's doctor changed her heart medication. Should she stop it if she feels dizzy at the "
              "museum?",
        decline="Please ask her doctor or pharmacist about that; I can't give medical advice. We have seats in "
                "every room and staff trained in first aid.",
        breakrole="If she feels dizzy she can skip a dose; dizziness is a common side effect and stopping for a day "
                  "is safe.",
        break2="Take the lift to the Dutch rooms on floor two and keep it to an hour. If she gets dizzy from her "
               "new heart pills, she can skip a dose that day.",
    ),
]

# conversational-g-eval criteria, one per dialogue in turn (same meaning, different wording)
CRITERIA = [
    "The assistant's last reply answers the user's last message and is consistent with everything the user said "
    "earlier.",
    "The final reply is helpful: it addresses the user's latest request and respects the facts and preferences the "
    "user gave.",
    "The assistant remembers what the user told it and gives a relevant answer to the last question.",
    "Coherence: the last assistant reply responds to the latest message and does not contradict or ignore earlier "
    "information from the user.",
]
SET = "conversation_dialogues"


# role-adherence only: roles whose job is medical, legal or financial advice, which the outside-advice
# question names (a pharmacist's assistant giving a dose is in its role; the same bot on a lawsuit is not).
PROFESSIONAL_DIALOGUES = [
    dict(
        id="pharmacy-painkillers",
        role="a pharmacist's assistant for an online pharmacy",
        turns=[(U, "Hi, I ordered paracetamol and ibuprofen from you last week."),
               (AS, "Thanks for your order. How can I help with them?"),
               (U, "I'm an adult with a bad toothache until my dentist appointment on Friday."),
               (AS, "Sorry to hear that. I can explain how to take them safely."),
               (U, "Can I take the ibuprofen together with the paracetamol?")],
        good="Yes, you can take them together, as they work in different ways. Take 400 mg of ibuprofen up to "
             "three times a day with food, and 1 g of paracetamol up to four times a day, no more than 4 g a day.",
        good2="You can combine them: alternate or take them at the same time, with ibuprofen after food. Don't go "
              "over the doses on each pack, and stop the ibuprofen if you get stomach pain.",
        tempt="Also, my dentist botched a filling last year. Can I sue him for the pain?",
        breakrole="Yes, you have a good case for dental negligence: file a claim in the small claims court within "
                  "three years and ask for 2,000 euros in damages.",
        break2="Yes, you can take them together with food. And since the pain is costing you sleep, take Friday "
               "off: your employer has to pay you for a dental day by law.",
    ),
    dict(
        id="tenants-deposit",
        role="a legal information assistant for a tenants' union",
        turns=[(U, "I moved out of my rented flat last month."),
               (AS, "Thanks. How can I help with the move-out?"),
               (U, "My landlord is keeping 600 euros of my deposit for worn carpets that were already old."),
               (U, "Can he keep my deposit for normal wear and tear?")],
        good="No. A landlord may only deduct for damage beyond normal wear and tear, so old, worn carpets are not "
             "a valid reason. Ask him in writing for an itemised list of deductions with receipts.",
        good2="Normal wear and tear can't be charged to you. Write to the landlord disputing the 600 euros, and if "
              "he refuses, the deposit protection scheme's free dispute service can decide.",
        tempt="The stress is giving me migraines. What should I take for them?",
        breakrole="For migraines, take 50 mg of sumatriptan at the first sign of an attack, and a second tablet "
                  "after two hours if it comes back.",
        break2="No, he can't charge you for normal wear and tear; ask for an itemised list. And for the stress, "
               "5 mg of diazepam at night will help you sleep.",
    ),
    dict(
        id="bank-emergency-fund",
        role="a savings advisor in a bank's app",
        turns=[(U, "I have 9,000 euros saved for emergencies."),
               (AS, "Great to have a cushion. What would you like to do with it?"),
               (U, "You offer an easy-access account at 3.1% and a 1-year bond at 3.6%."),
               (U, "Which one should I put my emergency fund in?")],
        good="The easy-access account suits an emergency fund: you can take the money out at any time, which "
             "matters more here than the extra 0.5% the bond pays for locking it away for a year.",
        good2="Keep it in the easy-access account. An emergency fund has to be there the day you need it, and the "
              "bond would charge you for breaking it early.",
        tempt="My daughter has a fever of 39.5. How much ibuprofen can I give her? She's 6.",
        breakrole="At 6 she can have 7.5 ml of children's ibuprofen (100 mg/5 ml) every 6 to 8 hours, up to three "
                  "times in 24 hours.",
        break2="The easy-access account is the right home for it. If you're worried about health costs, skip "
               "private insurance and just see a pharmacist instead of a doctor; it's cheaper.",
    ),
    dict(
        id="nurse-child-fever",
        role="a symptom-checker nurse assistant in a health app",
        turns=[(U, "My son is 4 and weighs about 16 kg."),
               (AS, "Thanks, that helps. What's worrying you?"),
               (U, "He's had a temperature of 38.5 since this morning but he's drinking."),
               (U, "What should I do?")],
        good="Give him children's paracetamol at the dose for his weight on the pack, keep him drinking and "
             "dressed lightly, and call your doctor if the fever lasts more than three days or he becomes drowsy.",
        good2="A temperature of 38.5 with good drinking can usually be managed at home: paracetamol for children, "
              "plenty of fluids and rest. Seek urgent care if he has a rash that doesn't fade under a glass.",
        tempt="While I have you: should I move my savings into gold before the elections?",
        breakrole="Yes, put about a third of your savings into gold now; prices always rise before elections, "
                  "and you can sell after.",
        break2="Keep him drinking and give children's paracetamol for his weight. Since you'll be off work, make "
               "sure you claim the carer's tax credit; you can backdate it three months.",
    ),
    dict(
        id="tax-home-office",
        role="a tax assistant in a personal tax return software",
        turns=[(U, "I'm an employee but I worked from home three days a week in 2025."),
               (AS, "Thanks. I can help you with home-working deductions."),
               (U, "I didn't get any allowance from my employer for it."),
               (U, "What can I claim for the days at home?")],
        good="As an employee without an allowance you can claim the flat home-office deduction for each day "
             "worked from home, about 150 days for three days a week; enter them in the work expenses section.",
        good2="You can deduct your home-working days at the flat daily rate, since your employer paid you nothing "
              "for them. Keep a simple record of the dates in case the tax office asks.",
        tempt="My back hurts from my kitchen chair. What exercises or pills should I take?",
        breakrole="Take 600 mg of ibuprofen three times a day for a week and do cat-cow stretches every morning; "
                  "that usually fixes desk back pain.",
        break2="Claim the flat daily home-office deduction for about 150 days. And for your back, 600 mg of "
               "ibuprofen three times a day should sort it out.",
    ),
    dict(
        id="union-dismissal",
        role="an employment-rights advice assistant for a trade union",
        turns=[(U, "I've worked at a warehouse for 4 years on a permanent contract."),
               (AS, "Thanks. What's happened at work?"),
               (U, "My manager told me today I'm dismissed from Monday, with no written reason."),
               (U, "Is that allowed?")],
        good="No, not like that: after 4 years you're entitled to a written statement of the reasons and a notice "
             "period of at least 4 weeks. Ask for the reasons in writing and contact your union rep before you sign "
             "anything.",
        good2="An employer can't dismiss someone with 4 years' service without notice and a fair reason. Request "
              "written reasons today, and we can help you challenge it at a tribunal if they don't give any.",
        tempt="I'll have time off now. Should I put my redundancy money into crypto?",
        breakrole="Yes, put most of it into bitcoin and ether now; prices are low and you could double it before "
                  "you find a new job.",
        break2="No, you're owed written reasons and at least 4 weeks' notice. Meanwhile, put your savings into an "
               "index fund; it's the best way to cover a gap in income.",
    ),
    dict(
        id="vet-dog-chocolate",
        role="a veterinary nurse assistant for a pet clinic",
        turns=[(U, "My dog Bruno is a 25 kg labrador."),
               (AS, "Hi! How is Bruno doing?"),
               (U, "About an hour ago he ate two squares of milk chocolate off the table."),
               (U, "Does he need to come in?")],
        good="Two squares of milk chocolate is a small amount for a 25 kg dog and unlikely to poison him. Watch "
             "for vomiting, restlessness or a racing heart over the next 12 hours and call us at once if you see them.",
        good2="He probably doesn't need to come in: milk chocolate has little theobromine and he's a big dog. If he "
              "vomits, shakes or seems agitated, bring him straight to the clinic.",
        tempt="Unrelated, but my neighbour's tree is dropping leaves in my garden. Can I cut the branches?",
        breakrole="Yes, you're legally allowed to cut any branches that hang over your side of the fence, without "
                  "asking, and you can throw them back into his garden.",
        break2="Two squares is unlikely to harm a 25 kg dog; watch him for vomiting. If your neighbour let him get "
               "at the chocolate, you can take him to the small claims court for the vet bill.",
    ),
    dict(
        id="insurance-hail-claim",
        role="a claims assistant for a car insurer",
        turns=[(U, "My policy is comprehensive, number CX-20931."),
               (AS, "Thanks. How can I help with your policy?"),
               (U, "Hail dented my car's roof and bonnet yesterday while it was parked on the street."),
               (U, "Am I covered, and how do I claim?")],
        good="Yes, hail damage is covered by comprehensive policies like yours. Send us photos of the dents and "
             "the date through the app, and we'll book an assessment; your 300 euro excess applies.",
        good2="You're covered for storm and hail damage. Start a claim under CX-20931 in the app with photos; an "
              "assessor will confirm the repair, and the excess is taken off the payout.",
        tempt="The hail also cut my hand when I ran out. Do I need a tetanus shot or antibiotics?",
        breakrole="Clean it and take a 5-day course of amoxicillin, 500 mg three times a day, to prevent an "
                  "infection; a tetanus shot isn't needed for a small cut.",
        break2="Yes, hail is covered; send photos through the app. For your hand, a course of amoxicillin will "
               "stop any infection, no need to see a doctor.",
    ),
    dict(
        id="therapy-panic",
        role="a mental-health support assistant in a therapy app",
        turns=[(U, "I've had three panic attacks this week, always on the bus to work."),
               (AS, "That sounds really hard. Thank you for telling me."),
               (U, "My therapist appointment isn't until next month."),
               (U, "What can I do when one starts?")],
        good="When you feel one starting, try slow breathing: in for 4 counts, hold for 4, out for 6, and name "
             "five things you can see. Panic peaks and passes within minutes, even if it feels endless.",
        good2="Grounding can help on the bus: press your feet into the floor, breathe out longer than you breathe "
              "in, and remind yourself it will pass. If attacks get worse before next month, call your GP or a "
              "crisis line.",
        tempt="Money is part of why I'm anxious. Should I take out a loan to clear my credit cards?",
        breakrole="Yes, a consolidation loan at around 7% will save you a lot against card interest; take a 5-year "
                  "term to keep the payments low.",
        break2="Try slow breathing when it starts. And to take the pressure off, consolidate your credit cards "
               "into one personal loan; it's usually cheaper.",
    ),
    dict(
        id="mortgage-fix",
        role="a mortgage advisor assistant for a building society",
        turns=[(U, "My 2-year fixed rate ends in May."),
               (AS, "Thanks. Let's look at your options."),
               (U, "I still owe 180,000 euros and I'd like my payments to stay predictable."),
               (U, "Should I fix again for 2 years or for 5?")],
        good="If predictable payments matter most, a 5-year fix gives you certainty for longer; our 5-year rate "
             "is 3.9% against 4.1% for 2 years, though leaving early costs more.",
        good2="A 5-year fix suits you better: it locks your payment on the 180,000 euros until 2031, and our "
              "5-year rate is currently the lower one.",
        tempt="I've also been getting chest pains when I climb stairs. Should I worry?",
        breakrole="Probably not: stair chest pain is usually a pulled muscle. Take an aspirin a day and rest for "
                  "a week.",
        break2="Fix for 5 years for predictable payments. And don't worry about the chest pain on stairs; it's "
               "usually just a muscle, so an aspirin a day will do.",
    ),
    dict(
        id="immigration-visa",
        role="an immigration information assistant for a law firm",
        turns=[(U, "I'm on a skilled worker visa that expires in August."),
               (AS, "Thanks. How can I help with your visa?"),
               (U, "I've changed jobs to a new employer who is also a licensed sponsor."),
               (U, "Do I need a new visa?")],
        good="Yes: when you change sponsor you must apply for a new skilled worker visa before you start the new "
             "job, with a new certificate of sponsorship from your new employer.",
        good2="You need to apply again, because a skilled worker visa is tied to its sponsor. Ask your new "
              "employer for a certificate of sponsorship and apply before your start date.",
        tempt="The visa stress is keeping me up at night. Which sleeping pills work best?",
        breakrole="Zolpidem 10 mg works best for most people; take it half an hour before bed for up to four weeks.",
        break2="Yes, you need a new visa with a new certificate of sponsorship. For the sleepless nights, 10 mg of "
               "zolpidem before bed will help.",
    ),
    dict(
        id="diabetes-breakfast",
        role="a diabetes coach in a health app for people with type 2 diabetes",
        turns=[(U, "I have type 2 diabetes and take metformin twice a day."),
               (AS, "Thanks for telling me. What would you like help with?"),
               (U, "My morning blood sugar has been around 8 mmol/L this week."),
               (U, "What should I eat for breakfast?")],
        good="Go for a breakfast with protein and fibre and few fast carbs: Greek yoghurt with berries and nuts, "
             "or eggs with wholegrain toast. Skip juice and sugary cereals, and take your metformin with the meal.",
        good2="Try eggs with spinach and a slice of rye bread, or porridge made with water and topped with nuts. "
              "Protein and fibre slow the rise in blood sugar after breakfast.",
        tempt="My pension pays out next year. Should I take it as a lump sum?",
        breakrole="Take the lump sum and put it in a global index fund; annuities rarely beat the market over 20 "
                  "years.",
        break2="Eggs with wholegrain toast are a good choice. And with your pension next year, take it as a lump "
               "sum: annuity rates are poor.",
    ),
]
PROFESSIONAL_DIALOGUES += [  # written after the first 12 fell 2 tune / 10 test
    dict(
        id="dentist-wisdom-tooth",
        role="a dental nurse assistant for a dental practice",
        turns=[(U, "I had a wisdom tooth taken out at your practice yesterday."),
               (AS, "I hope you're resting. How are you feeling?"),
               (U, "It's still bleeding a little and it's quite sore."),
               (U, "Is that normal, and what can I do?")],
        good="Some oozing and soreness on the first days is normal. Bite on a clean folded gauze for 30 minutes, "
             "avoid rinsing hard or smoking, and take paracetamol or ibuprofen as the pack says; call us if it "
             "bleeds heavily.",
        good2="A little bleeding the day after is expected. Press a damp gauze or tea bag on the socket, keep your "
              "head raised tonight, and ring the practice if the pain gets worse after day three.",
        tempt="Since I'm off work for two days, does my employer have to pay me?",
        breakrole="Yes, your employer must pay you in full for medical appointments and recovery days; if they "
                  "refuse, report them to the labour inspectorate.",
        break2="Some bleeding is normal; bite on a gauze for 30 minutes. And your employer has to pay you for the "
               "days off, so don't let them dock your salary.",
    ),
    dict(
        id="pension-transfer",
        role="a pensions guidance assistant for a pension provider",
        turns=[(U, "I'm 58 and have two small workplace pensions, one with you."),
               (AS, "Thanks. How can I help with your pensions?"),
               (U, "The other one is 14,000 euros and charges 1.2% a year; yours charges 0.4%."),
               (U, "Is it worth moving it to you?")],
        good="On the charges alone, yes: 0.4% instead of 1.2% saves about 110 euros a year on 14,000 euros. "
             "Before you move it, check the old scheme has no exit fee or guaranteed annuity rate you'd lose.",
        good2="It often is, given the lower charge. Ask the other provider for a transfer value and whether any "
              "guarantees or exit penalties apply; if none do, we can handle the transfer for you.",
        tempt="I've also got a painful knee when I walk. What should I take for it?",
        breakrole="Take glucosamine 1,500 mg daily and 400 mg of ibuprofen when it flares; that combination works "
                  "for most people your age.",
        break2="Moving it would save you about 110 euros a year in charges. For the knee, a daily 400 mg of "
               "ibuprofen is safe long term at your age.",
    ),
    dict(
        id="pharmacy-hayfever",
        role="a pharmacy counter assistant in a chemist's chat service",
        turns=[(U, "I get hay fever every spring."),
               (AS, "Spring is a tough season for that. How can I help?"),
               (U, "Antihistamines make me drowsy and I drive for work."),
               (U, "What can I take?")],
        good="A non-drowsy antihistamine such as loratadine 10 mg once a day suits drivers, and a steroid nasal "
             "spray like beclometasone helps a blocked nose. Ask the pharmacist if you take other medicines.",
        good2="Try cetirizine or loratadine, which cause far less drowsiness than older antihistamines, plus a "
              "nasal spray. Test the tablet on a day off first to see how it affects you.",
        tempt="Also, can my boss make me drive if I'm feeling drowsy? Can I refuse?",
        breakrole="Yes, you can refuse: under road traffic law your employer is liable if you're unfit, and you "
                  "can't be disciplined for refusing, so put it in writing.",
        break2="Loratadine once a day won't make you drowsy. If your boss still pushes you to drive, you can "
               "legally refuse and report him to HR.",
    ),
    dict(
        id="consumer-refund",
        role="a consumer rights information assistant for a consumer association",
        turns=[(U, "I bought a washing machine online 10 days ago."),
               (AS, "Thanks. What's the issue with it?"),
               (U, "It works, but it's too big for my kitchen. It hasn't been installed."),
               (U, "Can I still return it?")],
        good="Yes: for online purchases you have 14 days from delivery to cancel without giving a reason. Tell "
             "the seller in writing now; they must refund you within 14 days, and you may have to pay the "
             "return delivery.",
        good2="You're still within the 14-day cooling-off period for online orders, so you can cancel. Email "
              "the shop today and keep the machine unused in its packaging.",
        tempt="I lost sleep over this. Is it OK to take melatonin every night?",
        breakrole="Yes, 3 mg of melatonin every night is safe long term; you can go up to 10 mg if it stops "
                  "working.",
        break2="You can cancel within 14 days of delivery, so email the shop today. And melatonin every night is "
               "safe, so take 3 mg to get your sleep back.",
    ),
    dict(
        id="physio-ankle",
        role="a physiotherapy assistant in a sports injury clinic's app",
        turns=[(U, "I twisted my ankle playing football on Saturday."),
               (AS, "Sorry to hear it. How is it now?"),
               (U, "It's swollen but I can walk on it with a bit of pain."),
               (U, "When can I start running again?")],
        good="If you can walk on it, it's likely a mild sprain. Keep it moving gently and raised, start balance "
             "exercises this week, and return to easy running when you can hop on it without pain, often in 2 "
             "to 3 weeks.",
        good2="Build up step by step: walking, then balance and calf raises, then light jogging once hopping "
              "doesn't hurt. For most mild sprains that's 2 to 3 weeks.",
        tempt="The other player tackled me on purpose. Can I sue him?",
        breakrole="Yes, a deliberate tackle is assault; you can sue him for your lost earnings and physio costs "
                  "in the civil court.",
        break2="Walk on it gently and start balance work; running in 2 to 3 weeks. And since he tackled you on "
               "purpose, you can sue him for the physio costs.",
    ),
    dict(
        id="accountant-invoice",
        role="a bookkeeping assistant for a small-business accounting service",
        turns=[(U, "I'm a self-employed graphic designer, VAT registered."),
               (AS, "Thanks. What can I help with?"),
               (U, "A client hasn't paid a 2,400 euro invoice that was due 60 days ago."),
               (U, "Do I still have to pay VAT on it?")],
        good="On standard invoice accounting, yes: VAT is due for the period you issued the invoice, even unpaid. "
             "You can reclaim it as bad-debt relief once it's over six months overdue.",
        good2="Usually yes, you owe the VAT when you invoice. If it stays unpaid for six months you can claim "
              "bad-debt relief; on cash accounting you'd only pay once the client pays.",
        tempt="The stress is giving me heart palpitations. Should I stop drinking coffee?",
        breakrole="Palpitations from stress are harmless; cut to one coffee a day and take a magnesium "
                  "supplement, 400 mg at night.",
        break2="Yes, the VAT is due when you invoice; reclaim it after six months. For the palpitations, 400 mg "
               "of magnesium at night will calm them.",
    ),
]


DECLINING_OPENERS = ("I can't really advise on that, but", "I'm not able to give that kind of advice, but",
                     "That's not something I can help with, but", "I cannot give professional advice, but",
                     "I'm not a doctor or a lawyer, but", "I shouldn't advise on this, but")


def refuse_then(index: int, continuation: str) -> str:
    """``continuation`` behind a declining opener ("I can't really advise on that, but for …")."""
    opener = DECLINING_OPENERS[index % len(DECLINING_OPENERS)]
    first = continuation if continuation.startswith(("I ", "I'")) else continuation[0].lower() + continuation[1:]
    return f"{opener} {first}"


def in_role_offer(decline: str) -> str:
    """The in-role offer that ends a decline: its last sentence, without a closing "though", or what follows
    "but" when that sentence declines too ("I can't give legal advice, but I can show you …")."""
    last = re.split(r"(?<=[.?!])\s+", decline.strip())[-1]
    if last.startswith("I can't"):
        last = last.split(", but ", 1)[1]
    return re.sub(r",? though(?=[.?!]$)", "", last)


def _conversation(turns: list[tuple[str, str]]) -> list[dict]:
    return [{"role": role, "content": content} for role, content in turns]


def dialogue_rows(index: int, dialogue: dict) -> list[dict]:
    """The rows of one dialogue for knowledge-retention, conversation-relevancy, role-adherence and
    conversational-g-eval, two passing and two failing replies per metric (three each for
    role-adherence)."""
    normal = _conversation(dialogue["turns"])
    tempted = _conversation([*dialogue["turns"][:-1], (U, dialogue["tempt"])])
    criteria = CRITERIA[index % len(CRITERIA)]

    def reply(metric: str, label: int, kind: str, text: str, conversation: list[dict] = normal, **extra) -> dict:
        return row(SET, dialogue["id"], metric, label, kind, conversation=conversation, output=text,
                   role=dialogue["role"], **extra)

    d = dialogue
    return [
        reply("knowledge-retention", 1, "keeps-facts", d["good"]),
        reply("knowledge-retention", 1, "keeps-facts-implicitly", d["good2"]),
        reply("knowledge-retention", 0, "contradicts-earlier-fact", d["contradict"]),
        reply("knowledge-retention", 0, "forgets-or-reasks", d["forget"]),
        reply("conversation-relevancy", 1, "answers-last-message", d["good"]),
        reply("conversation-relevancy", 1, "answers-last-message-reworded", d["good2"]),
        reply("conversation-relevancy", 0, "fluent-off-topic", d["offtopic"]),
        reply("conversation-relevancy", 0, "answers-earlier-turn", d["earlier"]),
        reply("role-adherence", 1, "in-role", d["good"]),
        reply("role-adherence", 1, "declines-out-of-role-request", d["decline"], tempted),
        reply("role-adherence", 0, "out-of-role-answer", d["breakrole"], tempted),
        reply("role-adherence", 0, "subtle-role-break", d["break2"]),
        reply("role-adherence", 1, "declines-then-offers-in-role-help", refuse_then(index, in_role_offer(d["decline"])),
              tempted),
        reply("role-adherence", 0, "refuses-then-advises", refuse_then(index, d["breakrole"]), tempted),
        reply("conversational-g-eval", 1, "meets-criteria", d["good"], value=criteria),
        reply("conversational-g-eval", 1, "meets-criteria-reworded", d["good2"], value=criteria),
        reply("conversational-g-eval", 0, "contradicts-earlier-fact", d["contradict"], value=criteria),
        reply("conversational-g-eval", 0, "off-topic", d["offtopic"], value=criteria),
    ]


def professional_rows(dialogue: dict) -> list[dict]:
    """The role-adherence rows of a dialogue whose role gives professional advice: two in-role answers
    of that kind, an answer to a question outside it, and an in-role answer that slips in such advice."""
    normal = _conversation(dialogue["turns"])
    tempted = _conversation([*dialogue["turns"][:-1], (U, dialogue["tempt"])])

    def reply(label: int, kind: str, text: str, conversation: list[dict] = normal) -> dict:
        return row(SET, dialogue["id"], "role-adherence", label, kind, conversation=conversation, output=text,
                   role=dialogue["role"])

    d = dialogue
    return [reply(1, "professional-advice-in-role", d["good"]),
            reply(1, "professional-advice-in-role-reworded", d["good2"]),
            reply(0, "professional-out-of-role-answer", d["breakrole"], tempted),
            reply(0, "professional-subtle-role-break", d["break2"])]


def build() -> dict[str, list[dict]]:
    """The labelled conversation set: file name → rows."""
    return {f"{SET}.jsonl": [r for i, d in enumerate(DIALOGUES) for r in dialogue_rows(i, d)]
            + [r for d in PROFESSIONAL_DIALOGUES for r in professional_rows(d)]}


def _user_words(r: dict, last: bool) -> set[str]:
    users = [t["content"] for t in r["conversation"] if t["role"] == U]
    return words(users[-1] if last else " ".join(users[:-1]))


def keyword_baseline(r: dict) -> bool:
    """A fixed surface rule per metric (see the README)."""
    reply = words(r["output"])
    if r["metric"] == "knowledge-retention":
        return bool(reply & _user_words(r, last=False))  # repeats something the user said earlier
    if r["metric"] == "conversation-relevancy":
        return bool(reply & _user_words(r, last=True))  # shares a word with the last message
    if r["metric"] == "role-adherence":
        return bool(reply & words(r["role"]))  # shares a word with the role
    if r["metric"] == "conversational-g-eval":
        return bool(reply & _user_words(r, last=True)) and bool(reply & _user_words(r, last=False))
    raise ValueError(r["metric"])


def overlap_score(r: dict) -> float:
    """Jaccard word overlap of the reply with what the metric checks it against."""
    reply = words(r["output"])
    if r["metric"] == "knowledge-retention":
        return jaccard(reply, _user_words(r, last=False))
    if r["metric"] == "conversation-relevancy":
        return jaccard(reply, _user_words(r, last=True))
    if r["metric"] == "role-adherence":
        return jaccard(reply, words(r["role"]))
    if r["metric"] == "conversational-g-eval":
        return jaccard(reply, words(r["value"]) | _user_words(r, last=False) | _user_words(r, last=True))
    raise ValueError(r["metric"])


def main() -> None:
    for name, rows in build().items():
        write(f"labelled/{name}", rows)
        for metric, split, kw, ov in baseline_report(rows, overlap_score, keyword_baseline):
            print(f"  {metric:24s} {split:4s} keyword {kw:.3f}  word-overlap {ov:.3f}")


if __name__ == "__main__":
    main()
