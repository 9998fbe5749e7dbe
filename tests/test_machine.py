"""CPU steal share for benchmark reports (pure arithmetic over /proc/stat readings)."""

from legalkg.machine import cpu_times, steal_share


def test_steal_share_is_the_stolen_part_of_the_elapsed_cpu_time():
    assert steal_share((10, 1000), (60, 2000)) == 0.05
    assert steal_share((10, 1000), (10, 1000)) is None  # no time passed
    assert steal_share(None, (10, 1000)) is None


def test_cpu_times_reads_this_linux_machine():
    steal, total = cpu_times()
    assert 0 <= steal <= total and total > 0


def test_calibration_loop_takes_measurable_time():
    from legalkg.machine import calibration_ms

    assert 1.0 < calibration_ms(repeat=1) < 10_000
