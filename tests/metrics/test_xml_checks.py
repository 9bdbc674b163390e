import pytest

from agentunit import check
from agentunit.errors import MetricConfigError

ORDER = "<order><id>7</id><items><item>a</item><item><sku>b</sku></item></items></order>"


@pytest.mark.parametrize(("output", "spec", "passed"), [
    (ORDER, "is-xml", True),
    ("  \n" + ORDER + "\n", "is-xml", True),
    ('<?xml version="1.0" encoding="UTF-8"?><r/>', "is-xml", True),
    ("<a><b></a>", "is-xml", False),
    ("Here is XML: " + ORDER, "is-xml", False),
    (ORDER, {"metric": "is-xml", "value": {"requiredElements": ["order.id", "order.items.item"]}}, True),
    (ORDER, {"metric": "is-xml", "value": "order.items.item[1].sku"}, True),
    (ORDER, {"metric": "is-xml", "value": "order.items.item[0].sku"}, False),
    (ORDER, {"metric": "is-xml", "value": "order.items.item[5]"}, False),
    (ORDER, {"metric": "is-xml", "value": "root.id"}, False),
    ('<r xmlns="urn:x"><c/></r>', {"metric": "is-xml", "value": "r.c"}, True),
    ("Answer:\n```xml\n" + ORDER + "\n```", {"metric": "contains-xml", "value": "order.items"}, True),
    ("The order is " + ORDER + " as requested.", "contains-xml", True),
    ("a < b and c > d", "contains-xml", False),
    ("<open> never closed", "contains-xml", False),
    ("<x>1</x> and " + ORDER, {"metric": "contains-xml", "value": "order.id"}, True),
])
def test_xml_metrics(output, spec, passed):
    assert check(output, spec).passed is passed


def test_doctype_entities_and_external_references_are_refused():
    xxe = '<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file:///etc/passwd">]><r>&x;</r>'
    result = check(xxe, "is-xml")
    assert result.passed is False and "EntitiesForbidden" in result.reason
    internal = '<!DOCTYPE r [<!ENTITY x "y">]><r>&x;</r>'
    assert check(internal, "is-xml").passed is False
    plain_doctype = '<!DOCTYPE note><note>hi</note>'
    assert check(plain_doctype, "is-xml").passed is True


def test_missing_paths_are_listed_and_bad_paths_are_errors():
    result = check(ORDER, {"metric": "is-xml", "value": ["order.id", "order.total", "order.items.box"]})
    assert result.detail["missing"] == ["order.total", "order.items.box"]
    with pytest.raises(MetricConfigError, match="bad element path"):
        check(ORDER, {"metric": "is-xml", "value": "order..id"})
    with pytest.raises(MetricConfigError, match="requiredElements"):
        check(ORDER, {"metric": "is-xml", "value": {"required": ["x"]}})
