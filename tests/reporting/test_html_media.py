"""The HTML report shows a thumbnail of each image (our own JPEG, as a data: URI) and escapes every reference."""

import base64
import html
import json
import re

from agentunit import evaluate
from agentunit.reporting.html import write_html
from agentunit.reporting.json_report import write_json
from tests.media.makers import png

PHOTO = png(640, 480, noise=True)
HOSTILE = "x'><img src=x onerror=alert(1)>\".png"  # a real file name, shown as the image's source


def _run(tmp_path):
    (tmp_path / HOSTILE).write_bytes(PHOTO)
    drawn = "data:image/png;base64," + base64.b64encode(png(300, 200, noise=True)).decode()
    return evaluate(cases=[{"id": "c", "prompt": "p", "image": str(tmp_path / HOSTILE)}],
                    target=lambda prompt: drawn, metrics=["latency"])


def test_an_image_case_has_a_small_thumbnail_and_an_escaped_source(tmp_path):
    result = _run(tmp_path)
    write_html(result, tmp_path / "r.html")
    page = (tmp_path / "r.html").read_text()
    images = re.findall(r"<img src='(data:image/jpeg;base64,[A-Za-z0-9+/=]+)' alt='thumbnail'>", page)
    assert len(images) == 2  # the case's image and the generated output
    for uri in images:
        data = base64.b64decode(uri.split(",", 1)[1])
        assert data.startswith(b"\xff\xd8\xff") and len(data) <= 8 * 1024
    assert page.count("<img") == 2 and "onerror=alert" not in page.replace(html.escape(HOSTILE), "")
    assert html.escape(str(tmp_path / HOSTILE), quote=True) in page
    assert "img-src data:" in page  # the CSP lets data: images in, nothing else
    assert len(page) < 30_000  # thumbnails, never the megabyte


def test_only_our_own_jpeg_thumbnails_are_shown(tmp_path):
    result = _run(tmp_path)
    forged = ["data:image/jpeg;base64,AAAA' onerror='alert(1)", "javascript:alert(1)",
              "data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=", "data:image/jpeg;base64,iVBORw0KGgo=",  # PNG bytes
              "data:image/jpeg;base64," + "A" * 20_000, {"src": "x"}]
    cases = list(result.iter_cases())

    def iter_cases():
        for value in forged:
            case = json.loads(json.dumps(cases[0]))
            for record in case["envelope"]["media"]:
                record["thumbnail"] = value
            yield case

    result.iter_cases = iter_cases
    write_html(result, tmp_path / "forged.html")
    page = (tmp_path / "forged.html").read_text()
    assert "<img" not in page and "onerror='alert" not in page


def test_the_json_report_leaves_thumbnails_to_the_html_report(tmp_path):
    result = _run(tmp_path)
    (case,) = result.cases
    assert all("thumbnail" in r for r in case["envelope"]["media"])
    write_json(result, tmp_path / "r.json")
    records = json.loads((tmp_path / "r.json").read_text())["cases"][0]["media"]
    assert [set(r) for r in records] == [{"field", "source", "sha256", "mime", "size"}] * 2
