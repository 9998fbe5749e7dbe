#!/usr/bin/env bash
# The lay engine whose graph BM25 reads the compound parts of the query words no § text uses
# (--ranker-features compounds, issue 42), cross-validated on the same folds and training files as
# eval/ranker/passage-candidates/ and eval/ranker/router-candidates/ (README.md here), with the shipped
# design (--ranker-features router) rerun on GerLayQA and then on lay_beyond in the same session. From
# the repo root, with the quickstart's 58-code graph running and LEGALKG_SHARED pointing at the shared
# folder; LEGALKG and PYTHON name the CLI and interpreter (default: legalkg, .venv/bin/python).
set -euo pipefail
LEGALKG=${LEGALKG:-legalkg}
PYTHON=${PYTHON:-.venv/bin/python}
G=$LEGALKG_SHARED/data/eval/gerlayqa
OUT=eval/ranker/compound-bm25
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped
        --weights predictor=1,cited=1,fulltext=0,vector=0 --force)
LAY=(--dataset lay_beyond "${COMMON[@]}" --train-extra $G/dev.jsonl --train-extra $G/train.jsonl
     --train-extra eval/lay-beyond-train/train.jsonl)
GER=(--dataset gerlayqa "${COMMON[@]}" --train-extra $G/train.jsonl --train-extra eval/lay-beyond/dev.jsonl
     --train-extra eval/lay-beyond-train/train.jsonl)
(nice -n 5 $LEGALKG eval "${LAY[@]}" --ranker-features compounds --out $OUT/cv-lay-beyond
 nice -n 5 $LEGALKG eval "${LAY[@]}" --ranker-features router --out $OUT/cv-lay-beyond-router) &
nice -n 5 $LEGALKG eval "${GER[@]}" --ranker-features compounds --out $OUT/cv-gerlayqa &
nice -n 5 $LEGALKG eval "${GER[@]}" --ranker-features router --out $OUT/cv-gerlayqa-router &
wait
$PYTHON $OUT/paired.py > $OUT/paired.md
