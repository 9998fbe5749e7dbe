"""legalkg: German federal statute law as a Neo4j knowledge graph, with honest retrieval evaluation."""

__version__ = "0.1.0"
