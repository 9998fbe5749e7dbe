"""The Neo4j side: local server from Maven jars, configuration and connection, schema, loading, stats."""
