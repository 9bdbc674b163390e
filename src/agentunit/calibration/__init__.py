"""Calibration: how far the judge agrees with human verdicts, and thresholds fitted on them.

``agentunit calibrate SUITE`` runs the cases that carry human verdicts (``expected_pass`` or a
labels file), pairs each judge-backed metric result with its verdict and reports, per metric,
accuracy, balanced accuracy, Cohen's κ, the expected calibration error, the confusion matrix, the
best threshold on the labels and the worst disagreements; ``--write FILE`` keeps the fitted
thresholds for later runs (suite key ``calibration: FILE`` or ``run --calibration FILE``).

Modules: ``labels`` (reading verdicts), ``stats`` (the statistics), ``agreement`` (per-metric
figures), ``run`` (running the labelled cases), ``fit`` (fitted thresholds and the file), ``report``
(console and JSON output), ``keys`` (which metrics, under which name).
"""

from agentunit.calibration.agreement import MetricAgreement, Pair, agreement
from agentunit.calibration.fit import (
    Calibration,
    CalibrationFileError,
    FittedThreshold,
    fitted_thresholds,
    read_calibration,
    same_judge,
    write_calibration,
)
from agentunit.calibration.labels import LabelRow, read_labels
from agentunit.calibration.run import CalibrationRun, calibrate, select_labelled

__all__ = [
    "Calibration", "CalibrationFileError", "CalibrationRun", "FittedThreshold", "LabelRow", "MetricAgreement",
    "Pair", "agreement", "calibrate", "fitted_thresholds", "read_calibration", "read_labels", "same_judge",
    "select_labelled", "write_calibration",
]
