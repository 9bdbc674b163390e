"""The labelled video sets of tests/data/video/: their shape (balance, splits by group), that they equal
what build.py writes, that clips render deterministically and that "brief" scenes fall between the frames
the judged metrics sample; one offline metric on two rows (OCR)."""

import hashlib
import importlib.util
import json
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from agentunit import check
from agentunit.multimodal import evidence

pytest.importorskip("cv2")

DATA = Path(__file__).resolve().parent.parent / "data" / "video"
FIELDS = {"text-to-video": "prompt", "video-factual-consistency": "output", "video-g-eval": "rubric"}
OCR = pytest.mark.skipif(evidence.ocr_status() is not None, reason="OCR unavailable")


def _build():
    spec = importlib.util.spec_from_file_location("video_build", DATA / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build = _build()


def rows(name: str) -> list[dict]:
    return [json.loads(line) for line in (DATA / name).read_text().splitlines()]


def _split_of(set_name: str, group: str) -> str:
    import sys

    sys.path.insert(0, str(DATA.parent))
    from splits import split_of

    return split_of(set_name, group)


@pytest.mark.parametrize("name", sorted(build.SETS))
def test_each_set_is_balanced_per_group_and_split_by_group(name):
    items = rows(name)
    metric = build.SETS[name]
    assert len(items) == 64 and len({r["id"] for r in items}) == len(items)
    assert {r["metric"] for r in items} == {metric}
    by_group = defaultdict(list)
    for row in items:
        assert row["kind"] and row[FIELDS[metric]] and row["label"] in (0, 1), row["id"]
        assert row["clip_id"] == build.clip_id(row["clip"]), row["id"]
        by_group[row["group"]].append(row)
    assert len(by_group) == 16
    for group, members in by_group.items():
        assert Counter(r["label"] for r in members) == {0: 2, 1: 2}, group
        assert {r["split"] for r in members} == {_split_of(name.removesuffix(".jsonl"), group)}, group
    counts = Counter((r["split"], r["label"]) for r in items)
    for split in ("tune", "test"):
        assert counts[(split, 0)] == counts[(split, 1)] >= 12, (split, counts)


def test_the_sets_equal_what_build_py_writes():
    for name, items in build.rows().items():
        assert rows(name) == items, f"{name} is stale: run python tests/data/video/build.py"


def test_ocr_json_covers_every_clip():
    stored = json.loads((DATA / "ocr.json").read_text())
    assert set(stored) == set(build.all_clips())
    assert all(len(texts) == 8 for texts in stored.values())


def test_brief_scenes_fall_between_the_sampled_frames():
    from agentunit.video.decode import FramePlan, plan_indices

    briefs = 0
    for spec in build.all_clips().values():
        total = sum(s["frames"] for s in spec["scenes"])
        sampled = set(plan_indices(total, spec["fps"], FramePlan("even", count=8, max_frames=8)))
        assert sampled == set(build.sample_indices(total))
        start = 0
        for scene in spec["scenes"]:
            if scene.get("brief"):
                briefs += 1
                assert 2 <= scene["frames"] <= 3 and not set(range(start, start + scene["frames"])) & sampled
            else:
                assert sampled & set(range(start, start + scene["frames"])), "a plain scene is never sampled"
            start += scene["frames"]
    assert briefs >= 3


def test_a_clip_renders_the_same_bytes_twice_and_decodes():
    from agentunit.video.decode import FramePlan, decode_video

    spec = build.all_clips()[rows("video_g_eval.jsonl")[0]["clip_id"]]
    first, second = build.render(spec), build.render(spec)
    assert hashlib.sha256(first).digest() == hashlib.sha256(second).digest()
    video = decode_video(first, "video/x-msvideo", "video", FramePlan("even", count=8, max_frames=8))
    assert video.info.frame_count == sum(s["frames"] for s in spec["scenes"])
    assert (video.info.width, video.info.height) == tuple(spec["size"]) and len(video.frames) == 8


@OCR
def test_offline_factual_consistency_on_two_rows_of_one_clip():
    by_id = {r["id"]: r for r in rows("video_factual_consistency.jsonl")}
    true = by_id["video-factual-consistency-checkout-0-pass-true_quoted"]
    false = by_id["video-factual-consistency-checkout-3-fail-never_shown"]
    assert true["clip_id"] == false["clip_id"]
    data = build.render(true["clip"])
    spec = {"metric": "video-factual-consistency", "config": {"frames": 2}}  # the payment and the last screen
    right = check(true["output"], spec, video=data)
    wrong = check(false["output"], spec, video=data)
    assert right.passed and right.value == 1.0, right.reason
    assert not wrong.passed and "Error E-402" in wrong.reason, wrong.reason
