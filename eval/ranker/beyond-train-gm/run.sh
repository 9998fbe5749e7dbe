#!/usr/bin/env bash
# The shipped lay design (--ranker-features router) cross-validated with the lay training questions of
# eval/lay-beyond-train/ and the further ones of eval/lay-beyond-more/ (parts g to m; README.md here; the
# run of 2026-12-06 read one file, eval/lay-beyond-train/train.jsonl of commit 3fcecc9, which is these two
# files concatenated in this order, byte for byte), on the folds and other training
# files of eval/ranker/router-candidates/ and eval/ranker/compound-bm25/, whose runs of the same design
# before these parts are the baseline (paired.py). From the repo root, with the quickstart's 58-code graph
# running and LEGALKG_SHARED pointing at the shared folder; LEGALKG and PYTHON name the CLI and interpreter
# (default: legalkg, .venv/bin/python).
set -euo pipefail
LEGALKG=${LEGALKG:-legalkg}
PYTHON=${PYTHON:-.venv/bin/python}
G=$LEGALKG_SHARED/data/eval/gerlayqa
OUT=eval/ranker/beyond-train-gm
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped --ranker-features router
        --weights predictor=1,cited=1,fulltext=0,vector=0 --force)
nice -n 5 $LEGALKG eval --dataset lay_beyond "${COMMON[@]}" --train-extra $G/dev.jsonl --train-extra $G/train.jsonl \
    --train-extra eval/lay-beyond-train/train.jsonl --train-extra eval/lay-beyond-more/train.jsonl --out $OUT/cv-lay-beyond &
nice -n 5 $LEGALKG eval --dataset gerlayqa "${COMMON[@]}" --train-extra $G/train.jsonl --train-extra eval/lay-beyond/dev.jsonl \
    --train-extra eval/lay-beyond-train/train.jsonl --train-extra eval/lay-beyond-more/train.jsonl --out $OUT/cv-gerlayqa &
wait
$PYTHON $OUT/paired.py > $OUT/paired.md
