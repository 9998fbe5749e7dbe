"""Optional LLM backend: any OpenAI-compatible chat endpoint, configured by environment (I/O).

Off by default and never used in tests. ``LEGALKG_LLM_BASE_URL`` (e.g. http://localhost:8000/v1),
``LEGALKG_LLM_MODEL`` and optionally ``LEGALKG_LLM_API_KEY``. urllib only: no new dependency.
"""

from __future__ import annotations

import json
import os
import urllib.error
import urllib.request

from pydantic import BaseModel

from ..errors import UserError


class LLMConfig(BaseModel):
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 120.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "LLMConfig | None":
        """The configured endpoint, or None when ``LEGALKG_LLM_BASE_URL`` / ``_MODEL`` are unset."""
        env = dict(os.environ) if env is None else env
        base, model = env.get("LEGALKG_LLM_BASE_URL", "").strip(), env.get("LEGALKG_LLM_MODEL", "").strip()
        if not base or not model:
            return None
        return cls(base_url=base.rstrip("/"), model=model, api_key=env.get("LEGALKG_LLM_API_KEY") or None)


def require_config() -> LLMConfig:
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
    return data["choices"][0]["message"]["content"].strip()


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
    lines = [ln.strip(" -•\t") for ln in chat(cfg, PROMPTS["propositions"], sentence, 512).splitlines()]
    return [ln for ln in lines if ln] or [sentence]


def llm_context(cfg: LLMConfig, section_text: str, unit_text: str) -> str:
    return chat(cfg, PROMPTS["context"], f"Vorschrift:\n{section_text}\n\nAusschnitt:\n{unit_text}", 120)


def llm_summary(cfg: LLMConfig, texts: list[str]) -> str:
    return chat(cfg, PROMPTS["summary"], "\n".join(texts)[:12000], 200)


def llm_boundary(cfg: LLMConfig, texts: list[str]) -> int:
    """Units to take: the first unit of the next chunk minus one (whole group if 0 / unreadable)."""
    listing = "\n".join(f"{i}: {t}" for i, t in enumerate(texts, 1))
    answer = chat(cfg, PROMPTS["boundary"], listing, 8)
    digits = "".join(ch for ch in answer if ch.isdigit())
    first_new = int(digits) if digits else 0
    return first_new - 1 if 1 < first_new <= len(texts) else len(texts)
