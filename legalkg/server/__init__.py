"""Running a local Neo4j Community server without Docker (``legalkg neo4j start|stop|status``).

Modules, each with one job: ``jars`` (the Maven jars), ``jvm`` (which Java, cache bookkeeping),
``caches`` (where the JVM start-up caches live), ``training`` (recording the server's cache),
``conf`` (neo4j.conf written and read back), ``process`` (launch, stop, status of the JVM),
``startup`` (a whole start), ``offline_import`` (the server's side of a bulk import).
Nothing here knows the statute graph: ``legalkg.graph`` loads into whatever server it is given.
"""
