#!/usr/bin/env bash
# The shipped lay design (eval/ranker/capacity-gm/: eval/lay-beyond-more/ in the training files, a ranker
# of ranker.SIZE) with the law router refitted on eval/lay-beyond-more/ too (eval/law-router-lay/learned/):
# the same 5-fold CV, folds, seed and training files as capacity-gm (../lay-cv.sh says how to run it).
set -euo pipefail
exec bash eval/ranker/lay-cv.sh eval/ranker/router-more router
