"""Contextual calibration of a yes/no judge (Zhao et al., 2021, "Calibrate Before Use").

A small judge's P(yes) carries a prior that depends on the question as much as on the text judged:
asked whether a sentence is part of the job of "a maths tutor for children", it says yes more readily
than for "a claims assistant for a home insurance company", whatever the sentence. Asking the same
question about content-free texts ("N/A", "OK.", "[sentence]") measures that prior, and each answer is
then re-weighted by it:

    q = (p / c) / (p / c + (1 − p) / (1 − c))

where p is P(yes) for the real text and c the mean P(yes) over the content-free texts. A text the judge
rates exactly like an empty one gets q = 0.5, which makes 0.5 the natural pass mark of a calibrated
probability — with the mean over several content-free texts: one alone can sit far from it (for
`role-adherence`, "OK." reads as more in the job than "N/A"; any one of the three alone scored 0.54–0.60
at 0.5 on the tune rows, their mean 0.875). The priors are ordinary judge requests, so the cache keeps
one per question.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

CONTENT_FREE_TEXTS = ("N/A", "OK.", "[sentence]")
_EDGE = 1e-4  # keeps a prior or probability of exactly 0 or 1 from dividing by zero


def calibrated(probability: float, prior: float) -> float:
    """P(yes) re-weighted by the question's content-free prior: (p/c) / (p/c + (1−p)/(1−c)).

    Args:
        probability: the judge's P(yes) for the real text.
        prior: its mean P(yes) for the same question about content-free texts.
    """
    p = min(max(probability, _EDGE), 1 - _EDGE)
    c = min(max(prior, _EDGE), 1 - _EDGE)
    yes, no = p / c, (1 - p) / (1 - c)
    return yes / (yes + no)


async def content_free_prior(ask: Callable[[str], Awaitable[float]]) -> float:
    """The mean P(yes) of a question asked about each of CONTENT_FREE_TEXTS.

    Args:
        ask: the question, as a function from the text to judge to the judge's P(yes).
    """
    answers = [await ask(text) for text in CONTENT_FREE_TEXTS]
    return sum(answers) / len(answers)
