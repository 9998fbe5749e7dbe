#!/usr/bin/env bash
# The lay engine's two 5-fold CVs of eval/ranker/router-more/ (seed 0; lay_beyond, each fold trained on
# GerLayQA dev + train, the other folds, eval/lay-beyond-train/ and eval/lay-beyond-more/; GerLayQA dev,
# each fold trained on the other folds, GerLayQA train, lay_beyond and the same two files), full-text in
# the same run, side by side from a scratch copy of the checkout's HEAD; the runs are copied to OUT and
# OUT/paired.py writes OUT/paired.md.
#   eval/ranker/lay-cv.sh OUT RANKER_FEATURES
# From the repo root, with the quickstart's 58-code graph running and LEGALKG_SHARED and TMPDIR set;
# PYTHON names the interpreter (default .venv/bin/python).
set -euo pipefail
OUT=${1:?OUT folder, e.g. eval/ranker/confidence}
FEATURES=${2:?--ranker-features value, e.g. router}
PYTHON=${PYTHON:-.venv/bin/python}
HERE=$PWD
TREE=$TMPDIR/$(basename "$OUT")
rm -rf "$TREE" && mkdir -p "$TREE"
git archive HEAD | tar -x -C "$TREE"
[ ! -f .env ] || cp .env "$TREE/.env"   # the server's credentials (git-ignored)
G=$LEGALKG_SHARED/data/eval/gerlayqa
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped --ranker-features "$FEATURES"
        --weights predictor=1,cited=1,fulltext=0,vector=0 --force)
cd "$TREE"
export PYTHONPATH=$TREE
nice -n 5 "$HERE/$PYTHON" -m legalkg.cli eval --dataset lay_beyond "${COMMON[@]}" --train-extra $G/dev.jsonl \
    --train-extra $G/train.jsonl --train-extra eval/lay-beyond-train/train.jsonl \
    --train-extra eval/lay-beyond-more/train.jsonl --out $OUT/cv-lay-beyond &
nice -n 5 "$HERE/$PYTHON" -m legalkg.cli eval --dataset gerlayqa "${COMMON[@]}" --train-extra $G/train.jsonl \
    --train-extra eval/lay-beyond/dev.jsonl --train-extra eval/lay-beyond-train/train.jsonl \
    --train-extra eval/lay-beyond-more/train.jsonl --out $OUT/cv-gerlayqa &
wait
cd "$HERE"
rm -rf $OUT/cv-lay-beyond $OUT/cv-gerlayqa
cp -r "$TREE/$OUT/cv-lay-beyond" "$TREE/$OUT/cv-gerlayqa" $OUT/
$PYTHON $OUT/paired.py > $OUT/paired.md
