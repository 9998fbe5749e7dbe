"""Nested choice of LambdaRank parameters for the lay ranker (inner 3-fold CV inside each outer fold)."""
import os, pickle, sys, time
import numpy as np
from pathlib import Path
import tempfile
ROOT = Path(__file__).resolve().parents[3]  # the checkout
EXP = Path(tempfile.gettempdir()) / "exp"  # the scratch folder of these runs ($TMPDIR/exp)
sys.path.insert(0, str(ROOT / "benchmarks"))
import lightgbm as lgb
import ranker_cv as rc
from legalkg.predict import Config, TrainingSet, cocite as cocitemod, grouped_folds, train
from legalkg.predict.ranker import PARAMS, candidates, para_labels
from legalkg.predict.rankfeatures import DEFAULT_FEATURES, FEATURES

CACHE = str(EXP / "cands.pkl")
units = rc.unit_texts(); degrees = rc.cites_degrees()
data, statutes, facts = rc.prepared(rc.LAY_FILES, "lay", units, degrees, 0)
ex = data.examples
labels = para_labels(data); golds = [set(g) for g in labels]
folds = grouped_folds([e.group for e in ex], 5, 0)
if os.path.exists(CACHE):
    cands = pickle.load(open(CACHE, "rb"))
else:
    cands = [None] * len(ex)
    for tr, te in folds:
        model = train(TrainingSet("lay", [ex[i] for i in tr], data.sources), config=Config(forms=("lemma", "split")),
                      statutes=statutes, seed=0)
        table = cocitemod.fit([labels[i] for i in tr])
        for i, c in zip(te, candidates(model, [ex[i].text for i in te], table, facts)):
            cands[i] = c
    pickle.dump(cands, open(CACHE, "wb"))
cols = [FEATURES.index(f) for f in DEFAULT_FEATURES]
X = [c.x[:, cols] for c in cands]
GRID = {
    "shipped": {},
    "300 trees, lr 0.05": {"n_estimators": 300, "learning_rate": 0.05},
    "300 trees, lr 0.05, 15 leaves": {"n_estimators": 300, "learning_rate": 0.05, "num_leaves": 15},
    "truncation 40, 200 trees": {"n_estimators": 200, "lambdarank_truncation_level": 40},
}
def fit(idx, over):
    keep = [i for i in idx if golds[i] & set(cands[i].ids)]
    x = np.vstack([X[i] for i in keep]); y = np.concatenate([[1 if u in golds[i] else 0 for u in cands[i].ids] for i in keep])
    return lgb.LGBMRanker(**{**PARAMS, **over}, random_state=0).fit(x, y, group=[len(cands[i].ids) for i in keep])
def recall(model, idx):
    out = []
    for i in idx:
        if not golds[i]: continue
        s = model.predict(X[i]); top = [cands[i].ids[j] for j in np.argsort(-s)[:10]]
        out.append(len(set(top) & golds[i]) / len(golds[i]))
    return out
per = {name: {} for name in GRID}; nested = {}; chosen = []
for k, (tr, te) in enumerate(folds):
    t0 = time.time()
    inner = grouped_folds([ex[i].group for i in tr], 3, 0)
    score = {}
    for name, over in GRID.items():
        r = []
        for itr, ite in inner:
            r += recall(fit([tr[j] for j in itr], over), [tr[j] for j in ite])
        score[name] = np.mean(r)
    best = max(score, key=score.get); chosen.append(best)
    for name, over in GRID.items():
        m = fit(list(tr), over)
        for i, v in zip([i for i in te if golds[i]], recall(m, te)):
            per[name][i] = v
    for i in te:
        if golds[i]: nested[i] = per[best][i]
    print(f"fold {k}: inner {({n: round(v, 4) for n, v in score.items()})} -> {best}; {time.time() - t0:.0f} s", flush=True)
ids = sorted(nested)
for name in GRID:
    print(name, "R@10 all", round(np.mean([per[name][i] for i in ids]), 4),
          "dev", round(np.mean([per[name][i] for i in ids if "dev" in ex[i].id]), 4))
print("nested choice", chosen, "R@10 all", round(np.mean([nested[i] for i in ids]), 4),
      "dev", round(np.mean([nested[i] for i in ids if "dev" in ex[i].id]), 4))
pickle.dump((per, nested, chosen, [e.id for e in ex]), open(EXP / "params-res.pkl", "wb"))
