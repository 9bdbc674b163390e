"""A metric for the tests that reads media through media_of, as the image metrics will."""

from agentunit.media import media_of
from agentunit.metrics.base import MetricResult


class MediaProbe:
    """Passes with the count of media of ``kind`` in role ``where``; the detail lists their sha256 and mime."""

    name = display_name = "media-probe"
    threshold = None
    weight = 1.0
    label = None

    def __init__(self, kind="image", where="input"):
        self.kind, self.where = kind, where

    def evaluate(self, case, trace, outcome):
        media = media_of(case, outcome, self.kind, self.where)
        return MetricResult(name=self.name, value=float(len(media)), passed=True,
                            detail={"media": [[m.sha256, m.mime, m.source] for m in media]})
