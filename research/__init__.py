"""Research beside the product: the chunking study, the paper's quoted figures, the oracle bound and the
benchmark helpers. Not in the wheel (``setup.py`` ships ``legalkg*`` only): run from a checkout, as
``python -m research.chunking`` or through ``benchmarks/*.py``, with the dev install of legalkg."""
