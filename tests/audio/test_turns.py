import pytest

from agentunit.audio import AudioInputError, Turn, join_turns, speech_union, turns_from_transcript


def test_a_speakers_segments_join_over_short_pauses_when_the_other_is_silent():
    turns = join_turns({"agent": [(0.0, 1.0), (1.5, 2.0), (4.0, 5.0)], "customer": [(6.0, 7.0)]}, join_gap_s=1.0)
    assert [(t.speaker, t.start, t.end) for t in turns] == [("agent", 0.0, 2.0), ("agent", 4.0, 5.0),
                                                           ("customer", 6.0, 7.0)]
    split = join_turns({"agent": [(0.0, 1.0), (1.5, 2.0)], "customer": [(1.1, 1.3)]}, join_gap_s=1.0)
    assert [(t.speaker, t.start) for t in split] == [("agent", 0.0), ("customer", 1.1), ("agent", 1.5)]


def test_speech_union_merges_overlaps():
    turns = [Turn("agent", 0, 2), Turn("customer", 1.5, 3), Turn("agent", 5, 6)]
    assert speech_union(turns) == [(0, 3), (5, 6)]


def test_transcript_segments_become_turns_by_their_labels():
    segments = [{"speaker": "User", "start": 0.5, "end": 2.0, "text": "hi"},
                {"speaker": "assistant", "start": 2.4, "end": 4.0, "text": "hello"}]
    turns = turns_from_transcript(segments)
    assert [(t.speaker, t.start, t.end) for t in turns] == [("customer", 0.5, 2.0), ("agent", 2.4, 4.0)]
    named = [dict(s, speaker=lab) for s, lab in zip(segments, ["S1", "S2"], strict=True)]
    assert "config.speakers" in turns_from_transcript(named)
    custom = turns_from_transcript(named, {"agent": "S2", "customer": "S1"})
    assert [t.speaker for t in custom] == ["customer", "agent"]


def test_unusable_segments_give_a_reason_or_an_error_naming_the_field():
    assert "no speaker label" in turns_from_transcript([{"start": 0, "end": 1, "text": "hi"}])
    assert "no start/end" in turns_from_transcript([{"speaker": "agent", "text": "hi"}])
    with pytest.raises(AudioInputError, match=r"trusys.transcript\[1\].start must be a number"):
        turns_from_transcript([{"speaker": "agent", "start": 0, "end": 1}, {"speaker": "user", "start": "x", "end": 2}])
    with pytest.raises(AudioInputError, match=r"trusys.transcript\[0\]: end 1 is before start 2"):
        turns_from_transcript([{"speaker": "agent", "start": 2, "end": 1}])
    with pytest.raises(AudioInputError, match="must be a list"):
        turns_from_transcript({"speaker": "agent"})
