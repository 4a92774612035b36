"""semitopic from Python: semi-supervised topic models as scikit-learn
estimators, and drop-in replacements for corextopic (semitopic.corextopic)
and ssnmf (semitopic.ssnmf), all running in semitopic's Go library in
process (see python/README.md)."""

from .estimators import (
    AnchoredCorEx,
    GuidedNMF,
    SeededLDA,
    SSNMF,
    ThemeNMF,
    TSNMF,
    ESTIMATORS,
    load,
)
from ._model import kinds, load_demo

__version__ = "0.1.0"

__all__ = ["TSNMF", "SSNMF", "ThemeNMF", "GuidedNMF", "AnchoredCorEx", "SeededLDA", "ESTIMATORS", "load", "kinds", "load_demo"]
