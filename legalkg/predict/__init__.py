"""The statute predictor: learn from cited units which units a question or a decision needs.

Public API (pure apart from reading training files and the model file; no Neo4j):

- ``load_examples(paths, task=None, known_ids=None) -> TrainingSet`` (lay JSONL or the LER form)
- ``unit_texts(slugs=None) -> {unit id: text}`` (today from the gii XML; later from the graph)
- ``train(training_set, units=None, config=None) -> Predictor``
- ``Predictor.predict(texts, k, level) -> per text [(unit id, score), ...]``; ``explain`` adds each
  component's share; ``attach_units(units)`` gives a loaded model its bridge texts
- ``save_model(predictor, path)`` / ``load_model(path)``, ``default_model_path(task)``;
  ``Predictor.seen(case_ids)`` names the cases a model was trained on (eval must not score there);
  ``grouped_folds`` / ``out_of_fold`` for CV
"""

from typing import TYPE_CHECKING

from ..lazy import package_face

#: public name -> the submodule that defines it (and the name there): the face loads a submodule on
#: first use (PEP 562), because the CV helpers import scikit-learn (about a second) and
#: ``from legalkg.predict.text import tokens`` (verify, auto) runs this file first
_FACE: dict[str, tuple[str, str]] = {
    **{name: ("cv", name) for name in ("grouped_folds", "out_of_fold")},
    **{name: ("examples", name) for name in ("TASKS", "Example", "TrainingSet", "load_examples", "resolve_labels")},
    **{name: ("modelfile", name) for name in ("DEFAULT_MODELS", "FORMAT_VERSION", "default_model_path")},
    "load_model": ("modelfile", "load"), "save_model": ("modelfile", "save"),
    **{name: ("predictor", name) for name in ("COMPONENTS", "TASK_FORMS", "Config", "Predictor",
                                              "parse_component_weights", "task_config", "train")},
    "StatuteIndex": ("statutes", "StatuteIndex"),
    "LABEL_LEVELS": ("labels", "LABEL_LEVELS"), "unit_texts": ("units", "unit_texts"),
}

if TYPE_CHECKING:
    from .cv import grouped_folds, out_of_fold
    from .examples import TASKS, Example, TrainingSet, load_examples, resolve_labels
    from .labels import LABEL_LEVELS
    from .modelfile import DEFAULT_MODELS, FORMAT_VERSION, default_model_path, load as load_model, save as save_model
    from .predictor import COMPONENTS, TASK_FORMS, Config, Predictor, parse_component_weights, task_config, train
    from .statutes import StatuteIndex
    from .units import unit_texts


__getattr__ = package_face(__name__, _FACE, globals())


__all__ = ["COMPONENTS", "DEFAULT_MODELS", "FORMAT_VERSION", "LABEL_LEVELS", "TASKS", "Config", "Example", "Predictor",
           "StatuteIndex", "TrainingSet", "default_model_path", "grouped_folds", "load_examples", "load_model",
           "out_of_fold",
           "parse_component_weights", "resolve_labels", "save_model", "task_config", "train",
           "unit_texts", "TASK_FORMS"]
