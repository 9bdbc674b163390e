"""The composed test calls of tests/data/audio/calls.py, loaded as a module."""

import importlib.util
import sys
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "data" / "audio" / "calls.py"
_spec = importlib.util.spec_from_file_location("audio_calls", _PATH)
calls = importlib.util.module_from_spec(_spec)
sys.modules["audio_calls"] = calls  # dataclasses look their module up there
_spec.loader.exec_module(calls)

SCENARIOS = {s.name: s for s in calls.scenarios()}
Script = calls.Script
