#!/usr/bin/env bash
# The lay engine with passage BM25/vectors, citation degrees, Gliederung match and citation neighbours
# in the ranker's candidate stage and features (issue 42, --ranker-features passage), cross-validated on
# the same folds and training files as eval/ranker/router-candidates/ (README.md here). From the repo root,
# with the quickstart's 58-code graph running and LEGALKG_SHARED pointing at the shared folder.
set -euo pipefail
G=$LEGALKG_SHARED/data/eval/gerlayqa
OUT=eval/ranker/passage-candidates
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped --ranker-features passage
        --weights predictor=1,cited=1,fulltext=0,vector=0 --force)
nice -n 5 legalkg eval --dataset lay_beyond "${COMMON[@]}" --train-extra $G/dev.jsonl --train-extra $G/train.jsonl \
  --train-extra eval/lay-beyond-train/train.jsonl --out $OUT/cv-lay-beyond &
nice -n 5 legalkg eval --dataset gerlayqa "${COMMON[@]}" --train-extra $G/train.jsonl --train-extra eval/lay-beyond/dev.jsonl \
  --train-extra eval/lay-beyond-train/train.jsonl --out $OUT/cv-gerlayqa &
wait
.venv/bin/python eval/ranker/passage-candidates/paired.py > eval/ranker/passage-candidates/paired.md
