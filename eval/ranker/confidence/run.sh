#!/usr/bin/env bash
# The shipped lay design (eval/ranker/router-more/) with one feature more, the entropy of the
# predictor's neighbour votes (`--ranker-features confidence`, rankfeatures.CONFIDENCE_FEATURES): the
# same 5-fold CVs, folds, seed and training files as router-more, from a scratch copy of the checkout's
# HEAD; the runs write there and are copied here. From the repo root, with the quickstart's 58-code
# graph running and LEGALKG_SHARED and TMPDIR set; PYTHON names the interpreter (default .venv/bin/python).
set -euo pipefail
PYTHON=${PYTHON:-.venv/bin/python}
HERE=$PWD
TREE=$TMPDIR/confidence
rm -rf "$TREE" && mkdir -p "$TREE"
git archive HEAD | tar -x -C "$TREE"
[ ! -f .env ] || cp .env "$TREE/.env"   # the server's credentials (git-ignored)
G=$LEGALKG_SHARED/data/eval/gerlayqa
OUT=eval/ranker/confidence
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped --ranker-features confidence
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
