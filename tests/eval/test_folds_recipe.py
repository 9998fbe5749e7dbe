"""The CV folds of `legalkg eval` train the recipe that is shipped (pure: no server)."""

from legalkg.predict import TASK_FORMS, load_model, task_config
from legalkg.predict.modelfile import default_model_path


def test_each_task_config_is_the_shipped_models_config():
    for task, forms in TASK_FORMS.items():
        shipped = load_model(default_model_path(task))
        assert task_config(task).forms == forms == tuple(shipped.config.forms), task
