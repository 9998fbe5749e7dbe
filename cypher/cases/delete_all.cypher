// Remove every Decision node and its edges, in transactions of 10,000 decisions (an auto-commit query:
// session.run, not a managed transaction). For benchmarks that start from a graph without decisions.
MATCH (d:Decision)
CALL (d) { DETACH DELETE d } IN TRANSACTIONS OF 10000 ROWS
