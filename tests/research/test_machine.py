"""The benchmark helpers of research/machine.py: CPU steal share (pure arithmetic over /proc/stat readings),
the calibration loop and the CPU model name."""

from research.machine import cpu_times, steal_share


def test_steal_share_is_the_stolen_part_of_the_elapsed_cpu_time():
    assert steal_share((10, 1000), (60, 2000)) == 0.05
    assert steal_share((10, 1000), (10, 1000)) is None  # no time passed
    assert steal_share(None, (10, 1000)) is None


def test_cpu_times_reads_this_linux_machine():
    steal, total = cpu_times()
    assert 0 <= steal <= total and total > 0


def test_calibration_loop_takes_measurable_time():
    from research.machine import calibration_ms

    assert 1.0 < calibration_ms(repeat=1) < 10_000


def test_cpu_model_names_the_model_and_the_usable_cpus(tmp_path):
    from research.machine import cpu_model, usable_cpus

    info = tmp_path / "cpuinfo"
    info.write_text("processor\t: 0\nvendor_id\t: AuthenticAMD\nmodel name\t: AMD EPYC  7B13 64-Core Processor\n"
                    "processor\t: 1\nmodel name\t: AMD EPYC  7B13 64-Core Processor\n", "utf-8")
    assert cpu_model(info) == f"AMD EPYC 7B13 64-Core Processor, {usable_cpus()} CPUs"
    info.write_text("processor\t: 0\nmodel name\t:\n", "utf-8")  # some ARM guests leave it empty
    assert cpu_model(info) == f"unknown CPU, {usable_cpus()} CPUs"
    assert cpu_model(tmp_path / "missing") == f"unknown CPU, {usable_cpus()} CPUs"
