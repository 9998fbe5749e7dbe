"""How many worker processes ``--workers`` picks by itself (legalkg/machine.py)."""


def test_default_workers_are_the_usable_cpus_capped():
    import os

    from legalkg.machine import MAX_AUTO_WORKERS, default_workers, usable_cpus

    assert usable_cpus() == len(os.sched_getaffinity(0))
    assert default_workers() == min(len(os.sched_getaffinity(0)), MAX_AUTO_WORKERS)
