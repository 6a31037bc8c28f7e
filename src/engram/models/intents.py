"""The intent taxonomy: what episodes are for, named and labelled per language, with examples.

The taxonomy is configuration: a JSON file of intents, each with a ``name`` (a verb–object
phrase such as ``confirm_date``), ``labels`` per language, a ``description`` and training
``examples`` (``{"lang", "text"}``). The package ships a sales-and-support taxonomy
(``intents.json`` beside this module: 16 intents, 200 examples in English and Chinese);
``ENGRAM_INTENTS_FILE`` points at another. :func:`load_taxonomy` is the one way it is read:
the console's intent lists, the metrics' intent labels and the classifier
(``engram.ingest.intents``) all use it.
"""

from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, Field, ValidationError

from engram.errors import InvalidInput


class Example(BaseModel):
    """A training example: a message in one language that carries its intent."""

    lang: str = ""
    text: str = Field(min_length=1)


class Intent(BaseModel):
    """One intent of the taxonomy: a stable ``name``, what people read per language, examples."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    labels: dict[str, str] = Field(
        default_factory=dict, description='Language code → label, e.g. {"en": "Follow up", "zh": "跟进"}.'
    )
    description: str = ""
    examples: list[Example] = Field(default_factory=list)

    def label(self, language: str) -> str:
        """Return the label in ``language``, else English, else the name."""
        return self.labels.get(language) or self.labels.get("en") or self.name


class Taxonomy(BaseModel):
    """The intents episodes are classified into, with their training examples."""

    version: int = 1
    description: str = ""
    languages: list[str] = Field(default_factory=list)
    intents: list[Intent] = Field(min_length=2)

    def names(self) -> list[str]:
        """Return the intent names, in taxonomy order."""
        return [intent.name for intent in self.intents]

    def digest(self) -> str:
        """Return a short hash of the taxonomy, stored with a model trained on it."""
        text = json.dumps(self.model_dump(mode="json"), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def load_taxonomy(path: Path | None = None) -> Taxonomy:
    """Return the taxonomy in ``path``, or the packaged default. Raises InvalidInput naming the field."""
    if path is None:
        return _packaged()
    try:
        return Taxonomy.model_validate_json(Path(path).read_bytes())
    except OSError as exc:
        raise InvalidInput(
            f"cannot read the intent taxonomy {path}: {exc}", field="ENGRAM_INTENTS_FILE"
        ) from exc
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        message = f"intent taxonomy {path}: {where}: {first['msg']}"
        raise InvalidInput(message, field="ENGRAM_INTENTS_FILE") from exc


@lru_cache(maxsize=1)
def _packaged() -> Taxonomy:
    """The shipped taxonomy, parsed once per process."""
    packaged = resources.files("engram.models").joinpath("intents.json")
    return Taxonomy.model_validate_json(packaged.read_bytes())
