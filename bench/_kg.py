"""Shared helpers of the knowledge-graph benchmarks (extraction_bench.py, scenarios_bench.py).

Not a benchmark itself. Standard library and httpx only, and nothing imported from ``src/``:
the benchmarks talk to a real ``engram serve`` subprocess over REST, so they measure whatever
the checkout serves and keep working while the code under ``src/`` is rewritten.

- :class:`Server` starts ``python -m engram serve`` on a free loopback port with a fresh data
  directory (``ENGRAM_EXTRACTOR=builtin``, ``ENGRAM_EMBEDDER=none`` unless told otherwise) and
  stops it (only the process it started).
- Normalisation for scoring, re-implemented here on purpose (documented in
  bench/data/extraction_set.md): names (NFKC, case, whitespace, punctuation, leading
  articles), values (amounts as numbers: ``八十万`` = ``800k`` = ``800,000`` = 800000; dates as
  ``YYYY-MM-DD`` or ``MM-DD``; phone numbers as digits; text lower-cased with articles and
  plural "s" dropped), predicates (the registry's UPPER_SNAKE synonyms, plus equivalence
  classes: LIKES = PREFERS = INTERESTED_IN; symmetric relations match in either direction).
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"
FACT_KEYS = frozenset(
    {"subject", "predicate", "object", "value", "fact", "valid_at", "invalid_at", "conditions"}
    | {"confidence", "source_kind"}
)
"""What POST /v1/episodes accepts in a fact (EntityIn/FactIn forbid other keys)."""
ENTITY_KEYS = frozenset({"name", "type", "aliases", "attributes"})

# -- the server ---------------------------------------------------------------------------------


def free_port() -> int:
    """Return a TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """``engram serve`` in a subprocess on a fresh data directory; a context manager.

    ``client`` is an httpx.Client on ``base`` (``http://127.0.0.1:<port>``). The server's
    output goes to a log file in the data directory; it is printed when start-up fails.
    """

    def __init__(self, extractor: str = "builtin", embedder: str = "none", timeout: float = 90.0) -> None:
        self._tmp = tempfile.TemporaryDirectory(prefix="engram-kgbench-")
        self.data_dir = Path(self._tmp.name)
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.extractor, self.embedder = extractor, embedder
        self._timeout = timeout
        self._proc: subprocess.Popen[bytes] | None = None
        self.client = httpx.Client(base_url=self.base, timeout=60.0)

    def __enter__(self) -> Server:
        env = {
            **os.environ,
            "ENGRAM_EXTRACTOR": self.extractor,
            "ENGRAM_EMBEDDER": self.embedder,
            "ENGRAM_DATA_DIR": str(self.data_dir),
        }
        log = (self.data_dir / "server.log").open("wb")
        cmd = [sys.executable, "-m", "engram", "serve", "--data-dir", str(self.data_dir)]
        self._proc = subprocess.Popen(
            [*cmd, "--port", str(self.port)], env=env, stdout=log, stderr=subprocess.STDOUT, cwd=REPO
        )
        deadline = time.monotonic() + self._timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                break
            try:
                if self.client.get("/healthz").status_code == 200:
                    return self
            except httpx.TransportError:
                pass
            time.sleep(0.2)
        self.__exit__(None, None, None)
        raise SystemExit(f"engram serve did not start:\n{self.log_tail()}")

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        if self._proc is not None and self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=15)
        self._tmp.cleanup()

    def log_tail(self, lines: int = 30) -> str:
        """Return the end of the server's log."""
        path = self.data_dir / "server.log"
        if not path.exists():
            return ""
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])


def post_episode(client: httpx.Client, body: Mapping[str, Any]) -> dict[str, Any]:
    """POST /v1/episodes; return the stored episode. Raises RuntimeError naming the problem."""
    response = client.post("/v1/episodes", json=dict(body))
    if response.status_code not in (200, 201):
        raise RuntimeError(f"POST /v1/episodes → {response.status_code}: {response.text[:500]}")
    episode: dict[str, Any] = response.json()["episode"]
    return episode


def agent_fact(fact: Mapping[str, Any]) -> dict[str, Any]:
    """Return the keys of a labelled fact that POST /v1/episodes accepts (drops labels like negated)."""
    return {k: v for k, v in fact.items() if k in FACT_KEYS and v is not None}


def agent_entity(entity: Mapping[str, Any]) -> dict[str, Any]:
    """Return the keys of a labelled entity that POST /v1/episodes accepts."""
    return {k: v for k, v in entity.items() if k in ENTITY_KEYS}


# -- the run's header ---------------------------------------------------------------------------


def git_commit() -> str:
    """Return the checkout's short commit, plus a note when src/ has uncommitted changes."""

    def run(*cmd: str) -> str:
        done = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=False)
        return done.stdout.strip()

    commit = run("git", "rev-parse", "--short", "HEAD") or "unknown"
    return commit + (
        " +uncommitted changes in src/" if run("git", "status", "--porcelain", "--", "src") else ""
    )


def header() -> dict[str, Any]:
    """Return what a run was measured on (date, cores, load, commit, Python)."""
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cpus": os.cpu_count(),
        "loadavg_1m": round(os.getloadavg()[0], 2),
        "commit": git_commit(),
        "python": sys.version.split()[0],
    }


def print_header(info: Mapping[str, Any]) -> None:
    """Print the one-line header every run starts with."""
    print(
        f"# {info['date']} · {info['cpus']} cores · load average {info['loadavg_1m']} at start · "
        f"Python {info['python']} · {info['commit']}"
    )


def command_line() -> str:
    """Return the command that reproduces this run."""
    script = Path(sys.argv[0]).resolve()
    if script.is_relative_to(REPO):
        script = script.relative_to(REPO)
    return " ".join([".venv/bin/python", str(script), *sys.argv[1:]])


def print_table(rows: list[dict[str, Any]], columns: list[str], title: str = "") -> None:
    """Print rows as a Markdown table (floats with 3 decimals, None as "")."""

    def cell(value: Any) -> str:
        if isinstance(value, float):
            return f"{value:.3f}"
        return "" if value is None else str(value)

    if title:
        print(f"\n{title}\n")
    cells = [[cell(row.get(col)) for col in columns] for row in rows]
    widths = [
        max(len(col), *(len(r[i]) for r in cells)) if cells else len(col) for i, col in enumerate(columns)
    ]
    print("| " + " | ".join(c.ljust(w) for c, w in zip(columns, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for r in cells:
        print("| " + " | ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)) + " |")


# -- names --------------------------------------------------------------------------------------

_ARTICLES = re.compile(r"^(?:the|a|an|my|our|his|her|their)\s+")


def norm_name(name: str) -> str:
    """Return a comparison key for a name: NFKC, case-folded, punctuation and leading articles dropped."""
    text = unicodedata.normalize("NFKC", str(name)).casefold()
    text = re.sub(r"[\s\W_]+", " ", text).strip()
    return _ARTICLES.sub("", text)


def name_keys(names: Iterable[str | None]) -> set[str]:
    """Return the non-empty normalised keys of ``names``."""
    return {key for key in (norm_name(n) for n in names if n) if key}


# -- values -------------------------------------------------------------------------------------

_CN_DIGIT = dict(zip("零〇一二两三四五六七八九", [0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9], strict=True))
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
_SUFFIX = {
    "k": 1e3,
    "thousand": 1e3,
    "m": 1e6,
    "million": 1e6,
    "mn": 1e6,
    "b": 1e9,
    "bn": 1e9,
    "billion": 1e9,
}
_AMOUNT = re.compile(
    r"^[$€£¥￥]?\s*(\d[\d,]*(?:\.\d+)?)\s*(k|thousand|m|mn|million|b|bn|billion|[百千万亿]+)?\s*"
    r"(?:元|块|美元|人民币|dollars?|usd|rmb|yuan|/年|每年|per year|a year|/yr)?$",
    re.I,
)
_CN_AMOUNT = re.compile(r"^([零〇一二两三四五六七八九十百千万亿]+)\s*(?:元|块|块钱)?$")


def cn_number(text: str) -> int | None:
    """Return the value of a Chinese numeral (八十万 → 800000, 十二万五千 → 125000), else None."""
    if not text or any(ch not in _CN_DIGIT and ch not in _CN_UNIT and ch not in "万亿" for ch in text):
        return None
    total = section = number = 0
    last = 0
    for ch in text:
        if ch in _CN_DIGIT:
            number = _CN_DIGIT[ch]
        elif ch in _CN_UNIT:
            last = _CN_UNIT[ch]
            section += (number or 1) * last
            number = 0
        elif ch == "万":
            total += (section + number) * 10_000
            section = number = 0
            last = 10_000
        else:
            total = (total + section + number) * 100_000_000
            section = number = 0
            last = 100_000_000
    if number and last >= 100:  # colloquial 一万五 = 15000
        number *= last // 10
    return total + section + number


def as_number(value: Any) -> float | None:
    """Return an amount as a number ("$1,200" → 1200, "4.8万" → 48000, "八十万" → 800000), else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | float):
        return float(value)
    text = unicodedata.normalize("NFKC", str(value)).strip()
    match = _AMOUNT.match(text)
    if match:
        number = float(match.group(1).replace(",", ""))
        for part in [match.group(2)] if match.group(2) and match.group(2).isascii() else []:
            number *= _SUFFIX[part.lower()]
        if match.group(2) and not match.group(2).isascii():
            for ch in match.group(2):
                number *= {"百": 100, "千": 1000, "万": 10_000, "亿": 100_000_000}[ch]
        return number
    cn = _CN_AMOUNT.match(text)
    if cn:
        parsed = cn_number(cn.group(1))
        return None if parsed is None else float(parsed)
    return None


_MONTHS = {
    m: i + 1
    for i, names in enumerate(
        [
            "jan january",
            "feb february",
            "mar march",
            "apr april",
            "may",
            "jun june",
            "jul july",
            "aug august",
            "sep sept september",
            "oct october",
            "nov november",
            "dec december",
        ]
    )
    for m in names.split()
}
_ISO = re.compile(r"^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:[t\s].*)?$")
_ZH_DATE = re.compile(r"^(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号]?$")
_MD = re.compile(r"^(\d{1,2})-(\d{1,2})$")
_EN_DATE = re.compile(
    r"^(?:([a-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?|(\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?([a-z]+))"
    r"(?:,?\s+(\d{4}))?$"
)


def as_date(value: Any) -> str | None:
    """Return a date as "YYYY-MM-DD" (or "MM-DD" without a year), else None.

    Reads ISO dates and datetimes (the time is dropped), 2024年6月5日, 6月5号, "June 28, 2024",
    "October 3rd", "3 October 2024" and "MM-DD".
    """
    if not isinstance(value, str):
        return None
    text = unicodedata.normalize("NFKC", value).strip().casefold()
    match = _ISO.match(text)
    if match:
        return f"{int(match.group(1)):04d}-{int(match.group(2)):02d}-{int(match.group(3)):02d}"
    match = _ZH_DATE.match(text) or None
    if match:
        year = f"{int(match.group(1)):04d}-" if match.group(1) else ""
        return f"{year}{int(match.group(2)):02d}-{int(match.group(3)):02d}"
    match = _MD.match(text)
    if match:
        return f"{int(match.group(1)):02d}-{int(match.group(2)):02d}"
    match = _EN_DATE.match(text)
    if match:
        month = _MONTHS.get(match.group(1) or match.group(4) or "")
        day = int(match.group(2) or match.group(3))
        if month:
            year = f"{match.group(5)}-" if match.group(5) else ""
            return f"{year}{month:02d}-{day:02d}"
    return None


def _phone(value: str) -> str | None:
    text = unicodedata.normalize("NFKC", value).strip()
    if re.fullmatch(r"\+?[\d\s().-]{7,}", text) and sum(ch.isdigit() for ch in text) >= 7:
        return re.sub(r"\D", "", text)
    return None


def _words(text: str) -> str:
    """Return text for comparison: NFKC, case-folded; punctuation, articles, possessives, plural s dropped."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = re.sub(r"[\s\W_]+", " ", text).strip()
    words = [w for w in text.split() if w not in {"a", "an", "the", "my", "his", "her", "their", "our", "to"}]
    words = [w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in words]
    return " ".join(words)


def value_key(value: Any) -> tuple[str, Any]:
    """Return ("num", float) | ("date", str) | ("phone", digits) | ("text", str) for a value.

    A string of 7 or more digits with only phone punctuation is a phone number (its leading
    zero matters); a number sent as a JSON number is always a number.
    """
    if isinstance(value, str):
        date = as_date(value)
        if date:
            return ("date", date)
        phone = _phone(value)
        if phone and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", value.strip()):
            return ("phone", phone)
    number = as_number(value)
    if number is not None:
        return ("num", number)
    return ("text", _words(str(value)))


def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def values_match(expected: Any, found: Any) -> bool:
    """Return True when two values mean the same (see the module docstring).

    Text matches when equal after normalisation, or when one contains the other and the
    shorter has at least 2 characters (Chinese) or 3 (other scripts).
    """
    a, b = value_key(expected), value_key(found)
    if a[0] == "num" and b[0] == "num":
        return bool(abs(a[1] - b[1]) <= 1e-6 * max(1.0, abs(a[1])))
    if a[0] == "date" and b[0] == "date":
        return bool(a[1] == b[1] or a[1].endswith(b[1]) or b[1].endswith(a[1]))
    if {a[0], b[0]} <= {"phone", "num"} and "phone" in (a[0], b[0]):
        x, y = (str(int(k[1])) if k[0] == "num" else k[1].lstrip("0") for k in (a, b))
        return bool(x and y and (x == y or (min(len(x), len(y)) >= 7 and (x.endswith(y) or y.endswith(x)))))
    x, y = _words(str(expected)), _words(str(found))
    if not x or not y:
        return False
    if x == y:
        return True
    short, long = sorted((x, y), key=len)
    return len(short) >= (2 if _cjk(short) else 3) and short in long


# -- predicates ---------------------------------------------------------------------------------

# The registry's UPPER_SNAKE synonyms (src/engram/graph/predicates.py), re-stated so the benchmark
# imports nothing from src/: a server returns canonical names, but an LLM extractor may not.
SYNONYMS: Mapping[str, str] = {
    "RESIDES_IN": "LIVES_IN", "LOCATED_IN_CITY": "LIVES_IN", "EMPLOYED_BY": "WORKS_AT",
    "TITLE": "HAS_ROLE", "JOB_TITLE": "HAS_ROLE", "MANAGER": "REPORTS_TO", "LEARNS": "STUDIES",
    "JOINED": "MEMBER_OF", "HAS_BUDGET": "BUDGET", "COSTS": "PRICE", "DUE_DATE": "DEADLINE",
    "MEETS_AT": "MEETING_AT", "SIGNED_CONTRACT": "SIGNED", "PLACED_ORDER": "ORDERED",
    "CANCELED": "CANCELLED", "PHONE_NUMBER": "PHONE", "EMAIL_ADDRESS": "EMAIL",
    "PREFERENCE": "PREFERS", "LOVES": "LIKES", "ENJOYS": "LIKES", "HATES": "DISLIKES",
    "HOBBY": "INTERESTED_IN", "USING": "USES", "QUIT": "STOPPED_USING", "HAS": "OWNS",
    "WILL_VISIT": "PLANS_TO_VISIT", "WENT_TO": "VISITED", "LOCATED_IN": "PART_OF", "SPOUSE": "MARRIED_TO",
    "PARENT": "CHILD_OF", "FRIENDS_WITH": "FRIEND_OF", "OWNS_PET": "HAS_PET", "BORN_ON": "BIRTHDAY",
}  # fmt: skip
EQUIVALENT: Mapping[str, str] = {"PREFERS": "LIKES", "INTERESTED_IN": "LIKES"}
"""Predicates scored as one: a favourite is a liking, a hobby an interest."""
SYMMETRIC = frozenset({"SIBLING_OF", "FRIEND_OF", "MARRIED_TO", "PARTNER_OF"})


def predicate_key(name: str) -> str:
    """Return the scoring class of a predicate name (synonyms and equivalences folded)."""
    key = re.sub(r"[\s\-]+", "_", str(name).strip()).upper()
    key = SYNONYMS.get(key, key)
    return EQUIVALENT.get(key, key)


# -- facts --------------------------------------------------------------------------------------


def fact_matches(
    expected: Mapping[str, Any],
    found: Mapping[str, Any],
    names_of: Mapping[str, set[str]] | None = None,
) -> bool:
    """Return True when a found fact states the expected (subject, predicate, object or value).

    ``expected`` is a labelled fact (names); ``found`` a normalised prediction: ``subject``
    (set of name keys), ``predicate``, ``object`` (set of name keys) or ``value``, and
    optionally ``valid_at``. ``names_of`` maps a labelled name to all its keys (aliases).
    An entity object also matches a literal value that names it (and vice versa); a date
    value also matches a text value whose ``valid_at`` falls on that date.
    """
    names_of = names_of or {}
    if predicate_key(expected["predicate"]) != predicate_key(found["predicate"]):
        return False

    def keys(name: str) -> set[str]:
        return names_of.get(name) or name_keys([name])

    subject, target = keys(expected["subject"]), _targets(expected, keys)
    if _same(subject, found["subject"]) and _target_match(target, found):
        return True
    if predicate_key(expected["predicate"]) in SYMMETRIC and "object" in expected and found.get("object"):
        return bool(_same(keys(expected["object"]), found["subject"]) and _same(subject, found["object"]))
    return False


def _same(a: set[str], b: Any) -> bool:
    return bool(isinstance(b, set) and a & b)


def _targets(expected: Mapping[str, Any], keys: Any) -> tuple[set[str], Any]:
    if expected.get("object") is not None:
        return keys(expected["object"]), expected["object"]
    return set(), expected.get("value")


def _target_match(target: tuple[set[str], Any], found: Mapping[str, Any]) -> bool:
    names, raw = target
    if names and isinstance(found.get("object"), set) and names & found["object"]:
        return True
    candidates = list(found.get("object_names") or []) + (
        [found["value"]] if found.get("value") is not None else []
    )
    if any(values_match(raw, candidate) for candidate in candidates):
        return True
    date = as_date(raw) if isinstance(raw, str) else None
    valid = str(found.get("valid_at") or "")[:10]
    return bool(date and valid and valid.endswith(date) and found.get("value") is not None)


def greedy_pairs(labels: list[Any], predictions: list[Any], same: Any) -> list[tuple[int, int]]:
    """Return one-to-one (label index, prediction index) pairs, labels in order, first match wins."""
    used: set[int] = set()
    pairs = []
    for i, label in enumerate(labels):
        for j, prediction in enumerate(predictions):
            if j not in used and same(label, prediction):
                used.add(j)
                pairs.append((i, j))
                break
    return pairs


def ratio(part: int, whole: int) -> float | None:
    """Return part / whole, None when whole is 0."""
    return part / whole if whole else None


def f1(precision: float | None, recall: float | None) -> float | None:
    """Return the harmonic mean, None when either is None."""
    if precision is None or recall is None:
        return None
    return 0.0 if precision + recall == 0 else 2 * precision * recall / (precision + recall)
