"""What an evaluation or training case is made of: its gold citations (``gold``) and its query (``query``).

Why a room below ``predict`` and ``eval``: the statute predictor trains on the same cases the
evaluation scores, read the same way, so gold parsing and query building sit under both instead
of inside one of them.
"""
