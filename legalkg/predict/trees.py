"""LightGBM's trees evaluated with numpy, from the model text the ranker file stores.

Why not ``lightgbm.Booster.predict``: importing LightGBM (with the scikit-learn and pandas it pulls
in) cost a cold `legalkg search` several seconds (eval/cli-startup/), for a hundred small trees over
two hundred rows. ``Trees.predict`` reads the same numbers from the same text and walks the trees as
LightGBM's ``Tree::NumericalDecision`` does (a NaN or zero value goes the stored default way where
the split says so; otherwise ``value <= threshold`` goes left), adding the leaf values in double in
tree order, so the scores are LightGBM's to the bit (tests/predict/test_trees.py compares them on the
shipped rankers). Only numerical splits are read: a model with categorical splits, linear trees or
several trees per iteration is refused with ``ValueError`` (the ranker never trains one).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

#: LightGBM's ``kZeroThreshold`` (1e-35f): a smaller magnitude counts as zero.
ZERO = float(np.float32(1e-35))
#: ``decision_type`` bits: default left, and the missing type (0 none, 1 zero, 2 NaN) in bits 2-3.
DEFAULT_LEFT = 2
MISSING_ZERO, MISSING_NAN = 1, 2


def numbers(value: str, kind: type) -> np.ndarray:
    return np.array([kind(v) for v in value.split()], dtype=np.float64 if kind is float else np.int64)


@dataclass
class Trees:
    """Every tree's nodes in flat arrays: tree ``t``'s internal nodes start at ``node_start[t]``, its
    leaves at ``leaf_start[t]``; a child below 0 is leaf ``~child`` of its tree."""

    text: str
    feature: np.ndarray
    threshold: np.ndarray
    decision: np.ndarray
    left: np.ndarray
    right: np.ndarray
    leaf_value: np.ndarray
    node_start: np.ndarray
    leaf_start: np.ndarray
    #: trees of a single leaf (no split): their value is added as is
    single: np.ndarray

    @classmethod
    def from_text(cls, text: str) -> Trees:
        """The trees of a LightGBM model text (``Booster.model_to_string``)."""
        head, _, body = text.partition("\nTree=")
        if "num_tree_per_iteration=1" not in head.split("\n"):
            raise ValueError("only one tree per iteration is read")
        blocks = ("Tree=" + body).split("end of trees")[0].split("\nTree=") if body else []
        parts: dict[str, list[np.ndarray]] = {k: [] for k in ("feature", "threshold", "decision", "left", "right",
                                                              "leaf")}
        node_start, leaf_start, single = [0], [0], []
        for t, block in enumerate(blocks):
            fields = dict(line.split("=", 1) for line in block.strip().split("\n")[1:] if "=" in line)
            if fields.get("num_cat", "0") != "0" or fields.get("is_linear", "0") != "0":
                raise ValueError(f"tree {t} has categorical or linear splits")
            leaves = numbers(fields["leaf_value"], float)
            if int(fields["num_leaves"]) > 1:
                for key, name, kind in (("feature", "split_feature", int), ("threshold", "threshold", float),
                                        ("decision", "decision_type", int), ("left", "left_child", int),
                                        ("right", "right_child", int)):
                    parts[key].append(numbers(fields[name], kind))
            else:
                single.append(t)
            parts["leaf"].append(leaves)
            node_start.append(node_start[-1] + (len(parts["feature"][-1]) if int(fields["num_leaves"]) > 1 else 0))
            leaf_start.append(leaf_start[-1] + len(leaves))
        joined = {k: np.concatenate(v) if v else np.zeros(0) for k, v in parts.items()}
        return cls(text, joined["feature"].astype(np.int64), joined["threshold"], joined["decision"].astype(np.int64),
                   joined["left"].astype(np.int64), joined["right"].astype(np.int64), joined["leaf"],
                   np.array(node_start[:-1]), np.array(leaf_start[:-1]), np.array(single, dtype=np.int64))

    @cached_property
    def missing_kinds(self) -> tuple[np.ndarray, np.ndarray]:
        """Per internal node its missing type and whether missing goes left (``decision`` bits)."""
        return (self.decision >> 2) & 3, (self.decision & DEFAULT_LEFT) != 0

    @property
    def n_trees(self) -> int:
        return len(self.node_start)

    def leaves(self, x: np.ndarray) -> np.ndarray:
        """(n_rows, n_trees) the leaf each row reaches in each tree (its index within the tree).
        Each step moves only the (row, tree) pairs still at an internal node one level down, so a
        step's work shrinks as shallow leaves are reached instead of staying rows x trees."""
        values = np.asarray(x, dtype=np.float64)
        values = np.where(np.abs(values) <= ZERO, 0.0, values)  # LightGBM drops them from the row
        n, trees = values.shape[0], self.n_trees
        out = np.zeros((n, trees), dtype=np.int64)  # a single-leaf tree's rows stay at its leaf 0
        split = np.setdiff1d(np.arange(trees), self.single)
        row = np.repeat(np.arange(n), len(split))
        tree = np.tile(split, n)
        at = self.node_start[tree]  # the internal node, as an index into the flat arrays
        kinds, default_left = self.missing_kinds
        while len(at):
            fval = values[row, self.feature[at]]
            kind = kinds[at]
            nan = np.isnan(fval)
            fval = np.where(nan & (kind != MISSING_NAN), 0.0, fval)
            missing = ((kind == MISSING_ZERO) & (np.abs(fval) <= ZERO)) | ((kind == MISSING_NAN) & nan)
            go_left = np.where(missing, default_left[at], fval <= self.threshold[at])
            child = np.where(go_left, self.left[at], self.right[at])
            leaf = child < 0
            out[row[leaf], tree[leaf]] = ~child[leaf]
            inner = ~leaf
            row, tree = row[inner], tree[inner]
            at = self.node_start[tree] + child[inner]
        return out

    def predict(self, x: np.ndarray) -> np.ndarray:
        """Raw scores (float64), the sum of each row's leaf values in tree order (as LightGBM adds them)."""
        leaf = self.leaf_value[self.leaf_start[None, :] + self.leaves(x)]
        out = np.zeros(leaf.shape[0], dtype=np.float64)
        for t in range(leaf.shape[1]):
            out += leaf[:, t]
        return out

    def contributions(self, x: np.ndarray) -> np.ndarray:
        """Each feature's contribution (SHAP values, the last column the expected value), from LightGBM
        itself: ``legalkg search --explain`` alone asks for them (they are not a walk of the trees)."""
        import lightgbm as lgb

        return lgb.Booster(model_str=self.text).predict(x, pred_contrib=True, num_threads=1)
