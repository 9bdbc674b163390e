"""Write the labelled transcripts of audio-disclaimer-check, audio-consent-check and audio-call-category:
disclaimer.jsonl, consent.jsonl, call_category.jsonl (its first line holds the categories).

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


def main() -> None:
    with (HERE / "call_category.jsonl").open("w") as out:
        out.write(json.dumps({"categories": CATEGORIES}) + "\n")
        for row in category_rows():
            out.write(json.dumps(row) + "\n")
    print(f"call_category.jsonl: {len(category_rows())} rows, 4 categories")
    for name, rows in (("disclaimer", disclaimer_rows()), ("consent", consent_rows())):
        with (HERE / f"{name}.jsonl").open("w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
        positives = sum(r["label"] for r in rows)
        print(f"{name}.jsonl: {len(rows)} rows ({positives} positive), "
              f"tune {sum(r['split'] == 'tune' for r in rows)}, test {sum(r['split'] == 'test' for r in rows)}")


if __name__ == "__main__":
    main()
