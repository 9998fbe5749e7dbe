"""The tools' argument checks, HTTP and MCP alike, without a server: every field with every wrong
JSON type is a 4xx ``{"error": ...}`` of one line, unknown arguments are refused on both
transports with the same line, and no error echoes more than a short prefix of the input.

These requests never reach Neo4j (the check comes first), so the tools run over no driver.
"""

from __future__ import annotations

import asyncio
import json
import typing

import pytest
from fastapi.testclient import TestClient

from legalkg.errors import UserError
from legalkg.serve import Tools, build_app, build_server
from legalkg.serve.args import TOOL_ARGS, parse_args

WRONG = {"number": 5, "fraction": 1.5, "string": "x", "list": [1], "object": {"a": 1}, "null": None, "bool": True}
#: a valid value of each required argument, so that only the field under test is wrong
VALID = {"query": "Kaution", "text": "Nach § 433 BGB"}


def accepts(annotation, value) -> bool:
    types = typing.get_args(annotation) or (annotation,)
    return any((t is type(None) and value is None) or (t is int and type(value) is int)
               or (t is bool and type(value) is bool) or (t is str and isinstance(value, str)) for t in types)


def cases():
    for tool, model in TOOL_ARGS.items():
        for name, field in model.model_fields.items():
            for kind, value in WRONG.items():
                if not accepts(field.annotation, value):
                    yield tool, name, kind, value


@pytest.fixture(scope="module")
def tools() -> Tools:
    return Tools(None, "neo4j")


@pytest.fixture(scope="module")
def client(tools) -> TestClient:
    return TestClient(build_app(tools), raise_server_exceptions=False)


def one_line_error(resp) -> str:
    assert 400 <= resp.status_code < 500, (resp.status_code, resp.text)
    body = resp.json()
    assert list(body) == ["error"] and "\n" not in body["error"]
    return body["error"]


@pytest.mark.parametrize(("tool", "name", "kind", "value"), list(cases()))
def test_every_field_with_every_wrong_json_type_is_a_4xx_json_error(client, tool, name, kind, value):
    body = {k: v for k, v in VALID.items() if k in TOOL_ARGS[tool].model_fields} | {name: value}
    message = one_line_error(client.post(f"/{tool}", json=body))
    assert repr(name) in message or "missing" in message


def test_a_malformed_body_or_path_has_the_same_error_shape(client):
    for resp in (client.post("/search", content=b"{bad"), client.post("/search", content=b"[1, 2]"),
                 client.post("/search", content=b"NaN"), client.post("/nope", json={}), client.get("/verify")):
        one_line_error(resp)


def test_unknown_arguments_are_refused_on_mcp_as_on_http(client, tools):
    http = one_line_error(client.post("/search", json={"query": "Kaution", "bogus": 1}))
    server = build_server(tools)
    with pytest.raises(Exception) as err:  # the SDK's ToolError: its text is what the model reads
        asyncio.run(server.call_tool("search", {"query": "Kaution", "bogus": 1}))
    # the SDK puts "Error executing tool search: " before the tool's own line
    assert str(err.value).endswith(": " + http) and "\n" not in str(err.value)
    assert http.startswith("unknown argument(s) 'bogus'")


def test_mcp_validation_errors_are_one_line(tools):
    server = build_server(tools)
    with pytest.raises(Exception) as err:
        asyncio.run(server.call_tool("verify", {"text": 5}))
    assert str(err.value).endswith(": argument 'text' of verify must be a string, not a number")
    assert "\n" not in str(err.value) and "http" not in str(err.value)


def test_mcp_lists_the_shared_models_schema(tools):
    listed = {t.name: t for t in asyncio.run(build_server(tools).list_tools())}
    for name, model in TOOL_ARGS.items():
        schema = listed[name].input_schema if hasattr(listed[name], "input_schema") else listed[name].inputSchema
        assert set(schema["properties"]) == set(model.model_fields)
        assert schema.get("additionalProperties") is False


def test_echoed_input_is_cut_to_a_short_prefix(client):
    huge = "x" * 200_000
    for tool, body in (("get_unit", {"citation": huge}), ("search", {"query": "Kaution", "level": huge}),
                       ("search", {"query": "Kaution", huge: 1})):
        message = one_line_error(client.post(f"/{tool}", json=body))
        assert len(message) < 300, message[:300]


def test_parse_args_names_the_argument_not_the_value():
    with pytest.raises(UserError) as err:
        parse_args("get_unit", {"id": ["x" * 10_000]})
    assert str(err.value) == "argument 'id' of get_unit must be a string or null, not a list"
    assert json.dumps(parse_args("context", {"query": "q"}).model_dump()) == (
        '{"query": "q", "budget": 1000, "task": null, "law": null}')


def test_an_over_long_argument_is_refused_by_its_limit_not_read():
    with pytest.raises(UserError, match=r"argument 'id' of get_unit is longer than 2,000 characters"):
        parse_args("get_unit", {"id": "x" * 10_000_000})
    with pytest.raises(UserError, match=r"argument 'text' of verify is longer than 1,000,000 characters"):
        parse_args("verify", {"text": "§ 1 BGB " * 200_000})


def test_a_lone_surrogate_is_named_not_a_string_that_is_not_a_string():
    with pytest.raises(UserError) as err:
        parse_args("verify", json.loads('{"text": "\\ud800 x"}'))
    assert "surrogate" in str(err.value) and "not a string" not in str(err.value)
