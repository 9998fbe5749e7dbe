"""A tiny OpenAI-compatible chat endpoint on localhost, for the ``--llm`` path without a remote model.

It answers ``POST <base>/chat/completions`` in the OpenAI response format and picks a fixed rule
by the system prompt of the request (``research.chunking.llm.PROMPTS``): propositions = the text
split at " und ", one per line with a "- " bullet; context, summary and boundary = fixed answers.
Every request is kept in ``requests`` so a test can check what the client sent.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from research.chunking.llm import PROMPTS

CONTEXT = "Kontext: Wohnraummietrecht, Mietsicherheit."
SUMMARY = "Zusammenfassung der Vorschriften über die Mietsicherheit."


def split_und(text: str) -> list[str]:
    """The stand-in proposition rule: every ' und ' starts a new statement."""
    return [p.strip() for p in text.split(" und ") if p.strip()]


def answer(system: str, user: str, boundary: str) -> str:
    if system == PROMPTS["propositions"]:
        return "\n".join(f"- {p}" for p in split_und(user))
    if system == PROMPTS["context"]:
        return CONTEXT
    if system == PROMPTS["summary"]:
        return SUMMARY
    if system == PROMPTS["boundary"]:
        return boundary
    return "?"


class ChatServer:
    """``with ChatServer() as srv:`` serves on ``srv.base_url`` until the block ends; ``reply``
    replaces the answer body (to test a server that does not speak the format)."""

    def __init__(self, boundary: str = "0", status: int = 200, reply: dict | None = None):
        self.requests: list[dict] = []
        self.boundary, self.status, self.reply = boundary, status, reply
        owner = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's naming)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                owner.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                msgs = {m["role"]: m["content"] for m in body["messages"]}
                reply = {"id": "x", "object": "chat.completion", "model": body["model"],
                         "choices": [{"index": 0, "finish_reason": "stop",
                                      "message": {"role": "assistant",
                                                  "content": answer(msgs["system"], msgs["user"],
                                                                    owner.boundary)}}]}
                data = json.dumps(reply if owner.reply is None else owner.reply).encode("utf-8")
                self.send_response(owner.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):  # keep the test output clean
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self.base_url = f"http://127.0.0.1:{self._server.server_address[1]}/v1"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    def __enter__(self) -> ChatServer:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def kinds(self) -> set[str]:
        """Which prompts (propositions, context, summary, boundary) the server was asked."""
        by_prompt = {v: k for k, v in PROMPTS.items()}
        return {by_prompt.get(r["body"]["messages"][0]["content"], "?") for r in self.requests}
