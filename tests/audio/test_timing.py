import numpy as np
import pytest

from agentunit.audio import Turn, barge_ins, drop_outs, response_gaps, summary_ms, talk_time


def T(speaker, start, end):
    return Turn({"a": "agent", "c": "customer"}[speaker], start, end)


def test_response_gaps_pair_each_answered_customer_turn_with_the_agents_next_turn():
    turns = [T("a", 0, 2), T("c", 3, 5), T("a", 5.8, 7), T("c", 8, 9), T("c", 9.5, 10), T("a", 11.2, 12)]
    gaps, skipped = response_gaps(turns)
    assert [g["gap_ms"] for g in gaps] == [800.0, 1200.0]
    assert skipped == [{"customer_end": 9, "why": "the customer spoke again before the agent"}]


def test_a_latched_reply_is_a_negative_gap_and_a_barge_in_is_no_reply():
    gaps, skipped = response_gaps([T("c", 0, 3), T("a", 2.9, 5), T("c", 6, 9), T("a", 7, 10)])
    assert [g["gap_ms"] for g in gaps] == [-100.0]
    assert skipped[0]["why"] == "the agent was speaking as the customer ended"
    gaps, skipped = response_gaps([T("a", 0, 1), T("c", 2, 3)])
    assert gaps == [] and skipped[0]["why"] == "no agent turn follows"


def test_summary_percentiles_are_numpys_linear_ones():
    values = [100.0, 200.0, 300.0, 1000.0]
    stats = summary_ms(values)
    assert stats == {"mean_ms": 400.0, "p50_ms": 250.0, "p95_ms": round(float(np.percentile(values, 95)), 1),
                     "max_ms": 1000.0}


def test_talk_time_sums_each_speakers_turns():
    assert talk_time([T("a", 0, 2), T("c", 3, 4), T("a", 5, 6.5)]) == {"agent": 3.5, "customer": 1.0}


def test_barge_ins_say_who_interrupted_whom_the_overlap_and_whether_they_yielded():
    turns = [T("a", 0, 5.4), T("c", 5.0, 7), T("a", 8, 12), T("c", 9, 10), T("c", 13, 16), T("a", 15, 17),
             T("a", 18, 20), T("c", 19.9, 21)]
    events = barge_ins(turns, min_overlap_s=0.25, yield_within_s=1.0)
    assert [(e["interrupter"], e["at"], e["overlap_s"], e["yielded"]) for e in events] == [
        ("customer", 5.0, 0.4, True),  # agent stopped 0.4 s after the customer came in
        ("customer", 9, 1.0, False),   # agent talked on past the customer's words
        ("agent", 15, 1.0, True)]      # agent barged in; the customer stopped after 1 s
    # 0.1 s of overlap at 19.9 is below min_overlap_s: no barge-in
    assert barge_ins([T("a", 0, 5), T("c", 2, 6)], yield_within_s=2.5)[0]["yielded"] is False  # agent ran on 3 s


def test_drop_outs_dead_air_unanswered_ending_and_truncation():
    turns = [T("a", 2, 4), T("c", 4.5, 6), T("a", 10, 12), T("c", 12.5, 14)]
    found = drop_outs(turns, duration_s=14.05, dead_air_s=3.0)
    assert found["dead_air"] == [{"start": 6, "end": 10, "length_s": 4.0}]
    assert found["leading_silence_s"] == 2 and found["ended_without_agent_reply"] is True
    assert found["truncated_turns"] == [{"speaker": "customer", "start": 12.5, "end": 14}]
    quiet = drop_outs(turns[:3], duration_s=None, dead_air_s=5.0)
    assert quiet["dead_air"] == [] and not quiet["ended_without_agent_reply"] and not quiet["truncation_checked"]


@pytest.mark.parametrize("dead_air_s", [3.9, 4.0])
def test_dead_air_is_strictly_longer_than_the_limit(dead_air_s):
    found = drop_outs([T("a", 0, 1), T("c", 5, 6)], None, dead_air_s)
    assert len(found["dead_air"]) == (1 if dead_air_s < 4 else 0)
