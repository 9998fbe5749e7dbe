"""Why a setup.py beside pyproject.toml: pyproject.toml can either find packages or list them, and the
wheel needs both. Every ``legalkg*`` package is found (a new one needs no edit here); the top-level
``cypher/`` (with its subfolders) and ``neo4j/``, which ``[tool.setuptools.package-dir]`` maps to
``legalkg.cypher`` and ``legalkg.neo4j``, are added so that the queries and the Neo4j pom ship inside
the package. Listing the query subfolders keeps setuptools from warning that they look importable; the
same holds for the web pages' data folders (templates, static), listed as packages of data.
"""

from setuptools import find_namespace_packages, find_packages, setup

QUERY_FOLDERS = [f"legalkg.cypher.{name}" for name in find_namespace_packages(where="cypher")]
WEB_FOLDERS = ["legalkg.serve.web.templates", "legalkg.serve.web.static"]

setup(packages=[*find_packages(include=["legalkg*"]), "legalkg.cypher", *QUERY_FOLDERS, "legalkg.neo4j", *WEB_FOLDERS])
