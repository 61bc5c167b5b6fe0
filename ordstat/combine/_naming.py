"""How the combiners name models: one short name per estimator, as Brito, Celeux & Sousa
Ferreira (2006) write it, and the combination formula written with those names.

Its own module so that the serial combiner, the choice of models (``diverse``) and hierarchical
coupling all name models alike without importing one another.
"""

from __future__ import annotations

from .._core.validation import check_choice
from ..gaussian import EDDA, PAPER_NAMES

__all__ = ["NAMES", "model_name", "describe_weights"]

#: How EDDA models can be named: the paper's notation, mclust's letters, or "EDDA(EEI)".
NAMES = ("paper", "mclust", "short")
_SHORT = {"FullMultinomial": "FMM", "IndependenceModel": "FOIM", "KernelMultinomial": "KERNEL",
          "ProportionalOddsClassifier": "POLR", "OrdinalTreeClassifier": "TREE"}


def model_name(estimator, names="paper"):
    """A short name for a (fitted) estimator, as the paper writes it.

    EDDA models are written "[lambda B]" (``names="paper"``, Bensmail & Celeux 1996), "EEI"
    (``"mclust"``) or "EDDA(EEI)" (``"short"``); the discrete models are FMM, FOIM and KERNEL;
    other estimators their class name.
    """
    check_choice(names, "names", NAMES)
    model = getattr(estimator, "model_", None)
    if model is None and isinstance(getattr(estimator, "model", None), str):
        model = estimator.model.upper()
    if isinstance(estimator, EDDA) and isinstance(model, str):
        if names == "paper":
            return PAPER_NAMES.get(model, model)
        return model if names == "mclust" else f"EDDA({model})"
    cls = type(estimator).__name__
    return _SHORT.get(cls, cls)


def describe_weights(weights, labels, digits=2):
    """'0.79 [lambda B] + 0.21 [lambda I]'; weights that round to zero are left out."""
    shown = [(w, lab) for w, lab in zip(weights, labels) if round(float(w), digits) > 0]
    if len(shown) == 1:
        return shown[0][1]
    return " + ".join(f"{w:.{digits}f} {lab}" for w, lab in shown)
