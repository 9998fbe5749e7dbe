// What is cited together with § 573 BGB: the §§ that training cases of the shipped predictors cite
// together with it (CO_CITED, written by `legalkg ingest`; task 'lay' = GerLayQA questions, 'case' =
// LER decisions; :param task => null for both). cases = training cases citing both, npmi = normalised
// PMI in [-1, 1] (1: always together). Each pair is stored once, so the pattern has no direction.
:param id => 'BGB/§573';
:param task => 'lay';
MATCH (p:Unit {id: $id})-[c:CO_CITED]-(other:Unit)
WHERE $task IS NULL OR c.task = $task
RETURN other.citation AS cited_with, other.title AS title, c.task AS task, c.count AS cases,
       round(c.npmi, 3) AS npmi
ORDER BY c.npmi DESC, c.count DESC, cited_with
LIMIT 25;
