// W_l: mean words per unit of one chunking level over the whole graph (__LABEL__ = Paragraph ...
// Doppelbuchstabe or Chunk). Units without text (empty or vanished §§) are left out: no index can
// return them, so they are not part of the corpus a retriever chooses from.
MATCH (n:__LABEL__)
WHERE n.words > 0
RETURN count(n) AS units, sum(n.words) AS words, avg(toFloat(n.words)) AS mean
