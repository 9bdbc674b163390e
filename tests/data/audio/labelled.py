"""Write the labelled transcripts of audio-disclaimer-check, audio-consent-check, audio-call-category,
audio-conversation-coherence, audio-false-intent-identification and audio-sentiment: disclaimer.jsonl,
consent.jsonl, call_category.jsonl (its first line holds the categories), coherence.jsonl, intent.jsonl and
sentiment.jsonl (the last three are described at their builders: coherence_rows, intent_rows, sentiment_rows),
and the spoken-language calls of audio-language and audio-language-switch: language.jsonl and language_switch.jsonl
(language_rows, switch_rows: which clip each turn plays; calls.py composes the audio).

Each row is one call transcript (``{speaker, start, end, text}`` segments written here by hand, timed at
0.4 s per word with 0.6 s gaps) with the statement(s) to check, ``within_s``, the label (said / consented or
not) and the kind of row:

- disclaimers: ``exact`` and ``paraphrase`` said by the agent in time (positive); ``near_miss`` (the agent
  says something close that omits or changes the key clause: negated, another number, the topic without
  the commitment), ``wrong_speaker`` (the customer says it), ``too_late`` (after ``within_s``), ``absent``.
- consent: the agent asks (its words or a paraphrase) and the customer agrees in time (positive); the
  customer refuses, answers unclearly, is never asked (says yes to something else), agrees too late, or
  the agent asks something else close to the request (``near_miss``).

The split is by statement — the tune rows' statements never appear in the test rows — so a threshold
calibrated on tune is judged on statements it has not seen. Run: python tests/data/audio/labelled.py
"""

from __future__ import annotations

import json
from pathlib import Path

HERE = Path(__file__).resolve().parent

OPENING = [("agent", "Thank you for calling Northwind, my name is Sam."),
           ("customer", "Hi Sam, I have a question about my account.")]
FILLER = [("agent", "Of course, let me pull up your details."), ("customer", "Sure, take your time."),
          ("agent", "Could you confirm your date of birth for me?"), ("customer", "It is the third of May."),
          ("agent", "Thank you, I have found your account."), ("customer", "Great, that was quick."),
          ("agent", "I can see your last payment went through."), ("customer", "Good, I was worried about it."),
          ("agent", "Is there anything else on your mind today?"), ("customer", "Yes, one more thing actually."),
          ("agent", "Go on, I am listening."), ("customer", "I wanted to check the renewal date.")]
CLOSING = [("agent", "Is there anything else I can help with?"), ("customer", "No, that is all, thanks."),
           ("agent", "Have a lovely day, goodbye.")]

# statement, paraphrases (positive), near misses (negative), how the customer would say it (wrong speaker)
DISCLAIMERS = [
    ("This call is recorded for quality and training purposes.",
     ["Just so you know, we record our calls to improve quality and to train our staff.",
      "Please be aware that this conversation is being recorded for training and quality reasons.",
      "For quality and training, this call will be recorded."],
     ["This call is not recorded.",
      "We care a lot about quality and our training team works hard on it."],
     "Is this call recorded for quality and training purposes?"),
    ("This is not financial advice.",
     ["Please note that nothing I say should be taken as financial advice.",
      "I can't give you financial advice, this is general information only.",
      "Just to be clear, this does not count as financial advice."],
     ["This is personal financial advice tailored to you.",
      "Our financial advisers are available on weekdays."],
     "I know this is not financial advice."),
    ("You have the right to cancel within 14 days.",
     ["You can cancel the contract within fourteen days at no cost.",
      "If you change your mind, you may cancel within 14 days of signing.",
      "There is a fourteen day window in which you are entitled to cancel."],
     ["You have the right to cancel within 30 days.",
      "You can cancel whenever you like by calling us."],
     "So I have the right to cancel within 14 days?"),
    ("Interest rates may change and your monthly payments could go up.",
     ["Please be aware the rate is variable, so your monthly payments might increase.",
      "Rates can change over time, which could raise the amount you pay each month.",
      "Your monthly repayments could rise if interest rates change."],
     ["Interest rates are fixed, so your monthly payments will never change.",
      "Your monthly payments are due on the first of each month."],
     "Could my monthly payments go up if interest rates change?"),
    ("I am an automated assistant, not a human.",
     ["Just so you know, you are talking to a virtual assistant, not a person.",
      "I should mention that I am an AI system rather than a human agent.",
      "You are speaking with an automated assistant and not a real person."],
     ["I am a human agent and I am here to help.",
      "Our assistants are available around the clock."],
     "Wait, are you an automated assistant and not a human?"),
    ("Your personal data will be processed in line with our privacy policy.",
     ["We handle your personal information according to our privacy policy.",
      "Any personal data you share is processed as described in our privacy policy.",
      "Your details will be used in line with our privacy notice."],
     ["Please have your policy number ready.",
      "Your personal data will be sold to third parties."],
     "Will my personal data be processed in line with your privacy policy?"),
    ("There is a cancellation fee of 50 dollars.",
     ["Cancelling will cost you a fee of fifty dollars.",
      "Please note there is a 50 dollar charge if you cancel.",
      "If you cancel, we charge a fifty dollar cancellation fee."],
     ["There is a cancellation fee of 25 dollars.",
      "There is no cancellation fee at all."],
     "Is there a cancellation fee of 50 dollars?"),
    ("Past performance does not guarantee future returns.",
     ["Remember that how a fund did before is no guarantee of how it will do in the future.",
      "Previous results do not guarantee future returns.",
      "Returns in the past are not a promise of returns in the future."],
     ["Past performance guarantees strong future returns.",
      "The fund performed well in the past five years."],
     "I understand past performance does not guarantee future returns."),
]

# request, paraphrases, near-miss requests (the agent asks something else close by)
CONSENTS = [
    ("Do you agree to this call being recorded?",
     ["Is it okay with you if we record this call?", "Are you happy for this conversation to be recorded?"],
     "Would you like to hear about our call recording service?"),
    ("Do you consent to us running a credit check?",
     ["Are you happy for us to do a credit check on you?", "Can we go ahead and run a credit check?"],
     "Have you ever had a credit check declined before?"),
    ("Can we send you marketing emails?",
     ["Would you like to receive our marketing emails?", "Is it alright if we email you special offers?"],
     "Did you get the marketing email we sent last week?"),
    ("Do you accept the terms and conditions?",
     ["Do you agree to the terms and conditions I just read out?", "Are you happy to accept our terms?"],
     "Have you had a chance to read the terms and conditions?"),
    ("May I access your account to make this change?",
     ["Is it okay if I go into your account to change that?", "Do I have your permission to access your account?"],
     "Did you make this change to your account yourself?"),
    ("Do you authorise us to charge your card 49 dollars today?",
     ["Can I charge the 49 dollars to your card today?", "Are you okay with a charge of forty nine dollars on your "
                                                         "card today?"],
     "Would you prefer to pay the 49 dollars by bank transfer?"),
]
YES = ["Yes, that's fine.", "Sure, go ahead.", "Okay.", "Yeah, no problem.", "I agree.", "Of course."]
NO = ["No, I'd rather not.", "No thanks.", "I don't agree to that.", "Not really, no."]
UNCLEAR = ["Why do you need that?", "Hmm, what does that mean?", "Can you repeat the question?"]


def timeline(lines: list[tuple[str, str]]) -> list[dict]:
    segments, clock = [], 0.0
    for speaker, text in lines:
        length = round(0.4 * len(text.split()), 2)
        segments.append({"speaker": speaker, "start": round(clock, 2), "end": round(clock + length, 2), "text": text})
        clock += length + 0.6
    return segments


def disclaimer_rows() -> list[dict]:
    rows = []
    for number, (statement, paraphrases, near, customer_says) in enumerate(DISCLAIMERS):
        split = "tune" if number % 2 == 0 else "test"
        early = lambda text: [*OPENING, ("agent", text), *FILLER[:4], *CLOSING]  # noqa: E731
        cases = [("exact", True, early(statement))]
        cases += [("paraphrase", True, early(p)) for p in paraphrases]
        cases += [("near_miss", False, early(n)) for n in near]
        cases += [("wrong_speaker", False, [*OPENING, ("agent", "Let me check that for you."),
                                             ("customer", customer_says), ("agent", "Good question, one moment."),
                                             *FILLER[:4], *CLOSING])]
        cases += [("too_late", False, [*OPENING, *FILLER, ("agent", paraphrases[0]), *CLOSING])]
        cases += [("absent", False, [*OPENING, *FILLER[:6], *CLOSING])]
        for i, (kind, label, lines) in enumerate(cases):
            rows.append({"id": f"d{number}-{i}-{kind}", "split": split, "statement": statement, "within_s": 30,
                         "kind": kind, "label": label, "transcript": timeline(lines)})
    return rows


def consent_rows() -> list[dict]:
    rows = []
    for number, (request, paraphrases, near) in enumerate(CONSENTS):
        split = "tune" if number % 2 == 0 else "test"
        asks = [request, *paraphrases]
        cases = [("asked_yes", True, [*OPENING, ("agent", asks[k % 3]), ("customer", YES[(number + k) % 6]),
                                      *FILLER[:4], *CLOSING]) for k in range(4)]
        cases += [("asked_yes_later_in_turn", True, [*OPENING, ("agent", f"Before we go on, one question. {asks[1]}"),
                                                     ("customer", YES[(number + 4) % 6]), *CLOSING])]
        cases += [("refused", False, [*OPENING, ("agent", asks[k]), ("customer", NO[(number + k) % 4]), *CLOSING])
                  for k in range(2)]
        cases += [("unclear", False, [*OPENING, ("agent", asks[2]), ("customer", UNCLEAR[number % 3]), *CLOSING])]
        cases += [("never_asked", False, [*OPENING, *FILLER[:8], ("agent", "Shall I go ahead and look at that?"),
                                          ("customer", "Yes, please."), *CLOSING])]
        cases += [("near_miss", False, [*OPENING, ("agent", near), ("customer", "Yes."), *CLOSING])]
        cases += [("too_late", False, [*OPENING, *FILLER, *FILLER, ("agent", asks[0]), ("customer", "Yes, sure."),
                                       *CLOSING])]
        for i, (kind, label, lines) in enumerate(cases):
            rows.append({"id": f"c{number}-{i}-{kind}", "split": split, "statement": request, "within_s": 60,
                         "kind": kind, "label": label, "transcript": timeline(lines)})
    return rows


CATEGORIES = {
    "billing": "a question or problem about a charge, an invoice, a payment or a refund",
    "technical": "something does not work: a fault, an error, an outage or a broken device",
    "cancellation": "the caller wants to cancel, close or end their contract or subscription",
    "sales": "the caller wants to buy, order, upgrade or add a product or plan",
}
# what the customer says about why they call; the last lines of each are the hard ones (another category's
# words in passing)
CALLERS = {
    "billing": ["I was charged twice for my subscription this month.", "My invoice shows a fee I don't recognise.",
                "I paid last week but the payment is still showing as due.", "When will I get the refund you promised?",
                "Why is my bill forty dollars higher than usual?", "I think you took the money from the wrong card.",
                "Can you explain the late payment charge on my statement?", "I never received an invoice for March.",
                "The direct debit went out on the wrong date.", "You charged me for a device I sent back.",
                "My internet works fine, I just want to know why the bill went up.",
                "I upgraded last month and now I'm being billed for both plans."],
    "technical": ["My internet keeps dropping every few minutes.", "The app crashes as soon as I open it.",
                  "I get an error code 503 when I try to log in.", "The router light is flashing red and nothing works.",
                  "My phone has no signal at home since yesterday.", "The TV box freezes on the loading screen.",
                  "Emails are not arriving in my inbox anymore.", "The speed is really slow in the evenings.",
                  "My new modem won't connect to the network.", "The screen stays black after the update.",
                  "I paid my bill but the service is still down, the line is dead.",
                  "Before I think about cancelling, can you fix the constant outages?"],
    "cancellation": ["I want to cancel my contract.", "Please close my account, I'm moving abroad.",
                     "I'd like to end my subscription at the end of the month.", "How do I terminate my broadband plan?",
                     "I don't need the service anymore, please stop it.", "I'm leaving for another provider, cancel it.",
                     "Can you cancel my membership today?", "I want out of this contract as soon as possible.",
                     "Please don't renew my plan, I want to finish it.", "My father passed away and I need to close his account.",
                     "The bills are too high so I want to cancel everything.",
                     "The internet never works, just close the account."],
    "sales": ["I'd like to upgrade to the faster fibre plan.", "Can I add a second line to my account?",
              "I want to buy the new phone you advertised.", "Do you have a family plan I could sign up for?",
              "I'm interested in adding the sports channels.", "How much would it cost to order another router?",
              "I want to switch to your unlimited data plan.", "Can I get the premium package instead of the basic one?",
              "I'd like to order a TV subscription as well.", "I saw your offer and want to sign up for it.",
              "My bill is fine, but I want to add more data to my plan.",
              "Instead of cancelling, could I move to a bigger plan?"],
}


def category_rows() -> list[dict]:
    rows = []
    for category, lines in CALLERS.items():
        for i, line in enumerate(lines):
            transcript = timeline([("agent", "Thank you for calling Northwind, how can I help?"), ("customer", line),
                                   ("agent", "I understand, let me look into that for you."),
                                   ("customer", "Thank you.")])
            rows.append({"id": f"k-{category}-{i}", "split": "tune" if i % 2 == 0 else "test",
                         "category": category, "kind": "hard" if i >= len(lines) - 2 else "plain",
                         "transcript": transcript})
    return rows


# ---- audio-conversation-coherence --------------------------------------------------------------------------------
# request, answer, follow-up, answer to it, a reply contradicting the first answer, an off-topic reply, a new
# question of the customer's own (a topic change the customer asks for: still coherent) and its answer
COHERENCE = [
    ("I returned the blue jacket two weeks ago and I'm still waiting for my refund.",
     "I can see the return arrived on Monday, and the refund of 60 dollars was sent to your card yesterday.",
     "How long until I see it on my statement?", "It usually shows up within three to five working days.",
     "We have not received the jacket yet, so no refund has been issued.",
     "By the way, our winter collection launches next week with some lovely new coats.",
     "While I have you, can I change the email address on my account?",
     "Of course, I've changed it to the new address you just gave me."),
    ("My internet has been down since this morning.",
     "There is an outage in your area, and our engineers expect it to be fixed by 4 pm today.",
     "Will I get any compensation for the downtime?",
     "Yes, a credit for one day will be added to your next bill automatically.",
     "There is no outage in your area and everything looks fine on our side.",
     "Have you thought about upgrading your phone? The new models are on sale this week.",
     "Also, can you tell me when my contract ends?", "Your contract ends on the 30th of June next year."),
    ("I need to move my flight to Paris from Friday to Saturday.",
     "I can move you to the Saturday flight at 9 am, and there is a change fee of 40 euros.",
     "Can I keep my window seat?", "Yes, I have kept seat 14A for you on the Saturday flight.",
     "Your flight is still on Friday, I have not changed anything and there is no Saturday flight.",
     "Our loyalty programme has a new tier with free lounge access, it's worth a look.",
     "And can I add a checked bag to the booking?", "Yes, I've added one checked bag for 30 euros."),
    ("I've lost my debit card and I need to block it.",
     "I have blocked the card ending 4421 and ordered you a replacement.",
     "When will the new card arrive?", "It should arrive by post within five working days.",
     "The card ending 4421 is still active, so you can keep using it as normal.",
     "While you are here, our savings account now pays four percent interest.",
     "Could you also raise my daily cash limit?", "I've raised your daily cash withdrawal limit to 500 pounds."),
    ("My order was supposed to arrive yesterday but it hasn't come.",
     "The courier had a delay, and your parcel is out for delivery today.",
     "Will I need to be home to sign for it?",
     "No signature is needed, they can leave it with a neighbour or in a safe place.",
     "Your order hasn't been shipped yet, it's still sitting in our warehouse.",
     "Our customer survey will be sent to you by email next week, we value your feedback.",
     "Can I also change the delivery address for my next order?",
     "Yes, your next order will go to the new address you gave."),
    ("I'd like to book an appointment with Doctor Patel.",
     "Doctor Patel has a free slot on Tuesday at 10 in the morning, and I've put you in it.",
     "Do I need to bring anything?", "Please bring your insurance card and a list of your current medication.",
     "Doctor Patel has no appointments available for the next two months.",
     "The clinic car park is being repainted, and the cafe downstairs has a new menu.",
     "Could you also renew my prescription for inhalers?",
     "I've sent the repeat prescription request to the doctor for approval."),
    ("My phone bill is 30 dollars higher than usual this month.",
     "That is because of roaming charges from your trip to Spain last week.",
     "Can those charges be removed?", "As a one-off goodwill gesture I can refund half of the roaming charges.",
     "You have not used your phone abroad, so there are no roaming charges on your bill.",
     "Did you know you can watch our streaming service on up to four screens?",
     "Can I also set up paperless billing?", "Done, you'll receive your bills by email from next month."),
    ("I can't log in to my online banking, I forgot my password.",
     "I've sent a password reset link to your registered email address.",
     "How long is the link valid for?", "The link is valid for 24 hours, after that you'd need a new one.",
     "I can't send you a reset link because you don't have an email address registered with us.",
     "Our branches will be closed on the bank holiday Monday.",
     "Could you also tell me my current balance?", "Your current account balance is 1,240 pounds."),
    ("I want to cancel my hotel booking for next weekend.",
     "I've cancelled booking 5521, and because it's more than 48 hours ahead there is no charge.",
     "Will I get my deposit back?", "Yes, the 50 dollar deposit will be back on your card within a week.",
     "I'm afraid cancelling now means you lose the full amount, the booking was non-refundable.",
     "Our rooftop bar has live music every Saturday night.",
     "Can I book the same hotel for next month instead?",
     "Yes, I've reserved a double room for the 14th to the 16th of next month."),
    ("I want to check the status of my car insurance claim.",
     "Your claim was approved on Monday and the garage has been authorised to start repairs.",
     "Do I have to pay the excess?", "Yes, the 250 dollar excess is paid to the garage when you collect the car.",
     "Your claim is still being assessed and has not been approved yet.",
     "We also offer pet insurance with a discount for existing customers.",
     "Could you also add my wife as a named driver?", "Sure, I've added her as a named driver from today."),
    ("I broke my leg and I'd like to freeze my gym membership.",
     "I'm sorry to hear that, I've frozen your membership for three months at no cost.",
     "Will my monthly payments stop during that time?",
     "Yes, no payments will be taken until the freeze ends in March.",
     "Your membership is active and payments will continue as normal every month.",
     "Our new spin classes start at 6 am and they're really popular.",
     "Can I also update my card details?", "Yes, the new card will be used from the next payment."),
    ("The app crashes every time I try to upload a photo.",
     "That's a known bug in version 3.2, and updating to 3.3 from the app store fixes it.",
     "I've updated it now, is there anything else I should do?",
     "Just restart your phone once, and uploads should work again.",
     "There's no known issue with photo uploads, and version 3.2 is the latest one.",
     "You might enjoy our new dark mode theme, it's in the settings menu.",
     "Also, how do I delete an old album?", "Open the album, tap the three dots and choose delete album."),
]
GREETING = ("agent", "Thank you for calling Northwind, how can I help?")
THANKS = [("customer", "Okay, thank you."), ("agent", "You're welcome, have a good day.")]


def coherence_rows() -> list[dict]:
    """Five calls per scenario: coherent, the customer changing the topic (coherent), the agent contradicting
    its earlier answer, drifting off topic instead of answering the follow-up, or answering another
    scenario's request (a non sequitur). Split by scenario."""
    rows = []
    for number, (request, answer, follow, answer2, contradiction, drift, switch, switch_answer) in \
            enumerate(COHERENCE):
        other = COHERENCE[(number + 2) % len(COHERENCE)][1]  # same parity: stays in the split
        split = "tune" if number % 2 == 0 else "test"
        start = [GREETING, ("customer", request), ("agent", answer)]
        cases = [("coherent", True, [*start, ("customer", follow), ("agent", answer2), *THANKS]),
                 ("customer_switch", True, [*start, ("customer", switch), ("agent", switch_answer), *THANKS]),
                 ("contradiction", False, [*start, ("customer", follow), ("agent", contradiction), *THANKS]),
                 ("drift", False, [*start, ("customer", follow), ("agent", drift), *THANKS]),
                 ("non_sequitur", False, [GREETING, ("customer", request), ("agent", other),
                                          ("customer", follow), ("agent", answer2), *THANKS])]
        for i, (kind, label, lines) in enumerate(cases):
            rows.append({"id": f"h{number}-{i}-{kind}", "split": split, "kind": kind, "label": label,
                         "transcript": timeline(lines)})
    return rows


# ---- audio-false-intent-identification -----------------------------------------------------------------------------
# the caller's request, the agent restating the same intent (a paraphrase), the agent acting on a neighbouring
# intent; then the tool calls: (the right tool, a neighbouring tool) for the scenarios that have them
INTENTS = [
    ("I want to cancel my order from last week.", "Sure, I'll cancel that order for you now.",
     "Sure, I'll start a return for that order for you now.", ("cancel_order", "create_return")),
    ("I need to change the delivery address on my order.", "Okay, I'm updating the shipping address on the order.",
     "Okay, I'm updating the billing address on your account.", None),
    ("Can you reset my voicemail PIN?", "Let me reset the PIN for your voicemail.",
     "Let me reset your online account password.", ("reset_voicemail_pin", "reset_password")),
    ("I'd like to upgrade my plan to unlimited data.", "I'll move you onto the unlimited data plan today.",
     "I'll add a one-off five gigabyte data pack today.", None),
    ("I want to report my card stolen.", "I'm blocking your card now and flagging it as stolen.",
     "I'm ordering you a new card because your current one has expired.", ("block_card", "renew_expired_card")),
    ("I'd like to book a table for Friday evening.", "I've reserved a table for you on Friday evening.",
     "I've cancelled your reservation for Friday evening.", None),
    ("I'd like a refund for the damaged headphones.", "I'll process a refund for the damaged headphones.",
     "I'll send you a replacement pair of headphones.", ("issue_refund", "send_replacement")),
    ("Can you pause my subscription for a month?", "I'll put your subscription on hold for one month.",
     "I'll cancel your subscription at the end of this month.", ("pause_subscription", "cancel_subscription")),
    ("I want to dispute a charge on my credit card.", "I'm opening a dispute for that charge now.",
     "I'm setting up a payment plan for your card balance now.", None),
    ("I'd like to transfer 200 dollars to my savings account.",
     "I'm moving 200 dollars from your current account into your savings.",
     "I'm moving 200 dollars out of your savings into your current account.", None),
    ("Please add my daughter as an authorised user.", "I'll add your daughter as an authorised user on the account.",
     "I'll remove the authorised user from your account.", None),
    ("I need to renew my car insurance.", "I'll renew your car insurance policy for another year.",
     "I'll get you a quote for home insurance.", None),
    ("Can you switch my bill to paperless?", "I'm switching you to email billing, so no more paper bills.",
     "I'm setting up automatic payments for your bill.", None),
    ("I'd like to change my flight to an earlier one.", "I'm moving you to the earlier flight.",
     "I'm upgrading your seat to business class.", None),
    ("I want to close my savings account.",
     "I'll close your savings account and move the balance to your current account.",
     "I'll open a new savings account for you.", None),
    ("My internet is slow, can you run a line test?", "I'm running a test on your line now.",
     "I'm booking an engineer to install a new phone line.", None),
    ("I'd like to update my phone number on file.", "I'm updating the phone number on your profile.",
     "I'm updating the email address on your profile.", ("update_phone_number", "update_email")),
    ("Please unsubscribe me from your marketing texts.", "I've removed you from our marketing text messages.",
     "I've signed you up for our marketing newsletter.", None),
    ("Can you extend my rental car by two days?", "I'll extend your car rental by two more days.",
     "I'll arrange for the car to be collected today.", ("extend_rental", "schedule_collection")),
    ("I need a copy of my last invoice.", "I'll email you a copy of your most recent invoice.",
     "I'll email you a quote for a new service.", None),
    ("I want to move my number to another provider.",
     "I'll generate the code you need to take your number to your new provider.",
     "I'll set up a new phone number for you with us.", None),
    ("Please reschedule my delivery to Thursday.", "I'll rearrange your delivery for Thursday.",
     "I'll cancel your delivery.", ("reschedule_delivery", "cancel_delivery")),
]
OPENERS = ["", "Hi, good morning. ", "Hello there, hope you're well. "]


def intent_rows() -> list[dict]:
    """Per scenario: the agent restating the caller's intent (positive) or acting on a neighbouring one
    (negative); for the scenarios with tools, also a neutral agent reply with the right or the neighbouring
    tool call. Some callers greet before their request (the metric must find the request). Split by
    scenario."""
    rows = []
    for number, (request, same, neighbour, tools) in enumerate(INTENTS):
        split = "tune" if number % 2 == 0 else "test"
        said = OPENERS[number % 3] + request

        def call(agent_line, tool=None, said=said):
            lines = [GREETING, ("customer", said), ("agent", agent_line), ("customer", "Great, thanks."),
                     ("agent", "All done, is there anything else?"), ("customer", "No, that's all.")]
            tools_called = {"tool_calls": [{"name": tool, "arguments": {}}]} if tool else {}
            return {"transcript": timeline(lines), **tools_called}

        cases = [("restated", True, call(same)), ("neighbour", False, call(neighbour))]
        if tools:
            cases += [("tool_right", True, call("Okay, let me sort that out for you.", tools[0])),
                      ("tool_neighbour", False, call("Okay, let me sort that out for you.", tools[1]))]
        for i, (kind, label, found) in enumerate(cases):
            rows.append({"id": f"i{number}-{i}-{kind}", "split": split, "kind": kind, "label": label,
                         "request": request, **found})
    return rows


# ---- audio-sentiment -----------------------------------------------------------------------------------------------
# the customer's three turns; the agent's turns are the same neutral lines in every call
SENTIMENT = {
    "positive": [
        ("plain", ["Hi, I just wanted to say the new router is brilliant.", "Yes, everything is much faster now.",
                   "Thanks so much, you've been really helpful."]),
        ("plain", ["Hello, I'm calling to book my next service, I was really happy with the last one.",
                   "Perfect, Tuesday works great.", "Wonderful, thank you, have a great day."]),
        ("plain", ["Hi, the engineer came yesterday and fixed everything.", "He was lovely and very quick.",
                   "Honestly, best service I've had in years."]),
        ("mixed", ["I was really annoyed this morning when the app crashed.", "But you sorted it out in two minutes.",
                   "I'm so relieved, thank you, that's fantastic."]),
        ("plain", ["Hi, I'd like to upgrade, I love the plan I'm on.", "Oh that's a great price.",
                   "Brilliant, I'm really pleased with that."]),
        ("plain", ["Hello! I got my refund already, that was quick.", "Yes, all good on my side.",
                   "Thanks a million, you guys are great."]),
        ("mixed", ["I was worried I'd lost my booking.", "Oh, you found it? That's amazing.",
                   "Thank you so much, you've made my day."]),
        ("plain", ["Hi, I just moved house and the setup was so easy.", "Yes, the instructions were really clear.",
                   "Great job, I'll recommend you to my friends."]),
        ("plain", ["Good morning, I'm calling to renew, I've been very happy with you.", "That sounds perfect.",
                   "Lovely, thanks for your help."]),
        ("plain", ["Hi, the new phone arrived early, I'm delighted.", "It works perfectly.",
                   "Thank you, I really appreciate it."]),
        ("mixed", ["Hi, no complaints at all, I just have a quick question.", "Oh nice, that's not a problem then.",
                   "Excellent, thank you, that's great news."]),
        ("plain", ["Hello, I wanted to thank the agent who helped me last week.", "She went above and beyond.",
                   "Please pass on my thanks, it was wonderful."]),
        ("plain", ["Hi, I'd like to add another line, the service has been great.",
                   "Fantastic, that's cheaper than I expected.", "Perfect, thanks a lot."]),
        ("mixed", ["I nearly cancelled last month, to be honest.", "But this new deal is exactly what I wanted.",
                   "I'm really happy now, thank you."]),
        ("plain", ["Hiya, the fix you suggested worked a treat.", "Everything is running smoothly now.",
                   "Cheers, you're a star."]),
        ("plain", ["Hello, I'm really excited about the new fibre plan.", "Wow, installation tomorrow? Amazing.",
                   "Thank you, that's brilliant service."]),
    ],
    "neutral": [
        ("plain", ["Hi, I'd like to check the date of my next bill.", "Okay, the fifteenth.", "Alright, thanks, bye."]),
        ("plain", ["Hello, I'm calling to update my address.", "It's 12 Mill Lane, Leeds.", "Okay, that's all."]),
        ("plain", ["Hi, can you tell me what time the store closes today?", "Six o'clock, got it.", "Thanks."]),
        ("plain", ["Good afternoon, I need the reference number for my claim.", "Could you spell that again?",
                   "Okay, I've written it down."]),
        ("plain", ["Hi, I want to know how much data I have left this month.", "Right, four gigabytes.",
                   "Okay, thank you."]),
        ("plain", ["Hello, I'd like to change my payment date to the first of the month.", "Yes, the first.",
                   "Fine, thanks."]),
        ("plain", ["Hi, is the branch on King Street open on Saturdays?", "Until noon, okay.", "Alright, goodbye."]),
        ("plain", ["Hi, I'm calling about order 5531, where is it now?", "So it's at the depot.",
                   "Okay, I'll wait for it then."]),
        ("plain", ["Hello, what documents do I need to open an account?", "A passport and a utility bill.",
                   "Understood, thanks."]),
        ("mixed", ["Hi, I just need to confirm my appointment is on Monday.", "Right, Monday at nine.",
                   "Okay, no problem, see you then."]),
        ("plain", ["Hello, can you read me the last three transactions?", "Okay, and the second one?",
                   "Right, that's all I needed."]),
        ("plain", ["Hi, I'd like to switch from monthly to annual billing.", "And the annual price is?",
                   "Okay, go ahead then."]),
        ("mixed", ["Hi, I'm calling to report a change of name after my marriage.",
                   "I can send the certificate by email.", "Okay, I'll do that today."]),
        ("plain", ["Hello, what is the outstanding balance on my loan?", "Okay, and the interest rate?",
                   "Noted, thanks."]),
        ("mixed", ["Hi, I want to check if my parcel needs a signature.", "So someone needs to be home.",
                   "Okay, fine."]),
        ("plain", ["Good morning, I'm ringing to give my meter reading.", "It's 4 5 2 1 8.",
                   "That's everything, bye."]),
    ],
    "negative": [
        ("plain", ["This is the third time I'm calling about the same problem.", "Nobody ever calls me back.",
                   "I'm really fed up with this."]),
        ("sarcasm", ["Oh great, another hour on hold, just what I needed.", "Fantastic service as always.",
                     "Wonderful, really, thanks for nothing."]),
        ("plain", ["My internet has been down for four days and I work from home.", "That's not good enough.",
                   "I'm furious, I want compensation."]),
        ("polite", ["I appreciate you trying, but this still doesn't work.", "I'm very disappointed, honestly.",
                    "I think I'll have to look at other providers."]),
        ("plain", ["You charged me twice and I want my money back now.", "This is ridiculous.",
                   "I'm absolutely disgusted with how I've been treated."]),
        ("sarcasm", ["Brilliant, so the engineer didn't turn up again.", "I just love waiting in all day for nothing.",
                     "Really impressive stuff."]),
        ("plain", ["I'm so frustrated, the app keeps logging me out.", "I've tried everything you said already.",
                   "This is a waste of my time."]),
        ("plain", ["The parcel arrived broken and nobody is helping me.", "I've sent three emails with no answer.",
                   "I'm really angry about this."]),
        ("polite", ["Thank you for listening, but I'm still very unhappy.", "The bill is wrong again this month.",
                    "I'm sorry, but this is unacceptable."]),
        ("sarcasm", ["Oh sure, wonderful, another price increase.", "Because my bill wasn't high enough already.",
                     "Thanks a lot, really."]),
        ("plain", ["I've been lied to by your sales team.", "They promised me a discount that never came.",
                   "I want to make a formal complaint."]),
        ("plain", ["This is a nightmare, my card was blocked abroad.", "I couldn't pay for my hotel.",
                   "I'm so stressed and upset."]),
        ("plain", ["Your technician was rude and left a mess.", "I'm not happy at all.",
                   "I don't want him in my house again."]),
        ("sarcasm", ["Great, just great, the refund still isn't here.", "Six weeks, what a fantastic system.",
                     "Sure, I'll just keep waiting forever, shall I?"]),
        ("plain", ["I'm cancelling because the service is terrible.", "The signal drops all the time.",
                   "Honestly, the worst company I've dealt with."]),
        ("polite", ["Thanks, but no, that doesn't solve anything.", "I'm still without a working phone.",
                    "I'm losing patience with you people."]),
    ],
}
AGENT_NEUTRAL = ["Thank you for calling Northwind, how can I help?", "I see, let me check that for you.",
                 "Thank you, I have noted that.", "Is there anything else I can help with?"]


def sentiment_rows() -> list[dict]:
    """The customer's sentiment (positive, neutral, negative) over three turns between the agent's neutral
    lines; kinds: plain, mixed (the other polarity's words in passing), sarcasm (praise words meaning the
    opposite) and polite complaints. Tune = even rows of each class, test = odd."""
    rows = []
    for label, calls in SENTIMENT.items():
        for i, (kind, said) in enumerate(calls):
            lines = [("agent", AGENT_NEUTRAL[0])]
            for k, text in enumerate(said):
                lines += [("customer", text), ("agent", AGENT_NEUTRAL[k + 1])]
            rows.append({"id": f"s-{label}-{i}-{kind}", "split": "tune" if i % 2 == 0 else "test",
                         "sentiment": label, "kind": kind, "transcript": timeline(lines)})
    return rows


LANGUAGES = ("en", "de", "nl", "es", "pt", "fr", "it")
FAR = {"en": "de", "de": "es", "nl": "fr", "es": "en", "pt": "de", "fr": "en", "it": "nl"}  # another family
CLOSE = [("es", "pt"), ("pt", "es"), ("de", "nl"), ("nl", "de"), ("it", "es"), ("es", "it"), ("fr", "it"),
         ("it", "fr")]  # (spoken, the close language allowed instead)
MIXED = [("en", "es"), ("de", "en"), ("fr", "de"), ("it", "en"), ("es", "pt"), ("nl", "de")]
# which build.LANGUAGE_LINES line each turn plays (agent lines 0 and 2, customer lines 1 and 3)
THREE = [(0, 1, 2), (0, 3, 2), (2, 1, 0), (2, 3, 0)]
FOUR = [(0, 1, 2, 3), (2, 1, 0, 3), (0, 3, 2, 1)]


def _turns(languages: list[str], lines: tuple[int, ...]) -> list[list]:
    return [["agent" if line % 2 == 0 else "customer", language, line]
            for language, line in zip(languages, lines, strict=True)]


def _split(rows: list[dict]) -> list[dict]:
    """Tune / test alternating within each (rate, kind) group, fixed before any row was run."""
    seen: dict[tuple, int] = {}
    for row in rows:
        group = (row["rate"], row["kind"])
        row["split"] = "tune" if seen.get(group, 0) % 2 == 0 else "test"
        seen[group] = seen.get(group, 0) + 1
    return rows


def language_rows() -> list[dict]:
    """audio-language: 3-turn calls (agent, customer, agent) with an allow-list ``value``; ``label`` = the call
    should pass: all of its speech is in an allowed language. Kinds: ``right`` (value [L]), ``right_of_two``
    (value [L, another]), ``wrong`` (a language of another family allowed), ``close`` (es vs pt, de vs nl, it vs
    es, fr vs it), ``mixed`` (agent in one language, then the customer and the agent in another: passes only when
    both are allowed). 16 kHz rows, and 8 kHz telephone-band rows (300–3400 Hz) reported apart."""
    rows: list[dict] = []

    def add(rate, kind, languages, lines, value, label):
        rows.append({"id": f"L{rate // 1000}k-{kind}-{len(rows)}", "rate": rate, "kind": kind,
                     "turns": _turns(languages, lines), "value": value, "label": label})

    for i, lang in enumerate(LANGUAGES):
        add(16_000, "right", [lang] * 3, THREE[i % 4], [lang], True)
        add(16_000, "right_of_two", [lang] * 3, THREE[(i + 1) % 4], [lang, FAR[lang]], True)
        add(16_000, "wrong", [lang] * 3, THREE[(i + 2) % 4], [FAR[lang]], False)
    for i, (spoken, allowed) in enumerate(CLOSE):
        add(16_000, "close", [spoken] * 3, THREE[(i + 3) % 4], [allowed], False)
    for i, (first, second) in enumerate(MIXED):
        add(16_000, "mixed", [first, second, second], THREE[i % 4], [first, second], True)
        add(16_000, "mixed", [first, second, second], THREE[(i + 1) % 4], [first] if i % 2 else [second], False)
    for i, lang in enumerate(LANGUAGES):
        add(8_000, "right", [lang] * 3, THREE[(i + 2) % 4], [lang], True)
    for i, (spoken, allowed) in enumerate([*CLOSE[:4], ("en", "de"), ("fr", "en"), ("it", "nl")]):
        add(8_000, "close" if i < 4 else "wrong", [spoken] * 3, THREE[i % 4], [allowed], False)
    add(8_000, "mixed", ["en", "es", "es"], THREE[0], ["en", "es"], True)
    add(8_000, "mixed", ["de", "fr", "fr"], THREE[1], ["de"], False)
    return _split(rows)


def switch_rows() -> list[dict]:
    """audio-language-switch: 4-turn calls (agent, customer, agent, customer); ``switches`` = the true count,
    ``switch_turns`` = the turns where one happens (its time is that turn's start), ``label`` = passes (no
    switch). Kinds: ``none`` (one language), ``mid`` (the first two turns in one language, the last two in
    another), ``customer_last`` (only the customer's last turn switches), ``bilingual`` (the agent in one
    language, the customer in another: three switches); the ``mid`` and ``customer_last`` pairs include close
    languages (es/pt, de/nl, it/es)."""
    rows: list[dict] = []
    far = [("en", "es"), ("de", "fr"), ("es", "en"), ("fr", "de"), ("it", "en"), ("nl", "en"), ("pt", "fr"),
           ("en", "de")]
    close = [("es", "pt"), ("pt", "es"), ("de", "nl"), ("nl", "de"), ("it", "es"), ("es", "it")]

    def add(rate, kind, languages, lines, switch_turns):
        rows.append({"id": f"S{rate // 1000}k-{kind}-{len(rows)}", "rate": rate, "kind": kind,
                     "turns": _turns(languages, lines), "switches": len(switch_turns),
                     "switch_turns": switch_turns, "label": not switch_turns})

    for i, lang in enumerate(LANGUAGES):
        add(16_000, "none", [lang] * 4, FOUR[i % 3], [])
        add(16_000, "none", [lang] * 4, FOUR[(i + 1) % 3], [])
    for i, lang in enumerate(("en", "de", "es", "fr")):
        add(16_000, "none", [lang] * 4, FOUR[(i + 2) % 3], [])
    for i, (a, b) in enumerate(far + close):
        add(16_000, "mid", [a, a, b, b], FOUR[i % 3], [2])
    for i, (a, b) in enumerate([*far[:4], *close[:2]]):
        add(16_000, "customer_last", [a, a, a, b], FOUR[(i + 1) % 3], [3])
    for i, (a, b) in enumerate([("en", "es"), ("fr", "en"), ("de", "it"), ("pt", "nl")]):
        add(16_000, "bilingual", [a, b, a, b], FOUR[i % 3], [1, 2, 3])
    for i, lang in enumerate(LANGUAGES):
        add(8_000, "none", [lang] * 4, FOUR[(i + 2) % 3], [])
    for i, (a, b) in enumerate([*far[:4], *close[:3]]):
        add(8_000, "mid", [a, a, b, b], FOUR[(i + 2) % 3], [2])
    return _split(rows)


def main() -> None:
    with (HERE / "call_category.jsonl").open("w") as out:
        out.write(json.dumps({"categories": CATEGORIES}) + "\n")
        for row in category_rows():
            out.write(json.dumps(row) + "\n")
    print(f"call_category.jsonl: {len(category_rows())} rows, 4 categories")
    for name, rows in (("disclaimer", disclaimer_rows()), ("consent", consent_rows()),
                       ("coherence", coherence_rows()), ("intent", intent_rows())):
        with (HERE / f"{name}.jsonl").open("w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        positives = sum(r["label"] for r in rows)
        print(f"{name}.jsonl: {len(rows)} rows ({positives} positive), "
              f"tune {sum(r['split'] == 'tune' for r in rows)}, test {sum(r['split'] == 'test' for r in rows)}")
    rows = sentiment_rows()
    with (HERE / "sentiment.jsonl").open("w") as out:
        for row in rows:
            out.write(json.dumps(row) + "\n")
    print(f"sentiment.jsonl: {len(rows)} rows ({', '.join(f'{k} {len(v)}' for k, v in SENTIMENT.items())}), "
          f"tune {sum(r['split'] == 'tune' for r in rows)}, test {sum(r['split'] == 'test' for r in rows)}")
    for name, rows in (("language", language_rows()), ("language_switch", switch_rows())):
        with (HERE / f"{name}.jsonl").open("w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        print(f"{name}.jsonl: {len(rows)} rows ({sum(r['label'] for r in rows)} pass), "
              f"tune {sum(r['split'] == 'tune' for r in rows)}, test {sum(r['split'] == 'test' for r in rows)}, "
              f"8 kHz {sum(r['rate'] == 8000 for r in rows)}")


if __name__ == "__main__":
    main()
