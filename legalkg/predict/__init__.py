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

from .cv import grouped_folds, out_of_fold
from .examples import TASKS, Example, TrainingSet, load_examples, resolve_labels
from .modelfile import DEFAULT_MODELS, FORMAT_VERSION, default_model_path, load as load_model, save as save_model
from .predictor import COMPONENTS, TASK_FORMS, Config, Predictor, parse_component_weights, task_config, train
from .statutes import StatuteIndex
from .units import LABEL_LEVELS, unit_texts

__all__ = ["COMPONENTS", "DEFAULT_MODELS", "FORMAT_VERSION", "LABEL_LEVELS", "TASKS", "Config", "Example", "Predictor",
           "StatuteIndex", "TrainingSet", "default_model_path", "grouped_folds", "load_examples", "load_model",
           "out_of_fold",
           "parse_component_weights", "resolve_labels", "save_model", "task_config", "train",
           "unit_texts", "TASK_FORMS"]
