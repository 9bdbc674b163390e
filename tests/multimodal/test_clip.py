"""The pluggable CLIP path, end to end through onnxruntime, with a tiny CLIP-shaped ONNX model built here.

The model has CLIP's interface (``input_ids``, ``attention_mask``, ``pixel_values`` in; ``text_embeds``,
``image_embeds`` out) and a meaning simple enough to predict: a text embeds as the mean of its words'
vectors ("red" and "blue" point where a red or a blue image lands), an image as its mean normalised
pixel. So a red image matches "red" only if our preprocessing (resize, centre crop, CLIP's mean and
std, channel order) and tokenisation (77 ids) are right.
"""

import numpy as np
import pytest

from agentunit import check

from .images import solid

onnx = pytest.importorskip("onnx")
tokenizers = pytest.importorskip("tokenizers")

_MEAN = np.array([0.48145466, 0.4578275, 0.40821073])
_STD = np.array([0.26862954, 0.26130258, 0.27577711])
RED, BLUE = (220, 20, 20), (20, 40, 220)


def _pixel_direction(rgb):
    return ((np.array(rgb) / 255 - _MEAN) / _STD).astype(np.float32)


@pytest.fixture(scope="module")
def clip_model(tmp_path_factory):
    from onnx import TensorProto, helper, numpy_helper
    from tokenizers import Tokenizer, models, pre_tokenizers

    folder = tmp_path_factory.mktemp("clip")
    vocab = {"[PAD]": 0, "[UNK]": 1, "red": 2, "blue": 3}
    tokenizer = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(folder / "tokenizer.json"))
    table = np.zeros((4, 3), dtype=np.float32)
    table[2], table[3] = _pixel_direction(RED), _pixel_direction(BLUE)
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "input_ids"], ["words"]),
         helper.make_node("ReduceMean", ["words"], ["text_embeds"], axes=[1], keepdims=0),
         helper.make_node("ReduceMean", ["pixel_values"], ["image_embeds"], axes=[2, 3], keepdims=0)],
        "tiny_clip",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, [1, 77]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, [1, 77]),
         helper.make_tensor_value_info("pixel_values", TensorProto.FLOAT, [1, 3, 224, 224])],
        [helper.make_tensor_value_info("text_embeds", TensorProto.FLOAT, [1, 3]),
         helper.make_tensor_value_info("image_embeds", TensorProto.FLOAT, [1, 3])],
        [numpy_helper.from_array(table, "table")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    path = folder / "model.onnx"
    onnx.save(model, str(path))
    return str(path)


def test_grounding_with_clip_matches_colours_through_the_real_preprocessing(clip_model):
    spec = {"metric": "cross_modal_grounding", "config": {"clip_model": clip_model}}
    red = check("a red square", spec, image=solid(RED, (300, 200)))
    assert red.value == 1.0 and red.passed and red.detail["evidence"] == "clip"
    assert red.detail["cosines"][0] == pytest.approx(1.0, abs=1e-3)
    blue = check("a blue square", spec, image=solid(RED, (300, 200)))
    assert blue.value == 0.0 and not blue.passed and blue.detail["cosines"][0] < 0


def test_clip_threshold_scales_the_score(clip_model):
    # "red blue" embeds halfway: its cosine with a red image is between 0 and 1.
    spec = {"metric": "cross_modal_grounding", "config": {"clip_model": clip_model, "clip_threshold": 0.9}}
    result = check("red blue", spec, image=solid(RED))
    cosine = result.detail["cosines"][0]
    assert 0 < cosine < 0.9 and result.value == pytest.approx(cosine / 0.9)


def test_image_helpfulness_uses_clip_on_the_reply_images(clip_model):
    spec = {"metric": "image-helpfulness", "config": {"clip_model": clip_model}}
    reply = {"output": "Here it is in blue.", "trusys": {"image": {"base64": _b64(solid(BLUE)), "mime": "image/png"}}}
    result = check(reply, spec, query="Show me the blue one")
    assert result.value == 1.0 and result.detail["evidence"] == "clip"


def _b64(data: bytes) -> str:
    import base64

    return base64.b64encode(data).decode()
