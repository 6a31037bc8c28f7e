"""Write src/engram/nlp/first_names.txt: the first names the builtin extractor reads as people.

Source: the ``names-dataset`` package (MIT licence, Philippe Remy; first names with their
popularity rank per country, from a public dump of social-network profiles). The package
itself is 55 MB and loads in ~20 s into ~900 MB of memory, so Engram ships this derived
list (~4,500 names, 30 kB) instead and regenerates it with this script:

    .venv/bin/pip install names-dataset==3.3.1 wordfreq==3.1.1
    .venv/bin/python scripts/make_first_names.py

Kept: Latin-script names of two letters or more ranked in the top 1,000 of an
English-speaking country (US, GB, CA, AU, IE, NZ, ZA), the top 300 of India or the top 30 of
any country; minus the words below, which are capitalised in English text for another
reason (places, nationalities, titles, abbreviations, plain words). Also kept, from a wider
cut (the top 3,000 of an English-speaking country, the top 1,000 of India, the top 100 of any
country), the names of three letters or more that are rarely an English word (Zipf frequency
below 3.5 in ``wordfreq``, a well-kept word-frequency list: Quentin, Ezra and Bao, not Hope or
Reason) and no place the gazetteer knows (Brighton, Fiji).
"""

from __future__ import annotations

import gzip
import importlib.util
import pickle
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src" / "engram" / "nlp" / "first_names.txt"
ENGLISH = {"US", "GB", "CA", "AU", "IE", "NZ", "ZA"}
RARE_WORD = 3.5
"""Zipf frequency (log10 of occurrences per billion words) under which a name is rarely a word."""
NOT_NAMES = frozenset(
    str.split(
        "Ah Aj Al Art Beat Brooklyn Brunei Bunga Cadet Cj Con Ct Des Dk Dot Dublin Ed El Em France Gay "
        "Gift Given Happy Hj Hjh Honor India Irish Itz Jc Jesus Jj Jm Jp Khmer Kin King Kxng Line "
        "Lovely Man Mag Mawar May Md Mercy Mgt Nor Om Or Pa Paris Per Pg Pit Pj Promise Queen Rich "
        "Shell Sk Sydney Talent Tk Um Unruly Will La Fortune Destiny Diamond June April Mat Deep Sacky "
        "Ibbe"
    )
)


def main() -> None:
    spec = importlib.util.find_spec("names_dataset")  # its data file only: importing it loads everything
    if spec is None or spec.origin is None:
        raise SystemExit("pip install names-dataset==3.3.1 first")
    path = Path(spec.origin).parent / "v3" / "first_names.pkl.gz"
    with gzip.open(path) as handle:
        data = pickle.load(handle)  # the package's own data file
    from wordfreq import zipf_frequency

    from engram.graph.places import is_place

    def rare(name: str) -> bool:  # rarely an English word, and no place
        return zipf_frequency(name.lower(), "en") < RARE_WORD and not is_place(name)

    kept = set()
    for name, info in data.items():
        ranks = info.get("rank") or {}
        latin = all(ch.isascii() or "\u00c0" <= ch <= "\u024f" for ch in name)
        if not ranks or len(name) < 2 or not name.isalpha() or not latin or not name[0].isupper():
            continue
        if name in NOT_NAMES:
            continue
        english = min([rank for country, rank in ranks.items() if country in ENGLISH] or [10**9])
        india, best = ranks.get("IN", 10**9), min(ranks.values())
        top = english <= 1000 or india <= 300 or best <= 30
        wider = english <= 3000 or india <= 1000 or best <= 100
        if top or (wider and len(name) >= 3 and rare(name)):
            kept.add(name)
    header = "# First names (names-dataset 3.3.1, MIT licence); regenerate with scripts/make_first_names.py\n"
    OUT.write_text(header + "\n".join(sorted(kept)) + "\n", encoding="utf-8")
    print(f"{len(kept)} names → {OUT}")


if __name__ == "__main__":
    main()
