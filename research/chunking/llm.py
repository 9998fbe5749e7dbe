"""LLM backend for the study's generative steps: any OpenAI-compatible chat endpoint (I/O).

Why: the paper builds propositions, contextual prefixes, RAPTOR summaries and Lumber boundaries
with an LLM; the study's defaults are deterministic stand-ins that run offline. ``legalkg
chunking-study --llm`` replaces all four by calls to the endpoint named by ``LEGALKG_LLM_BASE_URL``
(e.g. http://localhost:8000/v1), ``LEGALKG_LLM_MODEL`` and optionally ``LEGALKG_LLM_API_KEY``.
urllib only: no new dependency. The tests talk to a local stand-in server in the same format
(tests/chunking/llm_server.py), so the path is exercised without a remote model.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from pydantic import BaseModel

from legalkg.errors import UserError


class LLMConfig(BaseModel):
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> LLMConfig | None:
        """The configured endpoint, or None when ``LEGALKG_LLM_BASE_URL`` / ``_MODEL`` are unset."""
        env = dict(os.environ) if env is None else env
        base, model = env.get("LEGALKG_LLM_BASE_URL", "").strip(), env.get("LEGALKG_LLM_MODEL", "").strip()
        if not base or not model:
            return None
        return cls(base_url=base.rstrip("/"), model=model, api_key=env.get("LEGALKG_LLM_API_KEY") or None)


def require_config() -> LLMConfig:
    """The endpoint for ``--llm``; a clear error naming the variables when none is configured."""
    cfg = LLMConfig.from_env()
    if cfg is None:
        raise UserError("--llm needs an OpenAI-compatible endpoint: set LEGALKG_LLM_BASE_URL and "
                        "LEGALKG_LLM_MODEL (and LEGALKG_LLM_API_KEY if it needs one)")
    return cfg


def chat(cfg: LLMConfig, system: str, user: str, max_tokens: int = 256) -> str:
    """One chat completion (temperature 0); the answer text."""
    body = json.dumps({"model": cfg.model, "temperature": 0, "max_tokens": max_tokens,
                       "messages": [{"role": "system", "content": system},
                                    {"role": "user", "content": user}]}).encode("utf-8")
    headers = {"Content-Type": "application/json"}
    if cfg.api_key:
        headers["Authorization"] = f"Bearer {cfg.api_key}"
    req = urllib.request.Request(f"{cfg.base_url}/chat/completions", data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=cfg.timeout) as resp:
            data = json.loads(resp.read().decode("utf-8"))
    except (urllib.error.URLError, TimeoutError, json.JSONDecodeError) as err:
        raise UserError(f"LLM endpoint {cfg.base_url} failed ({err}): check LEGALKG_LLM_BASE_URL") from None
    try:
        return data["choices"][0]["message"]["content"].strip()
    except (KeyError, IndexError, TypeError, AttributeError):
        raise UserError(f"LLM endpoint {cfg.base_url} answered without choices[0].message.content: "
                        "point LEGALKG_LLM_BASE_URL at an OpenAI-compatible /v1 endpoint") from None


PROMPTS = {
    "propositions": ("Zerlege den deutschen Gesetzestext in möglichst kleine, eigenständige Aussagen. "
                     "Eine Aussage pro Zeile, ohne Nummerierung. Ist keine Zerlegung möglich, gib den Satz unverändert zurück."),
    "context": ("Gib einen kurzen Kontext (ein Satz) an, der den Textausschnitt innerhalb der Vorschrift "
                "für die Suche einordnet. Nur den Kontext ausgeben."),
    "summary": "Fasse die folgenden Vorschriften in zwei Sätzen auf Deutsch zusammen.",
    "boundary": ("Die folgenden nummerierten Abschnitte stammen aus einem Gesetz. Nenne die Nummer des ersten "
                 "Abschnitts, bei dem ein neues Thema beginnt, oder 0, wenn alle zusammengehören. Nur die Zahl."),
}


def llm_propositions(cfg: LLMConfig, sentence: str) -> list[str]:
    """One statement per answer line (bullets stripped); the sentence itself if the answer is empty."""
    lines = [ln.strip(" -•\t") for ln in chat(cfg, PROMPTS["propositions"], sentence, 512).splitlines()]
    return [ln for ln in lines if ln] or [sentence]


def llm_context(cfg: LLMConfig, section_text: str, unit_text: str) -> str:
    """A situating sentence for a unit within its § (Anthropic's contextual retrieval prefix)."""
    return chat(cfg, PROMPTS["context"], f"Vorschrift:\n{section_text}\n\nAusschnitt:\n{unit_text}", 120)


def llm_summary(cfg: LLMConfig, texts: list[str]) -> str:
    """A RAPTOR node's summary of its leaves (input capped at 12,000 characters)."""
    return chat(cfg, PROMPTS["summary"], "\n".join(texts)[:12000], 200)


def llm_boundary(cfg: LLMConfig, texts: list[str]) -> int:
    """Units to take: the first unit of the next chunk minus one (whole group if 0 / unreadable)."""
    listing = "\n".join(f"{i}: {t}" for i, t in enumerate(texts, 1))
    answer = chat(cfg, PROMPTS["boundary"], listing, 8)
    digits = "".join(ch for ch in answer if ch.isdigit())
    first_new = int(digits) if digits else 0
    return first_new - 1 if 1 < first_new <= len(texts) else len(texts)
