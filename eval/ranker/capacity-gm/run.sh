#!/usr/bin/env bash
# The run of eval/ranker/beyond-train-gm/run.sh (the shipped lay design, trained with eval/lay-beyond-train/
# and eval/lay-beyond-more/) with a ranker of three times the trees at half the learning rate
# (ranker.PARAMS: n_estimators 300, learning_rate 0.05 instead of 100 and 0.1; nothing else changed),
# from a scratch copy of the checkout's HEAD with that one line changed (README.md here); the runs write
# there and are copied here. From the repo
# root, with the quickstart's 58-code graph running and LEGALKG_SHARED and TMPDIR set; PYTHON names the
# interpreter whose legalkg console script runs (default .venv/bin/python).
set -euo pipefail
PYTHON=${PYTHON:-.venv/bin/python}
HERE=$PWD
TREE=$TMPDIR/capacity-gm
rm -rf "$TREE" && mkdir -p "$TREE"
git archive HEAD | tar -x -C "$TREE"
sed -i 's/"n_estimators": 100, "learning_rate": 0.1,/"n_estimators": 300, "learning_rate": 0.05,/' "$TREE/legalkg/predict/ranker.py"
grep -q '"n_estimators": 300, "learning_rate": 0.05,' "$TREE/legalkg/predict/ranker.py"
G=$LEGALKG_SHARED/data/eval/gerlayqa
OUT=eval/ranker/capacity-gm
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped --ranker-features router
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
