// The laws in the graph (Gesetz ids = the law segment of every unit id): gold citations of other
// laws cannot be retrieved and are left out of the evaluation (coverage is reported).
MATCH (g:Gesetz)
RETURN g.id AS id
ORDER BY id
