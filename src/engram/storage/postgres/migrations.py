"""PostgreSQL schema migrations, applied in order by the program at start-up.

Each migration runs once, in the transaction that records it in ``schema_migrations``,
under an advisory lock, so several ``engram serve`` processes starting together on a new
database migrate it once. Never edit a released migration: append a new one.

Every table is keyed by ``(group_id, id)`` (``store_meta``, ``api_keys`` and
``schema_migrations`` are store-wide), so the schema distributes on Citus by ``group_id`` unchanged
(docs/deployment.md). Tables are created in the first schema of the ``search_path``.
"""

from __future__ import annotations

from engram.storage import extraction_queue, references, stats
from engram.storage.postgres import change_log

TEXT_CONFIG = "engram_text"
"""The text search configuration: ``simple`` (no stop words) with Snowball English stemming on
words, the counterpart of SQLite's ``porter unicode61``. CJK words arrive segmented by jieba and
pass the stemmer unchanged."""

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        f"""
        CREATE EXTENSION IF NOT EXISTS vector;

        CREATE TEXT SEARCH DICTIONARY engram_english_stem (TEMPLATE = snowball, LANGUAGE = english);
        CREATE TEXT SEARCH CONFIGURATION {TEXT_CONFIG} (COPY = simple);
        ALTER TEXT SEARCH CONFIGURATION {TEXT_CONFIG}
            ALTER MAPPING FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part
            WITH engram_english_stem;

        -- One row per episode: identity keys and the immutable parts the full-text document is
        -- built from (thread = source + thread key; text = segmented content). ``context_doc``
        -- indexes the text of the previous and next episodes of the thread (the only part that
        -- is rewritten: when a neighbour arrives); postgres_text.py ranks both.
        CREATE TABLE episode_docs (
            group_id    text NOT NULL,
            id          text NOT NULL,
            fingerprint text NOT NULL,
            thread      text,
            timestamp   timestamptz NOT NULL,
            created_at  timestamptz NOT NULL,
            text        text NOT NULL,
            text_doc    tsvector GENERATED ALWAYS AS (to_tsvector('{TEXT_CONFIG}', text)) STORED,
            context_doc tsvector NOT NULL DEFAULT ''::tsvector,
            PRIMARY KEY (group_id, id)
        );
        CREATE INDEX episode_docs_fingerprint ON episode_docs (group_id, fingerprint);
        CREATE INDEX episode_docs_thread ON episode_docs (group_id, thread, timestamp, id)
            WHERE thread IS NOT NULL;
        CREATE INDEX episode_docs_created ON episode_docs (created_at, group_id, id);
        CREATE INDEX episode_docs_text ON episode_docs USING gin (text_doc);
        CREATE INDEX episode_docs_context ON episode_docs USING gin (context_doc);

        -- Append-only versions; the current one has expired_at NULL.
        CREATE TABLE episodes (
            group_id     text NOT NULL,
            id           text NOT NULL,
            version      integer NOT NULL,
            timestamp    timestamptz NOT NULL,
            recorded_at  timestamptz NOT NULL,
            expired_at   timestamptz,
            source       text,
            source_type  text NOT NULL,
            actor_type   text,
            actor_id     text,
            actor_name   text,
            intent       text,
            content      text NOT NULL,
            metadata     jsonb NOT NULL,
            refs         jsonb NOT NULL,
            fingerprint  text NOT NULL,
            status       text NOT NULL,
            operation_id text NOT NULL,
            PRIMARY KEY (group_id, id, version),
            FOREIGN KEY (group_id, id) REFERENCES episode_docs (group_id, id)
        );
        CREATE UNIQUE INDEX episodes_current ON episodes (group_id, id) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_time
            ON episodes (group_id, timestamp DESC, id DESC) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_intent
            ON episodes (group_id, intent, timestamp DESC) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_source
            ON episodes (group_id, source, timestamp DESC) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_actor
            ON episodes (group_id, actor_id, timestamp DESC) WHERE expired_at IS NULL;

        CREATE TABLE operations (
            group_id   text NOT NULL,
            id         text NOT NULL,
            kind       text NOT NULL,
            actor      text,
            created_at timestamptz NOT NULL,
            summary    text NOT NULL,
            details    jsonb NOT NULL,
            PRIMARY KEY (group_id, id)
        );
        CREATE INDEX operations_time ON operations (group_id, created_at DESC);

        -- Facts about the store itself, e.g. which embedder made its vectors.
        CREATE TABLE store_meta (key text PRIMARY KEY, value text NOT NULL);

        -- One embedding per episode (L2-normalised); absent = not embedded yet. The column gets
        -- its dimension, and the HNSW index, with the first vector stored (postgres_vectors.py).
        CREATE TABLE episode_vectors (
            group_id  text NOT NULL,
            id        text NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (group_id, id),
            FOREIGN KEY (group_id, id) REFERENCES episode_docs (group_id, id)
        );
        """,
    ),
]

MIGRATIONS.append(
    (
        2,
        """
        -- History: which operation closed a version, so an operation's effect is
        -- exactly the versions it created (operation_id) and closed (expired_by).
        ALTER TABLE episodes ADD COLUMN expired_by text;
        CREATE INDEX episodes_operation ON episodes (group_id, operation_id);
        CREATE INDEX episodes_expired_by ON episodes (group_id, expired_by) WHERE expired_by IS NOT NULL;
        CREATE INDEX operations_kind ON operations (group_id, kind, created_at DESC);
        """,
    )
)

MIGRATIONS.append(
    (
        3,
        f"""
        -- Knowledge graph (SQLite migrations 3 and 5): append-only versions of entities and
        -- facts; the current one has expired_at NULL (a partial unique index keeps it single),
        -- expired_by names the operation that closed a version.
        CREATE TABLE entities (
            group_id     text NOT NULL,
            id           text NOT NULL,
            version      integer NOT NULL,
            name         text NOT NULL,
            type         text NOT NULL,
            aliases      jsonb NOT NULL,
            attributes   jsonb NOT NULL,
            summary      text,
            first_seen   timestamptz NOT NULL,
            last_seen    timestamptz NOT NULL,
            recorded_at  timestamptz NOT NULL,
            expired_at   timestamptz,
            operation_id text NOT NULL,
            expired_by   text,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE UNIQUE INDEX entities_current ON entities (group_id, id) WHERE expired_at IS NULL;
        CREATE INDEX entities_current_type
            ON entities (group_id, type, last_seen DESC) WHERE expired_at IS NULL;
        CREATE INDEX entities_operation ON entities (group_id, operation_id);
        CREATE INDEX entities_expired_by ON entities (group_id, expired_by) WHERE expired_by IS NOT NULL;

        -- Normalised names and aliases of current entities, for exact resolution.
        CREATE TABLE entity_names (
            group_id  text NOT NULL,
            name_key  text NOT NULL,
            entity_id text NOT NULL,
            PRIMARY KEY (group_id, name_key, entity_id)
        );
        CREATE INDEX entity_names_entity ON entity_names (group_id, entity_id);

        CREATE TABLE facts (
            group_id      text NOT NULL,
            id            text NOT NULL,
            version       integer NOT NULL,
            subject       text NOT NULL,
            predicate     text NOT NULL,
            object        text,
            value         jsonb,
            fact          text NOT NULL,
            conditions    jsonb NOT NULL,
            confidence    double precision NOT NULL,
            source_kind   text NOT NULL,
            episodes      jsonb NOT NULL,
            valid_at      timestamptz,
            invalid_at    timestamptz,
            recorded_at   timestamptz NOT NULL,
            expired_at    timestamptz,
            status        text NOT NULL,
            superseded_by text,
            operation_id  text NOT NULL,
            expired_by    text,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE UNIQUE INDEX facts_current ON facts (group_id, id) WHERE expired_at IS NULL;
        CREATE INDEX facts_current_subject ON facts (group_id, subject, predicate) WHERE expired_at IS NULL;
        CREATE INDEX facts_current_object ON facts (group_id, object) WHERE expired_at IS NULL;
        CREATE INDEX facts_operation ON facts (group_id, operation_id);
        CREATE INDEX facts_expired_by ON facts (group_id, expired_by) WHERE expired_by IS NOT NULL;

        -- Full text of each fact (SQLite's facts_fts): its sentence and the names it connects,
        -- segmented, as of its latest version; ranked by postgres_graph_rows.FactText.
        CREATE TABLE fact_docs (
            group_id text NOT NULL,
            id       text NOT NULL,
            text     text NOT NULL,
            text_doc tsvector GENERATED ALWAYS AS (to_tsvector('{TEXT_CONFIG}', text)) STORED,
            PRIMARY KEY (group_id, id)
        );
        CREATE INDEX fact_docs_text ON fact_docs USING gin (text_doc);

        -- Which episodes mention which entities, and the operation that recorded it.
        CREATE TABLE mentions (
            group_id     text NOT NULL,
            entity_id    text NOT NULL,
            episode_id   text NOT NULL,
            operation_id text,
            PRIMARY KEY (group_id, entity_id, episode_id)
        );
        CREATE INDEX mentions_episode ON mentions (group_id, episode_id);
        CREATE INDEX mentions_operation ON mentions (group_id, operation_id) WHERE operation_id IS NOT NULL;

        -- Possible duplicates the resolver was not sure about, for review.
        CREATE TABLE merge_candidates (
            group_id     text NOT NULL,
            entity_id    text NOT NULL,
            candidate_id text NOT NULL,
            score        double precision NOT NULL,
            parts        jsonb NOT NULL,
            created_at   timestamptz NOT NULL,
            PRIMARY KEY (group_id, entity_id, candidate_id)
        );
        """,
    )
)

MIGRATIONS.append(
    (
        4,
        """
        -- Time travel on episodes: the versions closed after a time t, so a list at
        -- known_at = t reads the current versions (their own indexes) plus these few.
        CREATE INDEX episodes_closed ON episodes (group_id, expired_at) WHERE expired_at IS NOT NULL;
        """,
    )
)

MIGRATIONS.append(
    (
        5,
        f"""
        -- Decay and archive (SQLite migration 6): when a search last returned a fact
        -- (absent: never), and cold storage for every version of archived facts.
        CREATE TABLE fact_hits (
            group_id         text NOT NULL,
            fact_id          text NOT NULL,
            last_returned_at timestamptz NOT NULL,
            PRIMARY KEY (group_id, fact_id)
        );

        CREATE TABLE archived_facts (
            group_id      text NOT NULL,
            id            text NOT NULL,
            version       integer NOT NULL,
            subject       text NOT NULL,
            predicate     text NOT NULL,
            object        text,
            value         jsonb,
            fact          text NOT NULL,
            conditions    jsonb NOT NULL,
            confidence    double precision NOT NULL,
            source_kind   text NOT NULL,
            episodes      jsonb NOT NULL,
            valid_at      timestamptz,
            invalid_at    timestamptz,
            recorded_at   timestamptz NOT NULL,
            expired_at    timestamptz,
            status        text NOT NULL,
            superseded_by text,
            operation_id  text NOT NULL,
            expired_by    text,
            archived_at   timestamptz NOT NULL,
            archived_by   text NOT NULL,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE INDEX archived_facts_subject ON archived_facts (group_id, subject, predicate);
        CREATE INDEX archived_facts_object ON archived_facts (group_id, object);
        CREATE INDEX archived_facts_archived_by ON archived_facts (group_id, archived_by);

        -- Full text of archived facts (fact_docs' rows, moved), for include_archived.
        CREATE TABLE archived_fact_docs (
            group_id text NOT NULL,
            id       text NOT NULL,
            text     text NOT NULL,
            text_doc tsvector GENERATED ALWAYS AS (to_tsvector('{TEXT_CONFIG}', text)) STORED,
            PRIMARY KEY (group_id, id)
        );
        CREATE INDEX archived_fact_docs_text ON archived_fact_docs USING gin (text_doc);
        """,
    )
)

MIGRATIONS.append(
    (
        6,
        """
        -- Vectors of facts and entity names (SQLite migration 8). ``text_key`` / ``name``
        -- is what the vector was made from: a fact or entity whose current text differs is pending.
        -- The columns get their dimension and HNSW indexes when an embedder is first recorded
        -- (postgres_graph_vectors.py).
        CREATE TABLE fact_vectors (
            group_id  text NOT NULL,
            id        text NOT NULL,
            text_key  text NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (group_id, id)
        );
        CREATE TABLE entity_vectors (
            group_id  text NOT NULL,
            id        text NOT NULL,
            name      text NOT NULL,
            embedding vector NOT NULL,
            PRIMARY KEY (group_id, id)
        );
        """,
    )
)

MIGRATIONS.append(
    (
        7,
        """
        -- Entity search matches names by substring (ILIKE '%key%'): trigrams let GIN find them
        -- without reading every name of the group (pg_trgm ships with contrib; create it once in
        -- public when several schemas share a database: docs/deployment.md).
        CREATE EXTENSION IF NOT EXISTS pg_trgm;
        CREATE INDEX entity_names_trgm ON entity_names USING gin (name_key gin_trgm_ops);
        """,
    )
)

MIGRATIONS.append(
    (
        8,
        """
        -- The audit log by actor (an API key's name), and the facts under dispute (the review queue).
        CREATE INDEX operations_actor ON operations (group_id, actor, created_at DESC);
        CREATE INDEX facts_current_disputed ON facts (group_id, subject, predicate)
            WHERE expired_at IS NULL AND status = 'disputed';
        """,
    )
)

# Per-group counts of current episodes, facts and vectors, kept by triggers (engram.storage.stats).
MIGRATIONS.append((9, stats.POSTGRES_MIGRATION))

MIGRATIONS.append(
    (
        10,
        """
        -- API keys (engram.keys): store-wide (a reference table on Citus), read by digest on
        -- every authenticated request. The key itself is never stored: only its SHA-256 digest
        -- and first characters.
        CREATE TABLE api_keys (
            id           text PRIMARY KEY,
            name         text NOT NULL UNIQUE,
            role         text NOT NULL CHECK (role IN ('read', 'write', 'admin')),
            group_ids    jsonb,
            digest       text NOT NULL UNIQUE,
            prefix       text NOT NULL,
            created_at   timestamptz NOT NULL,
            expires_at   timestamptz,
            revoked_at   timestamptz,
            last_used_at timestamptz
        );
        """,
    )
)

MIGRATIONS.append(
    (
        11,
        """
        -- Provenance of entity versions: the episode a version came from (NULL for a person's edit
        -- or a merge), which episode and operation introduced each alias and the summary (so a
        -- purge removes what the purged episode introduced); why a fact has its status (the
        -- arbiter's reason: disputed by credibility, ended by a stop statement, ...).
        ALTER TABLE entities ADD COLUMN episode_id text;
        ALTER TABLE entities ADD COLUMN alias_sources jsonb NOT NULL DEFAULT '{}'::jsonb;
        ALTER TABLE entities ADD COLUMN summary_source jsonb;
        ALTER TABLE facts ADD COLUMN status_reason text;
        ALTER TABLE archived_facts ADD COLUMN status_reason text;
        """,
    )
)

# Episodes by the references they cite, and the names written for them (engram.storage.references).
MIGRATIONS.append((12, references.POSTGRES_MIGRATION))
# Reference names keyed by engram_fold, as on SQLite (engram.fold), not the locale's lower().
MIGRATIONS.append((13, references.POSTGRES_FOLD_MIGRATION))
# Which episodes changed, for the vectors each process holds in memory (engram.storage.postgres.change_log).
MIGRATIONS.append((14, change_log.POSTGRES_MIGRATION))
# How far the change log's pruning reached, so a reader behind it always reloads.
MIGRATIONS.append((15, change_log.POSTGRES_PRUNED_MIGRATION))
# The filter indexes carry the episode id, so a filtered BM25 search intersects its candidates
# with the filter from the index alone (engram.storage.postgres.fulltext, index-only scans).
MIGRATIONS.append(
    (
        16,
        """
        DROP INDEX IF EXISTS episodes_current_intent;
        CREATE INDEX episodes_current_intent
            ON episodes (group_id, intent, timestamp DESC) INCLUDE (id) WHERE expired_at IS NULL;
        DROP INDEX IF EXISTS episodes_current_source;
        CREATE INDEX episodes_current_source
            ON episodes (group_id, source, timestamp DESC) INCLUDE (id) WHERE expired_at IS NULL;
        DROP INDEX IF EXISTS episodes_current_actor;
        CREATE INDEX episodes_current_actor
            ON episodes (group_id, actor_id, timestamp DESC) INCLUDE (id) WHERE expired_at IS NULL;
        """,
    )
)

# Episodes whose graph is still to be built, so a crash between the two loses none
# (engram.storage.extraction_queue).
MIGRATIONS.append((17, extraction_queue.POSTGRES_MIGRATION))

LATEST_VERSION = MIGRATIONS[-1][0]
