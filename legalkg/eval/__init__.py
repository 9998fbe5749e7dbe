"""Retrieval evaluation: the depth-stratified citation metric (ToER), statistics, datasets, reports.

Pure cores (``metric``, ``ir``, ``stats``, ``query``, ``gold``) are separate from the modules
that read files (``datasets``) or write them (``report``).
"""
