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


def _tokenizer(folder) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers

    tokenizer = Tokenizer(models.WordLevel({"[PAD]": 0, "[UNK]": 1, "red": 2, "blue": 3}, unk_token="[UNK]"))
    tokenizer.pre_tokenizer = pre_tokenizers.Whitespace()
    tokenizer.save(str(folder / "tokenizer.json"))


def _table():
    from onnx import numpy_helper

    table = np.zeros((4, 3), dtype=np.float32)
    table[2], table[3] = _pixel_direction(RED), _pixel_direction(BLUE)
    return numpy_helper.from_array(table, "table")


def _text_nodes(ids: str, out: str, id_type: str = "int64") -> list:
    """A text embeds as the mean of its words' vectors (ids of type int32 are cast first)."""
    from onnx import TensorProto, helper

    nodes = []
    if id_type == "int32":
        nodes.append(helper.make_node("Cast", [ids], [ids + "_64"], to=TensorProto.INT64))
        ids += "_64"
    return [*nodes, helper.make_node("Gather", ["table", ids], ["words"]),
            helper.make_node("ReduceMean", ["words"], [out], axes=[1], keepdims=0)]


def _image_node(pixels: str, out: str):
    """An image embeds as its mean normalised pixel."""
    from onnx import helper

    return helper.make_node("ReduceMean", [pixels], [out], axes=[2, 3], keepdims=0)


def _save(nodes, inputs, outputs, path, initializers=()) -> str:
    from onnx import helper

    graph = helper.make_graph(nodes, "tiny_clip", inputs, outputs, list(initializers))
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.save(model, str(path))
    return str(path)


def _tensor(name, kind, shape):
    from onnx import TensorProto, helper

    return helper.make_tensor_value_info(name, {"float": TensorProto.FLOAT, "int64": TensorProto.INT64,
                                                "int32": TensorProto.INT32}[kind], shape)


@pytest.fixture(scope="module")
def clip_model(tmp_path_factory):
    """One file, optimum's names: ``input_ids``, ``attention_mask``, ``pixel_values`` → ``text_embeds``,
    ``image_embeds``."""
    folder = tmp_path_factory.mktemp("clip")
    _tokenizer(folder)
    return _save([*_text_nodes("input_ids", "text_embeds"), _image_node("pixel_values", "image_embeds")],
                 [_tensor("input_ids", "int64", [1, 77]), _tensor("attention_mask", "int64", [1, 77]),
                  _tensor("pixel_values", "float", [1, 3, 224, 224])],
                 [_tensor("text_embeds", "float", [1, 3]), _tensor("image_embeds", "float", [1, 3])],
                 folder / "model.onnx", [_table()])


@pytest.fixture(scope="module")
def clip_pair(tmp_path_factory):
    """Two files, clip-as-service's layout: ``visual.onnx`` (``image`` → ``embedding``) and ``textual.onnx``
    (int32 ``text`` → ``embedding``, no attention mask); the folder is what the user names."""
    from onnx import helper

    folder = tmp_path_factory.mktemp("clip_pair")
    _tokenizer(folder)
    _save([_image_node("image", "embedding")], [_tensor("image", "float", ["batch", 3, 224, 224])],
          [_tensor("embedding", "float", ["batch", 3])], folder / "visual.onnx")
    # a second, per-token output of rank 3 must not be taken for the embedding
    _save([*_text_nodes("text", "embedding", "int32"), helper.make_node("Identity", ["words"], ["tokens"])],
          [_tensor("text", "int32", ["batch", 77])],
          [_tensor("tokens", "float", ["batch", 77, 3]), _tensor("embedding", "float", ["batch", 3])],
          folder / "textual.onnx", [_table()])
    return str(folder)


@pytest.fixture(scope="module")
def clip_other_names(tmp_path_factory):
    """One file whose names say nothing: ``ids``, ``mask``, ``pixels`` in; ``out0`` (image alone),
    ``out1`` (text alone) and ``score`` (both) out, listed score first."""
    from onnx import helper

    folder = tmp_path_factory.mktemp("clip_other")
    _tokenizer(folder)
    nodes = [_image_node("pixels", "out0"), *_text_nodes("ids", "out1"),
             helper.make_node("Mul", ["out0", "out1"], ["score"])]
    return _save(nodes, [_tensor("ids", "int64", [1, 16]), _tensor("mask", "int64", [1, 16]),
                         _tensor("pixels", "float", [1, 3, 96, 96])],
                 [_tensor("score", "float", [1, 3]), _tensor("out0", "float", [1, 3]),
                  _tensor("out1", "float", [1, 3])],
                 folder / "exported.onnx", [_table()])


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


# -- the layouts a user's export comes in (issue 52) --------------------------------------------------


def _grounding(model: str):
    spec = {"metric": "cross_modal_grounding", "config": {"clip_model": model}}
    return check("a red square", spec, image=solid(RED, (300, 200))), check("a blue square", spec, image=solid(RED))


@pytest.mark.parametrize("layout", ["folder with visual.onnx + textual.onnx", "visual.onnx named alone",
                                    "textual.onnx named alone", "one file with other names"])
def test_both_export_layouts_give_the_same_verdicts(layout, clip_pair, clip_other_names):
    from pathlib import Path

    model = {"folder with visual.onnx + textual.onnx": clip_pair,
             "visual.onnx named alone": str(Path(clip_pair) / "visual.onnx"),
             "textual.onnx named alone": str(Path(clip_pair) / "textual.onnx"),
             "one file with other names": clip_other_names}[layout]
    red, blue = _grounding(model)
    assert red.detail["evidence"] == "clip" and red.value == 1.0 and red.passed
    assert red.detail["cosines"][0] == pytest.approx(1.0, abs=1e-3)
    assert blue.value == 0.0 and blue.detail["cosines"][0] < 0


def test_the_graphs_names_shapes_and_types_are_read_not_assumed(clip_pair, clip_other_names):
    from agentunit.multimodal.evidence import ClipModel

    pair, other = ClipModel(clip_pair), ClipModel(clip_other_names)
    assert pair.image_session is not pair.text_session and (pair._text_out, pair._image_out) == ("embedding",
                                                                                                 "embedding")
    assert pair._ids.name == "text" and pair.size == (224, 224)
    # the output that follows both inputs (``score``) is neither embedding; the sizes come from the graph
    assert (other._text_out, other._image_out) == ("out1", "out0") and other.size == (96, 96)
    assert other.tokenizer.padding["length"] == 16


def test_a_transformers_js_folder_is_found_with_its_tokenizer_above(tmp_path):
    """``onnx/vision_model.onnx`` + ``onnx/text_model.onnx``, tokenizer.json at the top."""
    (tmp_path / "onnx").mkdir()
    _tokenizer(tmp_path)
    _save([_image_node("pixel_values", "image_embeds")], [_tensor("pixel_values", "float", [1, 3, 224, 224])],
          [_tensor("image_embeds", "float", [1, 3])], tmp_path / "onnx" / "vision_model.onnx")
    _save(_text_nodes("input_ids", "text_embeds"), [_tensor("input_ids", "int64", [1, 77]),
                                                     _tensor("attention_mask", "int64", [1, 77])],
          [_tensor("text_embeds", "float", [1, 3])], tmp_path / "onnx" / "text_model.onnx", [_table()])
    red, blue = _grounding(str(tmp_path))
    assert red.value == 1.0 and blue.value == 0.0


def test_a_folder_that_is_not_a_clip_export_is_a_config_error_naming_the_layouts(tmp_path, clip_pair):
    import shutil

    from agentunit.errors import MetricConfigError
    from agentunit.multimodal.metrics import CrossModalGroundingMetric

    with pytest.raises(MetricConfigError, match=r"a folder with no \.onnx file .*visual\.onnx and textual\.onnx"):
        CrossModalGroundingMetric(config={"clip_model": str(tmp_path)})
    shutil.copy(f"{clip_pair}/visual.onnx", tmp_path / "a.onnx")
    shutil.copy(f"{clip_pair}/visual.onnx", tmp_path / "b.onnx")
    with pytest.raises(MetricConfigError, match=r"a folder with a\.onnx, b\.onnx"):
        CrossModalGroundingMetric(config={"clip_model": str(tmp_path)})
    (tmp_path / "b.onnx").unlink()
    with pytest.raises(MetricConfigError, match=r"no tokenizer\.json"):
        CrossModalGroundingMetric(config={"clip_model": str(tmp_path)})
    _tokenizer(tmp_path)  # an image encoder alone is not a CLIP: said when the model is loaded
    result = check("a red square", {"metric": "cross_modal_grounding", "config": {"clip_model": str(tmp_path)}},
                   image=solid(RED))
    assert result.value is None and "not a CLIP export" in (result.error or "")


# -- what would measure a scene description offline (issue 52) ----------------------------------------

SCENE = "A tabby cat sleeps on a sofa by the window."


def _scene_case(metric: str) -> dict:
    """check() arguments for ``metric`` given a scene description the offline evidence cannot check."""
    photo = solid(RED, (300, 200))  # no text to read, and the description names no colour or size
    if metric in ("text-to-video", "video_response_relevance", "video-factual-consistency"):
        from tests.video.clips import solid_clip

        return {"output": "" if metric == "text-to-video" else SCENE, "video": solid_clip((20, 20, 220)),
                "query": SCENE if metric == "text-to-video" else "What is in the video?"}
    if metric == "image-helpfulness":
        return {"output": {"output": SCENE, "trusys": {"image": {"base64": _b64(photo), "mime": "image/png"}}},
                "query": "What does my cat do all day?"}
    if metric == "multimodal-contextual-relevancy":
        return {"output": {"output": SCENE, "trusys": {"context": [{"image": "data:image/png;base64," + _b64(photo)}]}},
                "query": "Where does the cat sleep?"}
    return {"output": SCENE, "image": photo}


CLIP_METRICS = ("cross_modal_grounding", "image-helpfulness", "text-to-video", "video_response_relevance")
JUDGE_ONLY_METRICS = ("multimodal_coherence", "multimodal-contextual-relevancy", "video-factual-consistency")


@pytest.mark.parametrize("metric", CLIP_METRICS)
def test_a_scene_description_is_not_measured_and_the_reason_names_what_measures_it(metric, clip_pair):
    pytest.importorskip("cv2")
    case = _scene_case(metric)
    output = case.pop("output")
    offline = check(output, {"metric": metric, "config": {"frames": 2}} if "video" in case else metric, **case)
    assert offline.value is None and offline.status == "not_measured"
    for fix in ("config.clip_model", "visual.onnx and textual.onnx", "provider: openai", "vision: true",
                "no vision model ships"):
        assert fix in offline.reason, (fix, offline.reason)
    # and it does: the same case with the CLIP export the reason asks for is measured
    config = {"clip_model": clip_pair, **({"frames": 2} if "video" in case else {})}
    measured = check(output, {"metric": metric, "config": config}, **case)
    assert measured.value is not None and measured.detail["evidence"] == "clip", measured.reason


@pytest.mark.parametrize("metric", JUDGE_ONLY_METRICS)
def test_a_metric_without_a_clip_path_names_only_the_vision_judge(metric):
    pytest.importorskip("cv2")
    case = _scene_case(metric)
    output = case.pop("output")
    offline = check(output, {"metric": metric, "config": {"frames": 2}} if "video" in case else metric, **case)
    assert offline.value is None and offline.status == "not_measured"
    assert "provider: openai" in offline.reason and "vision: true" in offline.reason
    # CLIP would not measure it, so it is not offered as the fix
    assert "config.clip_model does not apply" in offline.reason and "give config.clip_model" not in offline.reason
