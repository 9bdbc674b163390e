"""The results database and reports keep each medium's reference and hash, never its bytes."""

import base64
import hashlib
import json
import os

from agentunit import evaluate
from agentunit.reporting.html import write_html
from agentunit.reporting.json_report import write_json

from .makers import png
from .probe import MediaProbe

BIG = png(580, 580, noise=True)  # ~1 MB that does not compress
REPLY = png(400, 400, noise=True)
REPLY_URI = "data:image/png;base64," + base64.b64encode(REPLY).decode()


def _answer(case):
    return {"output": f"described {case.id}", "trusys": {"image": REPLY_URI}}


def _plain(case):
    return {"output": f"described {case.id}"}


def _db_bytes(path):
    return b"".join(open(p, "rb").read() for p in (path, f"{path}-wal") if os.path.exists(p))


def _run(tmp_path, name, target, with_media):
    case = {"id": "big", "prompt": "describe it"}
    if with_media:
        case["image"] = str(tmp_path / "big.png")
    db = tmp_path / f"{name}.db"
    result = evaluate(cases=[case], target=target, metrics=[MediaProbe("image", "reply" if with_media else "input")],
                      db=db)
    result.store.flush()
    return result, db


def test_a_megabyte_image_does_not_grow_the_database_by_a_megabyte(tmp_path):
    assert len(BIG) > 1_000_000
    (tmp_path / "big.png").write_bytes(BIG)
    _, plain_db = _run(tmp_path, "plain", _plain, False)
    result, media_db = _run(tmp_path, "media", _answer, True)
    assert result.cases[0]["status"] == "passed"
    plain, stored = _db_bytes(plain_db), _db_bytes(media_db)
    assert len(stored) - len(plain) < 50_000, (len(stored), len(plain))
    assert base64.b64encode(REPLY).decode()[1000:1100].encode() not in stored
    assert BIG[5000:5100] not in stored


def test_stored_records_and_reports(tmp_path):
    (tmp_path / "big.png").write_bytes(BIG)
    result, _ = _run(tmp_path, "media", _answer, True)
    (case,) = result.cases
    records = case["envelope"]["media"]
    thumbnails = [r.pop("thumbnail") for r in records]  # kept in the database for the HTML report
    assert all(t.startswith("data:image/jpeg;base64,") and len(t) < 12_000 for t in thumbnails)
    assert records == [
        {"field": "image", "source": str(tmp_path / "big.png"), "sha256": hashlib.sha256(BIG).hexdigest(),
         "mime": "image/png", "size": len(BIG)},
        {"field": "trusys.image", "source": f"data:image/png;base64,… ({len(REPLY):,} bytes)",
         "sha256": hashlib.sha256(REPLY).hexdigest(), "mime": "image/png", "size": len(REPLY)}]
    assert result.to_dict()["cases"][0]["media"] == records
    write_json(result, tmp_path / "out.json")
    assert json.loads((tmp_path / "out.json").read_text())["cases"][0]["media"] == records
    write_html(result, tmp_path / "out.html")
    html = (tmp_path / "out.html").read_text()
    assert f"trusys.image: data:image/png;base64,… ({len(REPLY):,} bytes) (image/png, {len(REPLY):,} bytes, sha256 " \
           f"{hashlib.sha256(REPLY).hexdigest()[:12]}…)" in html
    assert len(html) < 40_000  # two thumbnails of a few KB each
    assert html.count("<img src='data:image/jpeg;base64,") == 2


def test_cases_without_media_store_no_media_key(tmp_path):
    result, _ = _run(tmp_path, "plain", _plain, False)
    (case,) = result.cases
    assert "media" not in (case["envelope"] or {})
    assert "media" not in result.to_dict()["cases"][0]
