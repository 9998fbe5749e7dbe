import sys
import time

import numpy as np

from pathlib import Path
import tempfile
ROOT = Path(__file__).resolve().parents[3]  # the checkout
EXP = Path(tempfile.gettempdir()) / "exp"  # the scratch folder of these runs ($TMPDIR/exp)
sys.path.insert(0, str(ROOT / "benchmarks")); sys.path.insert(0, str(ROOT))
import lightgbm as lgb
import ranker_cv as rc

from legalkg.predict import Config, TrainingSet, cocite as cocitemod, grouped_folds, train
from legalkg.predict.ranker import PARAMS, candidates, para_labels
from legalkg.predict.rankfeatures import DEFAULT_FEATURES, FEATURES

units = rc.unit_texts(); degrees = rc.cites_degrees()
data, statutes, facts = rc.prepared(rc.LAY_FILES, "lay", units, degrees, 0)
ex = data.examples
labels = para_labels(data); golds = [set(g) for g in labels]
E_use = np.load(EXP / "E.npy")
from legalkg.embed import get_embedder

E_st = np.asarray(get_embedder("static").embed_queries([e.text for e in ex]), dtype=np.float32)
E_st /= np.linalg.norm(E_st, axis=1, keepdims=True) + 1e-9
import os

E = E_st if os.environ.get("ENC") == "static" else E_use
folds = grouped_folds([e.group for e in ex], 5, 0)
cfg = Config(forms=("lemma", "split"))
cands = [None]*len(ex); dense = [None]*len(ex); rrf = [None]*len(ex)
for K, POW in [(30, 2.0)]:
    pass
for tr, te in folds:
    t0 = time.time()
    model = train(TrainingSet("lay", [ex[i] for i in tr], data.sources), config=cfg, statutes=statutes, seed=0)
    table = cocitemod.fit([labels[i] for i in tr])
    texts = [ex[i].text for i in te]
    cs = candidates(model, texts, table, facts)
    S = E[te] @ E[tr].T
    for j, i in enumerate(te):
        cands[i] = cs[j]
        top = np.argsort(-S[j])[:30]
        votes = {}
        for t in top:
            w = max(S[j, t], 0) ** 4
            for lab in labels[tr[t]]:
                votes[lab] = votes.get(lab, 0) + w
        dense[i] = votes
    print("fold", time.time() - t0, flush=True)

def r_at(order, g, k=10):
    return len(set(order[:k]) & g) / len(g) if g else 0
dev = [i for i, e in enumerate(ex) if "train" not in str(e.group) and not e.id.startswith("train")]
print("ids sample", ex[0].id, ex[-1].id, ex[0].group, len(dev))
dk = [sorted(d, key=lambda u: -d[u]) for d in dense]
print("dense knn R@10 all", np.mean([r_at(dk[i], golds[i]) for i in range(len(ex)) if golds[i]]),
      "dev", np.mean([r_at(dk[i], golds[i]) for i in range(len(ex)) if golds[i] and "dev" in ex[i].id]), flush=True)
def aug(c, d):
    sc = np.array([d.get(u, 0.0) for u in c.ids], dtype=np.float32)
    order = np.argsort(-sc); rank = np.empty(len(sc)); rank[order] = np.arange(1, len(sc)+1)
    rank[sc <= 0] = np.nan
    gap = sc.max() - sc if len(sc) else sc
    return np.hstack([c.x, sc[:, None], rank[:, None], gap[:, None]])
cols = [FEATURES.index(f) for f in DEFAULT_FEATURES]
X_old = [c.x[:, cols] for c in cands]
X_new = [np.hstack([c.x[:, cols], aug(c, d)[:, -3:]]) for c, d in zip(cands, dense)]
res = {}
for name, X in (("old", X_old), ("dense", X_new)):
    out = [None]*len(ex)
    for tr, te in folds:
        keep = [i for i in tr if golds[i] & set(cands[i].ids)]
        x = np.vstack([X[i] for i in keep]); y = np.concatenate([[1 if u in golds[i] else 0 for u in cands[i].ids] for i in keep])
        r = lgb.LGBMRanker(**PARAMS, random_state=0).fit(x, y, group=[len(cands[i].ids) for i in keep])
        for i in te:
            s = r.predict(X[i]); out[i] = [cands[i].ids[j] for j in np.argsort(-s)]
    res[name] = out
    print(name, "R@10 all", np.mean([r_at(out[i], golds[i]) for i in range(len(ex)) if golds[i]]),
          "dev", np.mean([r_at(out[i], golds[i]) for i in range(len(ex)) if golds[i] and "dev" in ex[i].id]), flush=True)

import pickle; pickle.dump((res, [e.id for e in ex], [e.group for e in ex]), open(EXP / ("res-%s.pkl" % os.environ.get("ENC","use")), "wb"))
