"""The labelled spoken-language calls (tests/data/audio/language.jsonl, language_switch.jsonl): their shape, the
split, and that a composed call's turns are where the truth says (bench/audio.py --part=language scores them)."""

import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from agentunit import check

from .scenes import calls

DATA = Path(__file__).resolve().parent.parent / "data" / "audio"


def _rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / f"{name}.jsonl").read_text().splitlines()]


def _labelled():
    spec = importlib.util.spec_from_file_location("audio_labelled", DATA / "labelled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_rows_are_what_labelled_py_writes():
    labelled = _labelled()
    assert _rows("language") == labelled.language_rows()
    assert _rows("language_switch") == labelled.switch_rows()


@pytest.mark.parametrize("name", ["language", "language_switch"])
def test_each_set_has_40_calls_both_classes_in_both_splits_and_telephone_rows(name):
    rows = _rows(name)
    assert len(rows) >= 40 and len({r["id"] for r in rows}) == len(rows)
    for split in ("tune", "test"):
        for rate in (16_000, 8_000):
            labels = {r["label"] for r in rows if r["split"] == split and r["rate"] == rate}
            assert labels == {True, False}, (split, rate)
    assert sum(r["rate"] == 16_000 for r in rows) >= 38


def test_language_labels_follow_the_allow_list_and_switches_the_turns():
    for row in _rows("language"):
        spoken = {language for _, language, _ in row["turns"]}
        assert row["label"] == spoken.issubset(row["value"]), row["id"]
    for row in _rows("language_switch"):
        languages = [language for _, language, _ in row["turns"]]
        where = [i for i in range(1, len(languages)) if languages[i] != languages[i - 1]]
        assert row["switch_turns"] == where and row["switches"] == len(where) and row["label"] == (not where)
        assert [speaker for speaker, _, _ in row["turns"]] == ["agent", "customer", "agent", "customer"]


@pytest.mark.skipif(shutil.which("espeak-ng") is None or shutil.which("sox") is None,
                    reason="espeak-ng and sox synthesise the language clips (make audio-tools)")
@pytest.mark.parametrize("index", [0, -1])
def test_a_composed_call_has_its_turns_where_the_truth_says(index):
    row = _rows("language_switch")[index]
    wav, starts = calls.language_call(row)
    found = check("", "audio-talk-to-listen-ratio", audio=wav).detail["turns"]
    assert [t["speaker"] for t in found] == [speaker for speaker, _, _ in row["turns"]]
    assert all(abs(t["start"] - s) <= 0.3 for t, s in zip(found, starts, strict=True))
