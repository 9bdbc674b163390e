"""The embedded models (embeddings, judge, perplexity LM): catalog, install, and runtimes."""

from agentunit.models.catalog import MODELS, ModelSpec
from agentunit.models.store import ModelNotInstalled, install, is_installed, models_dir, require, status

__all__ = ["MODELS", "ModelNotInstalled", "ModelSpec", "install", "is_installed", "models_dir", "require", "status"]
