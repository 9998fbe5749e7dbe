// Whether the graph holds units of level __LABEL__ (the count store answers without a scan).
MATCH (n:__LABEL__)
RETURN count(n) AS units
