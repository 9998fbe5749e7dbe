#!/usr/bin/env bash
# The passage design (`--ranker-features passage`: the router design plus each §'s best Absatz by BM25 and
# by static vector, the §'s citation degrees, its Gliederung titles' match and the citation neighbours of
# the strongest candidates, ../passage-candidates/) with the shipped lay ranker's size and training data
# (ranker.SIZE, eval/lay-beyond-more/ in training, ../capacity-gm/), against the shipped design of
# ../capacity-gm/ (same folds, seed 0, same training files). From the repo root, with the quickstart's
# 58-code graph running and LEGALKG_SHARED and TMPDIR set; LEGALKG names the CLI (default .venv/bin/legalkg).
# Then: .venv/bin/python eval/ranker/passage-capacity/paired.py > eval/ranker/passage-capacity/paired.md
set -euo pipefail
LEGALKG=${LEGALKG:-.venv/bin/legalkg}
G=$LEGALKG_SHARED/data/eval/gerlayqa
OUT=eval/ranker/passage-capacity
COMMON=(--level Paragraph --expand none --mode learned,fulltext -k 10 --seed 0 --bootstrap 1000
        --permutations 10000 --gold-count fixed --cv 5 --fold-ranker shipped --ranker-features passage
        --weights predictor=1,cited=1,fulltext=0,vector=0 --force)
nice -n 5 "$LEGALKG" eval --dataset lay_beyond "${COMMON[@]}" --train-extra $G/dev.jsonl \
    --train-extra $G/train.jsonl --train-extra eval/lay-beyond-train/train.jsonl \
    --train-extra eval/lay-beyond-more/train.jsonl --out $OUT/cv-lay-beyond &
nice -n 5 "$LEGALKG" eval --dataset gerlayqa "${COMMON[@]}" --train-extra $G/train.jsonl \
    --train-extra eval/lay-beyond/dev.jsonl --train-extra eval/lay-beyond-train/train.jsonl \
    --train-extra eval/lay-beyond-more/train.jsonl --out $OUT/cv-gerlayqa &
wait
