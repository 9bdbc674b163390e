"""Privacy: PII detection and the privacy metrics.

    from agentunit.privacy import detect_pii
    from agentunit.privacy.metrics import PIILeakageMetric
"""

from agentunit.privacy.detectors import PII_TYPES, STRUCTURED_TYPES, PIIFinding, detect_pii, mask
from agentunit.privacy.metrics import (
    ConsentComplianceMetric,
    DataMinimizationMetric,
    PIILeakageMetric,
    PrivacyBudgetMetric,
)

__all__ = ["PII_TYPES", "STRUCTURED_TYPES", "ConsentComplianceMetric", "DataMinimizationMetric", "PIIFinding",
           "PIILeakageMetric", "PrivacyBudgetMetric", "detect_pii", "mask"]
