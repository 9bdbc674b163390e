"""Content moderation: the OpenAI moderation taxonomy scored offline (agentunit.moderation.metrics).

- ``taxonomy``: the 13 categories, their definitions and which imply which;
- ``classifier``: the local classifier (logistic regression over sentence embeddings), ``fit`` its training;
- ``judge``: category scores from one multiple-choice judge decision;
- ``openai``: an OpenAI-compatible ``/v1/moderations`` endpoint;
- ``metrics``: the ``moderation`` metric.
"""

from agentunit.moderation.metrics import METHODS, ModerationMetric, moderation_scores
from agentunit.moderation.taxonomy import CATEGORIES, DEFINITIONS, IMPLIES, canonical_category, categories_of

__all__ = ["CATEGORIES", "DEFINITIONS", "IMPLIES", "METHODS", "ModerationMetric", "canonical_category",
           "categories_of", "moderation_scores"]
