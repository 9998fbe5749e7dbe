#!/usr/bin/env bash
# The case ranker with the lay lead's ranker size (../capacity-gm/): ranker.PARAMS n_estimators 300 and
# learning_rate 0.05 instead of 100 and 0.1, from a scratch copy of the checkout's HEAD with that one line
# changed, against HEAD itself, side by side: legalkg eval on ler_all (both LER sets as one CV), 5 folds
# grouped by case, seed 0, fold rankers (the shipped case design), --level auto and § level, k 5, the
# shipped case weights, fulltext in the same run. From the repo root, with the quickstart's 58-code graph
# running and LEGALKG_SHARED and TMPDIR set; PYTHON names the interpreter (default .venv/bin/python).
# Then: $PYTHON eval/ranker/capacity-case/paired.py > eval/ranker/capacity-case/paired.md
set -euo pipefail
PYTHON=${PYTHON:-.venv/bin/python}
HERE=$PWD
TREE=$TMPDIR/capacity-case
rm -rf "$TREE" && mkdir -p "$TREE"
git archive HEAD | tar -x -C "$TREE"
[ ! -f .env ] || cp .env "$TREE/.env"   # the server's credentials (git-ignored)
sed -i 's/"n_estimators": 100, "learning_rate": 0.1,/"n_estimators": 300, "learning_rate": 0.05,/' "$TREE/legalkg/predict/ranker.py"
grep -q '"n_estimators": 300, "learning_rate": 0.05,' "$TREE/legalkg/predict/ranker.py"
OUT=eval/ranker/capacity-case
COMMON=(--dataset ler_all --level auto,Paragraph --expand none --mode learned,fulltext -k 5 --cv 5 --seed 0
        --bootstrap 1000 --permutations 10000 --gold-count fixed --fold-ranker shipped
        --weights predictor=1,cited=1,fulltext=0,vector=0 --quiet --force)
nice -n 5 "$PYTHON" -m legalkg.cli eval "${COMMON[@]}" --out $OUT/cv-100 &
(cd "$TREE" && PYTHONPATH=$TREE nice -n 5 "$HERE/$PYTHON" -m legalkg.cli eval "${COMMON[@]}" --out $OUT/cv-300) &
wait
rm -rf $OUT/cv-300
cp -r "$TREE/$OUT/cv-300" $OUT/
