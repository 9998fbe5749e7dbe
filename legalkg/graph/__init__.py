"""The statute graph in Neo4j: configuration and connection, schema, rows, loading (Cypher or bulk
import files), vectors, chunks, inspection. Running a local server is ``legalkg.server``'s job."""
