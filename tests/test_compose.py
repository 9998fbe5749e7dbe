"""docker-compose.yml runs the Neo4j that `legalkg neo4j start` runs: memory, auth, internal settings, ports.

Why: the design card starts Neo4j with `docker compose up`, the quickstart without Docker with
`legalkg neo4j start`; a setting tuned in one (the vector-index build, the heap) must reach the other.
The local side is what its conf writer produces with the CLI's defaults; the Docker side is the
compose file's ``NEO4J_*`` variables, named as the image's entrypoint turns them into settings.
`docker-compose config` itself runs in CI (.ci/compose_config.sh).
"""

from __future__ import annotations

import os
import re
import subprocess

import pytest
import yaml

from legalkg import paths
from legalkg.cli.ingest import ingest
from legalkg.cli.neo4j import neo4j_group
from legalkg.codes import resolve_codes
from legalkg.graph.config import DEFAULT_URI, load_config
from legalkg.graph.ingest import plan_load
from legalkg.paths import REPO_ROOT
from legalkg.server.conf import ServerSettings, read_conf, write_conf

COMPOSE = REPO_ROOT / "docker-compose.yml"
#: local settings that differ in a container by design: its own folders and JVM, and it listens on
#: every interface inside the container (the published ports are bound to 127.0.0.1 instead)
LOCAL_ONLY_PREFIXES = ("server.directories.", "server.jvm.")
LOCAL_ONLY = {"server.default_listen_address", "server.bolt.listen_address", "server.bolt.advertised_address",
              "server.http.listen_address", "server.http.advertised_address"}
#: the ports Neo4j listens on inside the image
CONTAINER_PORTS = {"bolt": 7687, "http": 7474}


def setting_name(variable: str) -> str:
    """``NEO4J_server_memory_heap_max__size`` -> ``server.memory.heap.max_size`` (the image's rule:
    strip the prefix, ``_`` becomes ``.``, ``__`` becomes ``_``)."""
    return variable.removeprefix("NEO4J_").replace("_", ".").replace("..", "_")


@pytest.fixture(scope="module")
def service() -> dict:
    return yaml.safe_load(COMPOSE.read_text("utf-8"))["services"]["neo4j"]


@pytest.fixture(scope="module")
def start_defaults() -> dict:
    return {p.name: p.default for p in neo4j_group.commands["start"].params}


@pytest.fixture(scope="module")
def local_conf(tmp_path_factory, start_defaults) -> dict[str, str]:
    """The neo4j.conf that `legalkg neo4j start` writes with its defaults (into a throwaway home)."""
    tmp = tmp_path_factory.mktemp("conf")
    lib = tmp / "lib"
    lib.mkdir()
    s = ServerSettings(home=tmp / "home", bolt_port=start_defaults["bolt_port"],
                       http_port=start_defaults["http_port"], auth=start_defaults["auth"],
                       password="conf-only", heap=start_defaults["heap"], pagecache=start_defaults["pagecache"])
    write_conf(s, lib)
    return read_conf(s.home)


def compose_settings(service: dict) -> dict[str, str]:
    env = service["environment"]
    return {setting_name(k): str(v) for k, v in env.items() if k.startswith("NEO4J_") and k != "NEO4J_AUTH"}


def test_setting_names():
    assert setting_name("NEO4J_server_memory_heap_max__size") == "server.memory.heap.max_size"
    assert (setting_name("NEO4J_internal_dbms_index_vector_population__ram__buffer__size")
            == "internal.dbms.index.vector.population_ram_buffer_size")


def test_every_local_setting_is_in_compose(service, local_conf):
    shared = {k: v for k, v in local_conf.items()
              if k not in LOCAL_ONLY and not k.startswith(LOCAL_ONLY_PREFIXES) and k != "dbms.security.auth_enabled"}
    assert "internal.dbms.index.vector.population_ram_buffer_size" in shared  # the comparison has teeth
    compose = compose_settings(service)
    differ = {k: (v, compose.get(k)) for k, v in shared.items() if compose.get(k) != v}
    assert not differ, f"docker-compose.yml differs from `legalkg neo4j start` (local, compose): {differ}"


def test_compose_sets_nothing_the_local_server_lacks(service, local_conf):
    extra = {k: v for k, v in compose_settings(service).items() if k not in local_conf}
    assert not extra, f"docker-compose.yml sets what `legalkg neo4j start` does not: {extra}"


def test_auth(service, local_conf):
    assert local_conf["dbms.security.auth_enabled"] == "true"
    auth = service["environment"]["NEO4J_AUTH"]
    assert auth.startswith("neo4j/${NEO4J_PASSWORD:?"), "compose must take the password from NEO4J_PASSWORD"


def interpolate(value: str, env: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` for the forms the file uses (``$$`` is a literal ``$``)."""
    value = re.sub(r"\$\{(\w+):-([^}]*)\}", lambda m: env.get(m.group(1)) or m.group(2), value)
    return value.replace("$$", "$")


def published(service: dict, env: dict[str, str]) -> dict[int, tuple[str, int]]:
    out = {}
    for spec in service["ports"]:
        host_ip, host_port, container_port = interpolate(str(spec), env).split(":")
        out[int(container_port)] = (host_ip, int(host_port))
    return out


def test_ports(service, start_defaults):
    ports = published(service, {})
    assert {ip for ip, _ in ports.values()} == {"127.0.0.1"}, f"{ports}: publish on 127.0.0.1 unless told otherwise"
    assert {ip for ip, _ in published(service, {"LEGALKG_BIND_ADDRESS": "0.0.0.0"}).values()} == {"0.0.0.0"}
    published_ports = {container: port for container, (_, port) in ports.items()}
    assert published_ports == {CONTAINER_PORTS["bolt"]: start_defaults["bolt_port"],
                         CONTAINER_PORTS["http"]: start_defaults["http_port"]}
    assert DEFAULT_URI == f"bolt://127.0.0.1:{start_defaults['bolt_port']}"


def env_example() -> dict[str, str]:
    return dict(ln.split("=", 1) for ln in (REPO_ROOT / ".env.example").read_text("utf-8").splitlines()
                if "=" in ln and not ln.startswith("#"))


def run_guard(service: dict, password: str, tmp_path) -> subprocess.CompletedProcess:
    """The compose entrypoint's script, run directly by /bin/sh as the container would run it, with a
    ``tini`` on PATH that prints what it would start instead of starting Neo4j."""
    shell, flag, script, name = service["entrypoint"]
    assert (shell, flag) == ("/bin/sh", "-c")
    stub = tmp_path / "bin"
    stub.mkdir(exist_ok=True)
    (stub / "tini").write_text('#!/bin/sh\necho "tini $*"\n', "utf-8")
    (stub / "tini").chmod(0o755)
    env = {**os.environ, "PATH": f"{stub}:{os.environ['PATH']}", "NEO4J_AUTH": f"neo4j/{password}"}
    return subprocess.run([shell, flag, interpolate(script, {}), name, *service["command"]], env=env,
                          capture_output=True, text=True, timeout=10)


def test_the_container_refuses_the_example_password(service, tmp_path):
    res = run_guard(service, env_example()["NEO4J_PASSWORD"], tmp_path)
    assert res.returncode == 1
    assert res.stdout == "" and res.stderr.count("\n") == 1
    assert "example password" in res.stderr and "set NEO4J_PASSWORD in .env" in res.stderr


def test_the_container_starts_the_image_entrypoint_with_another_password(service, tmp_path):
    res = run_guard(service, "a-password-of-my-own", tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout == "tini -g -- /startup/docker-entrypoint.sh neo4j\n"


def test_env_example_points_at_compose(start_defaults):
    lines = env_example()
    assert lines["NEO4J_URI"] == f"bolt://127.0.0.1:{start_defaults['bolt_port']}"
    assert len(lines["NEO4J_PASSWORD"]) >= 8  # Neo4j refuses shorter ones; quickstart replaces it


def test_design_card_ingest_needs_no_options(tmp_path):
    """`docker compose up`, then `legalkg ingest`: the defaults load the 58 default codes from the
    shared folder, through Cypher, into the server at the default URI with the password of .env."""
    params = ingest.make_context("ingest", []).params
    assert (params["codes_spec"], params["source"], params["embed"], params["method"]) == ("default", None, True, "auto")
    slugs = resolve_codes(params["codes_spec"])
    assert len(slugs) == 58
    if paths.gii_dir().is_dir():  # the source the defaults read
        assert not [s for s in slugs if not (paths.gii_dir() / f"{s}.xml").is_file()]
    assert plan_load(DEFAULT_URI, params["method"], home=tmp_path / "no-local-server").home is None
    dotenv = tmp_path / ".env"
    dotenv.write_text("NEO4J_PASSWORD=from-dotenv\n", "utf-8")
    cfg = load_config(env={}, dotenv_path=dotenv)
    assert (cfg.uri, cfg.user, cfg.password) == (DEFAULT_URI, "neo4j", "from-dotenv")


def test_quickstart_writes_env_private_with_a_fresh_password(tmp_path):
    """scripts/quickstart.sh's .env line, run in a scratch folder: mode 0600 (was 0644, readable by
    every user of the machine), and the example password replaced."""
    line = next(ln for ln in (REPO_ROOT / "scripts" / "quickstart.sh").read_text("utf-8").splitlines()
                if ln.startswith("[ -f .env ]"))
    (tmp_path / ".env.example").write_text((REPO_ROOT / ".env.example").read_text("utf-8"), "utf-8")
    subprocess.run(["bash", "-c", f"umask 022; {line}"], cwd=tmp_path, check=True, timeout=30)
    env = tmp_path / ".env"
    assert env.stat().st_mode & 0o777 == 0o600
    password = dict(ln.split("=", 1) for ln in env.read_text("utf-8").splitlines() if "=" in ln and ln[0] != "#")
    assert password["NEO4J_PASSWORD"].startswith("lkg-") and len(password["NEO4J_PASSWORD"]) == 20
