"""Pydantic models built from values that already have their fields' types, without validation (pure).

Why: a 1 MB text of "§§ 1, 1, 1, … BGB" makes 333,000 citation matches and as many records; pydantic's
validation (or ``model_construct``, which looks at every field's default per call, or ``model_copy``)
cost about a fifth of verifying it. ``builder(Model)`` returns a function that makes the model from a
dict holding every field in declaration order, setting exactly what a validated construction with every
field given sets (``tests/test_fastmodel.py`` compares them).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)


def builder(cls: type[M]) -> Callable[[dict[str, Any]], M]:
    """A function ``values -> cls`` for dicts that hold every field of ``cls`` (in declaration order),
    each of its field's type already. The dict becomes the model's own: the caller does not keep it."""
    fields = frozenset(cls.model_fields)
    new = cls.__new__
    set_attr = object.__setattr__

    def build(values: dict[str, Any]) -> M:
        model = new(cls)
        set_attr(model, "__dict__", values)
        set_attr(model, "__pydantic_fields_set__", set(fields))
        set_attr(model, "__pydantic_extra__", None)
        set_attr(model, "__pydantic_private__", None)
        return model

    return build
