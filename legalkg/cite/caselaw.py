"""Case-law citations ('BGH, Urt. v. 12.3.2020 – IX ZR 12/19', 'BGHZ 123, 45', 'NJW 2005, 123')
recognised as spans, so that the statute grammar never reads them as statutes.

Why a grammar of its own: a reporter entry holds a § ("BSG SozR 4-2500 § 13 Nr 20" is entry 20 of
the SozR's § 13 key, not § 13 Nr. 20 of a law) and a file number holds what looks like a law name
("IX ZR 12/19"). Resolving the decision is not this module's job, only finding where it is cited.
Each pattern is a sequence of bounded character classes (no nested quantifiers): linear time.
"""

from __future__ import annotations

import re

from pydantic import BaseModel

_COURTS = (r"BVerfG|BGH|BAG|BSG|BFH|BVerwG|BPatG|EuGH|EuG|EGMR|RG|OLG|LG|AG|KG|OVG|VGH|VG|LSG|SG|"
           r"LAG|ArbG|FG|BayObLG|BayVGH|OLGR?")
#: reporters cited 'NAME Jahr, Seite' or 'NAME Band, Seite'
_REPORTERS = (r"BVerfGE|BVerfGK|BGHZ|BGHSt|BAGE|BSGE|BFHE|BVerwGE|RGZ|RGSt|NJW(?:-RR|-Spezial)?|NStZ(?:-RR)?|"
              r"NZA(?:-RR)?|NVwZ(?:-RR)?|NZM|NZG|NZS|NZI|NZV|NZFam|FamRZ|MDR|JZ|ZIP|WM|DB|BB|DStR|"
              r"BStBl|GRUR(?:-RR)?|MMR|CR|VersR|StV|wistra|ZfBR|BauR|NJOZ|ZInsO|ZMR|WuM|GmbHR|AG|ZUM|"
              r"DVBl|DÖV|BayVBl|JuS|JA|Jura|ZEV|DNotZ|RNotZ|MittBayNot|FGPrax|Rpfleger|BFH/NV|"
              r"HFR|EFG|SozR|NZWehrr|AuR|ZTR|ArbRB|EuZW|EuGRZ|Slg|NJW-RR")
_DATE = r"\d{1,2}\.\s?(?:\d{1,2}\.|[A-ZÄÖÜ][a-zäöü]{2,8})\s?\d{2,4}"
_FILE_NO = r"\d{0,3}\s?[IVX]{0,6}[a-z]?\s?[A-Z][A-Za-z]{0,6}(?:\s?\([A-Za-z]{1,5}\))?\s?\d{1,5}/\d{2,4}"
_PATTERNS = [
    # BGH, Urt. v. 12.3.2020 – IX ZR 12/19 ; OLG München, Urteil vom 3. 2. 2011 – 23 U 2345/10
    re.compile(rf"\b(?:{_COURTS})(?:\s[A-ZÄÖÜ][a-zäöü]{{2,15}})?,?\s(?:Urt|Beschl|Urteil|Beschluss|Vorlagebeschl"
               rf"|Gerichtsbescheid|Entsch|Teilurt|Versäumnisurt)\.?\s(?:v\.|vom)\s{_DATE}\s?[-–—,]?\s?"
               rf"(?:Az\.\s?)?{_FILE_NO}"),
    # bare file numbers after a dash: '– IX ZR 12/19', '- 9 AZR 98/19', 'C-123/18'
    re.compile(rf"[-–—]\s(?:{_FILE_NO})"),
    re.compile(r"\b[CT]-\d{1,4}/\d{2}\b"),
    # reporters: 'BGHZ 123, 45', 'NJW 2005, 123', 'BFH/NV 2012, 1234', 'NJW 2021, 2205 Rn. 12'
    re.compile(rf"(?<![\w/-])(?:{_REPORTERS})\s\d{{1,4}},\s\d{{1,5}}(?:,\s\d{{1,5}})?(?:\s(?:Rn|Rdnr|Tz)\.\s\d{{1,4}})?"),
    # reporter entries with a §: 'SozR 4-2500 § 13 Nr 20', 'BGHR StGB § 46 Abs. 1 Strafhöhe 3'
    re.compile(r"\bSozR\s\d(?:-\d{4})?\s§\s\d{1,4}[a-z]?\s(?:Nr\.?\s\d{1,4}|Rn\.?\s\d{1,4})"),
]


class CaseSpan(BaseModel):
    """One case-law citation found in a text (offsets end exclusive)."""

    start: int
    end: int
    text: str
    kind: str = "case_citation"


#: What every pattern needs somewhere in the text: a file number's "/", a reporter's ", <page>" or
#: "SozR". A text without any of them holds no case citation, and five scans are saved (a text of
#: 100,000 statute citations asks ``holds`` once per chain).
_NEEDED = re.compile(r"/|,\s\d|SozR")


def case_spans(text: str) -> list[CaseSpan]:
    """Every case-law citation span in ``text``, in order, overlapping finds merged."""
    if not _NEEDED.search(text):
        return []
    found: list[tuple[int, int]] = []
    for pat in _PATTERNS:
        found.extend(m.span() for m in pat.finditer(text))
    found.sort()
    merged: list[list[int]] = []
    for s, e in found:
        if merged and s <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], e)
        else:
            merged.append([s, e])
    return [CaseSpan(start=s, end=e, text=text[s:e]) for s, e in merged]


#: how far before and after a statute chain a case citation that holds it may reach
_BEFORE, _AFTER = 60, 20


def holds(text: str, start: int, end: int) -> bool:
    """Whether a case-law citation holds ``text[start:end]`` (a reporter entry such as "SozR 4-2500
    § 13 Nr 20"). Reads a window around the span only, so checking every chain of a text stays linear."""
    lo = max(0, start - _BEFORE)
    window = text[lo:min(len(text), end + _AFTER)]
    return any(c.start + lo <= start and end <= c.end + lo for c in case_spans(window))



_FILE_NO_RE = re.compile(rf"(?<![\w/]){_FILE_NO}(?![\w/])")
_COURT_AT_START = re.compile(rf"(?:{_COURTS})\b")


def file_key(file_number: str) -> str:
    """A file number as a key: blanks removed, upper case ('IX ZR 12/19' and 'IXZR 12/19' are one
    file). Why a key and not the string: a dump writes the same Aktenzeichen with and without blanks."""
    return "".join(file_number.split()).upper()


def cited_file_numbers(text: str) -> list[tuple[str | None, str]]:
    """(court as written or None, file key) of every case-law citation of ``text`` that names a file
    number ('BGH, Urt. v. 12.3.2020 – IX ZR 12/19' -> ('BGH', 'IXZR12/19')), distinct, in order.
    Reporter citations ('BGHZ 123, 45') name none and give nothing."""
    out: dict[tuple[str | None, str], None] = {}
    for span in case_spans(text):
        court = _COURT_AT_START.match(span.text)
        for m in _FILE_NO_RE.finditer(span.text):
            out.setdefault((court.group(0) if court else None, file_key(m.group(0))), None)
    return list(out)
