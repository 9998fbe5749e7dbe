#!/usr/bin/env bash
# The shipped lay design (eval/ranker/router-more/) with one feature more, the entropy of the
# predictor's neighbour votes (`--ranker-features confidence`, rankfeatures.CONFIDENCE_FEATURES):
# router-more's two CVs (the same folds, seed and training files; ../lay-cv.sh says how to run it).
set -euo pipefail
exec bash eval/ranker/lay-cv.sh eval/ranker/confidence confidence
