"""SQLite schema migrations, applied in order by the program at start-up.

Each migration runs once, in a transaction, and is recorded in ``schema_migrations``.
Never edit a released migration: append a new one.
"""

from __future__ import annotations

from engram.storage import extraction_queue, references, stats

MIGRATIONS: list[tuple[int, str]] = [
    (
        1,
        """
        -- One row per episode: its full-text document id, identity keys, and the immutable
        -- parts the index is built from (thread = source + thread key; text = segmented content).
        CREATE TABLE episode_docs (
            doc         INTEGER PRIMARY KEY,
            group_id    TEXT NOT NULL,
            id          TEXT NOT NULL,
            fingerprint TEXT NOT NULL,
            thread      TEXT,
            timestamp   TEXT NOT NULL,
            text        TEXT NOT NULL,
            UNIQUE (group_id, id)
        );
        CREATE INDEX episode_docs_fingerprint ON episode_docs (group_id, fingerprint);
        CREATE INDEX episode_docs_thread ON episode_docs (group_id, thread, timestamp, id);

        -- Append-only versions; the current one has expired_at NULL.
        CREATE TABLE episodes (
            group_id     TEXT NOT NULL,
            id           TEXT NOT NULL,
            version      INTEGER NOT NULL,
            doc          INTEGER NOT NULL REFERENCES episode_docs (doc),
            timestamp    TEXT NOT NULL,
            recorded_at  TEXT NOT NULL,
            expired_at   TEXT,
            source       TEXT,
            source_type  TEXT NOT NULL,
            actor_type   TEXT,
            actor_id     TEXT,
            actor_name   TEXT,
            intent       TEXT,
            content      TEXT NOT NULL,
            metadata     TEXT NOT NULL,
            refs         TEXT NOT NULL,
            fingerprint  TEXT NOT NULL,
            status       TEXT NOT NULL,
            operation_id TEXT NOT NULL,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE INDEX episodes_current_time
            ON episodes (group_id, timestamp DESC, id DESC) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_doc ON episodes (doc) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_intent
            ON episodes (group_id, intent, timestamp DESC) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_source
            ON episodes (group_id, source, timestamp DESC) WHERE expired_at IS NULL;
        CREATE INDEX episodes_current_actor
            ON episodes (group_id, actor_id, timestamp DESC) WHERE expired_at IS NULL;

        -- Full text over jieba-segmented content; rowid = episode_docs.doc. ``context`` holds
        -- the previous and next episodes of the same thread, weighted lower at query time.
        CREATE VIRTUAL TABLE episodes_fts USING fts5 (
            text, context, content = '', contentless_delete = 1,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );

        CREATE TABLE operations (
            group_id   TEXT NOT NULL,
            id         TEXT NOT NULL,
            kind       TEXT NOT NULL,
            actor      TEXT,
            created_at TEXT NOT NULL,
            summary    TEXT NOT NULL,
            details    TEXT NOT NULL,
            PRIMARY KEY (group_id, id)
        );
        CREATE INDEX operations_time ON operations (group_id, created_at DESC);
        """,
    ),
]

MIGRATIONS.append(
    (
        2,
        """
        -- Facts about the store itself, e.g. which embedder made its vectors.
        CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);

        -- One embedding per episode (float32, L2-normalised); absent = not embedded yet.
        CREATE TABLE episode_vectors (
            doc      INTEGER PRIMARY KEY REFERENCES episode_docs (doc),
            group_id TEXT NOT NULL,
            vector   BLOB NOT NULL
        );
        CREATE INDEX episode_vectors_group ON episode_vectors (group_id, doc);
        """,
    )
)

MIGRATIONS.append(
    (
        3,
        """
        -- Knowledge graph: append-only versions of entities and facts (current: expired_at NULL).
        CREATE TABLE entities (
            group_id     TEXT NOT NULL,
            id           TEXT NOT NULL,
            version      INTEGER NOT NULL,
            name         TEXT NOT NULL,
            type         TEXT NOT NULL,
            aliases      TEXT NOT NULL,
            attributes   TEXT NOT NULL,
            summary      TEXT,
            first_seen   TEXT NOT NULL,
            last_seen    TEXT NOT NULL,
            recorded_at  TEXT NOT NULL,
            expired_at   TEXT,
            operation_id TEXT NOT NULL,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE INDEX entities_current_type ON entities (group_id, type) WHERE expired_at IS NULL;

        -- Normalised names and aliases of current entities, for exact resolution.
        CREATE TABLE entity_names (
            group_id  TEXT NOT NULL,
            name_key  TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            PRIMARY KEY (group_id, name_key, entity_id)
        );

        CREATE TABLE facts (
            group_id      TEXT NOT NULL,
            id            TEXT NOT NULL,
            version       INTEGER NOT NULL,
            doc           INTEGER NOT NULL,
            subject       TEXT NOT NULL,
            predicate     TEXT NOT NULL,
            object        TEXT,
            value         TEXT,
            fact          TEXT NOT NULL,
            conditions    TEXT NOT NULL,
            confidence    REAL NOT NULL,
            source_kind   TEXT NOT NULL,
            episodes      TEXT NOT NULL,
            valid_at      TEXT,
            invalid_at    TEXT,
            recorded_at   TEXT NOT NULL,
            expired_at    TEXT,
            status        TEXT NOT NULL,
            superseded_by TEXT,
            operation_id  TEXT NOT NULL,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE INDEX facts_current_subject ON facts (group_id, subject, predicate) WHERE expired_at IS NULL;
        CREATE INDEX facts_current_object ON facts (group_id, object) WHERE expired_at IS NULL;
        CREATE INDEX facts_doc ON facts (doc);

        -- Full text over fact sentences and the names they connect; rowid = facts.doc.
        CREATE VIRTUAL TABLE facts_fts USING fts5 (
            text, content = '', contentless_delete = 1,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );

        -- Which episodes mention which entities.
        CREATE TABLE mentions (
            group_id   TEXT NOT NULL,
            entity_id  TEXT NOT NULL,
            episode_id TEXT NOT NULL,
            PRIMARY KEY (group_id, entity_id, episode_id)
        );
        CREATE INDEX mentions_episode ON mentions (group_id, episode_id);

        -- Possible duplicates the resolver was not sure about, for review.
        CREATE TABLE merge_candidates (
            group_id     TEXT NOT NULL,
            entity_id    TEXT NOT NULL,
            candidate_id TEXT NOT NULL,
            score        REAL NOT NULL,
            parts        TEXT NOT NULL,
            created_at   TEXT NOT NULL,
            PRIMARY KEY (group_id, entity_id, candidate_id)
        );
        """,
    )
)

MIGRATIONS.append(
    (
        4,
        """
        -- Document frequency of every indexed term, to prune common words from candidates.
        CREATE VIRTUAL TABLE episodes_fts_vocab USING fts5vocab ('episodes_fts', 'row');
        """,
    )
)

MIGRATIONS.append(
    (
        5,
        """
        -- History: which operation closed a version (``expired_by``), so an
        -- operation's effect is exactly the versions it created (operation_id) and closed.
        ALTER TABLE episodes ADD COLUMN expired_by TEXT;
        ALTER TABLE entities ADD COLUMN expired_by TEXT;
        ALTER TABLE facts ADD COLUMN expired_by TEXT;
        -- Mentions are not versioned: each row names the operation that added it.
        ALTER TABLE mentions ADD COLUMN operation_id TEXT;
        CREATE INDEX episodes_operation ON episodes (group_id, operation_id);
        CREATE INDEX episodes_expired_by ON episodes (group_id, expired_by) WHERE expired_by IS NOT NULL;
        CREATE INDEX entities_operation ON entities (group_id, operation_id);
        CREATE INDEX entities_expired_by ON entities (group_id, expired_by) WHERE expired_by IS NOT NULL;
        CREATE INDEX facts_operation ON facts (group_id, operation_id);
        CREATE INDEX facts_expired_by ON facts (group_id, expired_by) WHERE expired_by IS NOT NULL;
        CREATE INDEX mentions_operation ON mentions (group_id, operation_id) WHERE operation_id IS NOT NULL;
        -- Versions by document, for reads at a past transaction time (known_at).
        CREATE INDEX episodes_doc_versions ON episodes (doc, version);
        CREATE INDEX operations_kind ON operations (group_id, kind, created_at DESC);
        """,
    )
)

MIGRATIONS.append(
    (
        6,
        """
        -- Decay and archive: when a search last returned a fact (absent: never).
        CREATE TABLE fact_hits (
            group_id         TEXT NOT NULL,
            fact_id          TEXT NOT NULL,
            last_returned_at TEXT NOT NULL,
            PRIMARY KEY (group_id, fact_id)
        ) WITHOUT ROWID;

        -- Cold storage: every version of an archived fact, as it was in ``facts``, plus when
        -- and by which ``archive`` operation it moved. ``doc`` stays unique across both tables.
        CREATE TABLE archived_facts (
            group_id      TEXT NOT NULL,
            id            TEXT NOT NULL,
            version       INTEGER NOT NULL,
            doc           INTEGER NOT NULL,
            subject       TEXT NOT NULL,
            predicate     TEXT NOT NULL,
            object        TEXT,
            value         TEXT,
            fact          TEXT NOT NULL,
            conditions    TEXT NOT NULL,
            confidence    REAL NOT NULL,
            source_kind   TEXT NOT NULL,
            episodes      TEXT NOT NULL,
            valid_at      TEXT,
            invalid_at    TEXT,
            recorded_at   TEXT NOT NULL,
            expired_at    TEXT,
            status        TEXT NOT NULL,
            superseded_by TEXT,
            operation_id  TEXT NOT NULL,
            expired_by    TEXT,
            archived_at   TEXT NOT NULL,
            archived_by   TEXT NOT NULL,
            PRIMARY KEY (group_id, id, version)
        );
        CREATE INDEX archived_facts_doc ON archived_facts (doc);
        CREATE INDEX archived_facts_subject ON archived_facts (group_id, subject, predicate);
        CREATE INDEX archived_facts_object ON archived_facts (group_id, object);
        CREATE INDEX archived_facts_archived_by ON archived_facts (group_id, archived_by);

        -- Full text of archived facts (include_archived); rowid = archived_facts.doc.
        CREATE VIRTUAL TABLE archived_facts_fts USING fts5 (
            text, content = '', contentless_delete = 1,
            tokenize = 'porter unicode61 remove_diacritics 2'
        );
        """,
    )
)

MIGRATIONS.append(
    (
        7,
        """
        -- Time travel on episodes: the versions closed after a time t, so a list at
        -- known_at = t reads the current versions (their own indexes) plus these few. Covering
        -- the held test and the list order, so only the page's rows are read from the table.
        CREATE INDEX episodes_closed ON episodes (group_id, expired_at, recorded_at, timestamp, id)
            WHERE expired_at IS NOT NULL;
        """,
    )
)

MIGRATIONS.append(
    (
        8,
        """
        -- Vectors of facts and entity names: hybrid fact search and vector candidates in
        -- entity resolution. One row per fact (its doc) and per entity; ``text_key`` / ``name`` is
        -- what the vector was made from, so a fact or entity whose current text differs is pending.
        -- AUTOINCREMENT keys let the in-memory matrices notice replaced rows (a new key each time).
        CREATE TABLE fact_vectors (
            seq      INTEGER PRIMARY KEY AUTOINCREMENT,
            doc      INTEGER NOT NULL UNIQUE,
            group_id TEXT NOT NULL,
            text_key TEXT NOT NULL,
            vector   BLOB NOT NULL
        );
        CREATE INDEX fact_vectors_group ON fact_vectors (group_id, seq);
        CREATE TABLE entity_vectors (
            seq       INTEGER PRIMARY KEY AUTOINCREMENT,
            group_id  TEXT NOT NULL,
            entity_id TEXT NOT NULL,
            name      TEXT NOT NULL,
            vector    BLOB NOT NULL,
            UNIQUE (group_id, entity_id)
        );
        CREATE INDEX entity_vectors_group ON entity_vectors (group_id, seq);
        """,
    )
)

MIGRATIONS.append(
    (
        9,
        """
        -- Filtered search: BM25 scores only the full-text rows whose doc is in the
        -- set the filters select, read from these indexes alone; ``doc`` at their end makes them
        -- covering (without it, 12k table lookups for one common intent cost 16 ms at 100k).
        -- Their leading columns, and so every list plan, are unchanged.
        DROP INDEX episodes_current_time;
        CREATE INDEX episodes_current_time
            ON episodes (group_id, timestamp DESC, id DESC, doc) WHERE expired_at IS NULL;
        DROP INDEX episodes_current_intent;
        CREATE INDEX episodes_current_intent
            ON episodes (group_id, intent, timestamp DESC, doc) WHERE expired_at IS NULL;
        DROP INDEX episodes_current_source;
        CREATE INDEX episodes_current_source
            ON episodes (group_id, source, timestamp DESC, doc) WHERE expired_at IS NULL;
        DROP INDEX episodes_current_actor;
        CREATE INDEX episodes_current_actor
            ON episodes (group_id, actor_id, timestamp DESC, doc) WHERE expired_at IS NULL;
        """,
    )
)

MIGRATIONS.append(
    (
        10,
        """
        -- One SQL layer for both databases: facts are keyed by (group_id, id) as in PostgreSQL,
        -- and a fact's full-text row number (live or archived: the same number) and vector key
        -- live in fact_docs, as its document does in PostgreSQL's table of that name.
        CREATE TABLE fact_docs (
            doc      INTEGER PRIMARY KEY,
            group_id TEXT NOT NULL,
            id       TEXT NOT NULL,
            UNIQUE (group_id, id)
        );
        INSERT OR IGNORE INTO fact_docs (doc, group_id, id)
            SELECT DISTINCT doc, group_id, id FROM facts
            UNION SELECT DISTINCT doc, group_id, id FROM archived_facts;
        DROP INDEX facts_doc;
        ALTER TABLE facts DROP COLUMN doc;
        DROP INDEX archived_facts_doc;
        ALTER TABLE archived_facts DROP COLUMN doc;
        """,
    )
)

MIGRATIONS.append(
    (
        11,
        """
        -- The audit log by actor (an API key's name), and the facts under dispute (the review queue).
        CREATE INDEX operations_actor ON operations (group_id, actor, created_at DESC);
        CREATE INDEX facts_current_disputed ON facts (group_id, subject, predicate)
            WHERE expired_at IS NULL AND status = 'disputed';
        """,
    )
)

# Per-group counts of current episodes, facts and vectors, kept by triggers (engram.storage.stats).
MIGRATIONS.append((12, stats.SQLITE_MIGRATION))

MIGRATIONS.append(
    (
        13,
        """
        -- API keys (engram.keys): store-wide, read by digest on every authenticated request.
        -- The key itself is never stored: only its SHA-256 digest and first characters.
        CREATE TABLE api_keys (
            id           TEXT PRIMARY KEY,
            name         TEXT NOT NULL UNIQUE,
            role         TEXT NOT NULL CHECK (role IN ('read', 'write', 'admin')),
            group_ids    TEXT,
            digest       TEXT NOT NULL UNIQUE,
            prefix       TEXT NOT NULL,
            created_at   TEXT NOT NULL,
            expires_at   TEXT,
            revoked_at   TEXT,
            last_used_at TEXT
        );
        """,
    )
)

MIGRATIONS.append(
    (
        14,
        """
        -- Provenance of entity versions: the episode a version came from (NULL for a person's edit
        -- or a merge), which episode and operation introduced each alias and the summary (so a
        -- purge removes what the purged episode introduced); why a fact has its status (the
        -- arbiter's reason: disputed by credibility, ended by a stop statement, ...).
        ALTER TABLE entities ADD COLUMN episode_id TEXT;
        ALTER TABLE entities ADD COLUMN alias_sources TEXT NOT NULL DEFAULT '{}';
        ALTER TABLE entities ADD COLUMN summary_source TEXT;
        ALTER TABLE facts ADD COLUMN status_reason TEXT;
        ALTER TABLE archived_facts ADD COLUMN status_reason TEXT;
        """,
    )
)

MIGRATIONS.append(
    (
        15,
        """
        -- Which episode docs changed (a version added, closed or purged; a vector put or dropped), in
        -- order: processes holding a group's vectors in memory read the changes past the last ``seq``
        -- they applied (engram.storage.sqlite.episode_matrix). Triggers, so no write path forgets it.
        CREATE TABLE episode_changes (
            seq      INTEGER PRIMARY KEY AUTOINCREMENT,
            group_id TEXT NOT NULL,
            doc      INTEGER NOT NULL
        );
        CREATE INDEX episode_changes_group ON episode_changes (group_id, seq);
        CREATE TRIGGER episode_changes_insert AFTER INSERT ON episodes
        BEGIN INSERT INTO episode_changes (group_id, doc) VALUES (NEW.group_id, NEW.doc); END;
        CREATE TRIGGER episode_changes_close AFTER UPDATE OF expired_at ON episodes
        BEGIN INSERT INTO episode_changes (group_id, doc) VALUES (NEW.group_id, NEW.doc); END;
        CREATE TRIGGER episode_changes_delete AFTER DELETE ON episodes
        BEGIN INSERT INTO episode_changes (group_id, doc) VALUES (OLD.group_id, OLD.doc); END;
        CREATE TRIGGER episode_changes_vector_put AFTER INSERT ON episode_vectors
        BEGIN INSERT INTO episode_changes (group_id, doc) VALUES (NEW.group_id, NEW.doc); END;
        CREATE TRIGGER episode_changes_vector_drop AFTER DELETE ON episode_vectors
        BEGIN INSERT INTO episode_changes (group_id, doc) VALUES (OLD.group_id, OLD.doc); END;
        -- Keep the last 100,000 changes (episode_matrix.LOG_KEPT).
        CREATE TRIGGER episode_changes_prune AFTER INSERT ON episode_changes WHEN NEW.seq % 10000 = 0
        BEGIN DELETE FROM episode_changes WHERE seq <= NEW.seq - 100000; END;
        """,
    )
)

# Episodes by the references they cite, and the names written for them (engram.storage.references).
MIGRATIONS.append((16, references.SQLITE_MIGRATION))
# Reference names keyed by engram_fold, as on PostgreSQL (engram.fold), not ASCII-only lower().
MIGRATIONS.append((17, references.SQLITE_FOLD_MIGRATION))

# Two indexes PostgreSQL has had since its first graph migration, which the graph build slowed
# without as a group grew: the entities of a type most recently seen first (fuzzy resolution's
# pool) read through the index rather than sorted from all of them, and an entity's names
# found by the entity (replaced on every new version) rather than by walking the group's names.
MIGRATIONS.append(
    (
        18,
        """
        DROP INDEX entities_current_type;
        CREATE INDEX entities_current_type
            ON entities (group_id, type, last_seen DESC) WHERE expired_at IS NULL;
        CREATE INDEX entity_names_entity ON entity_names (group_id, entity_id);
        """,
    )
)

# Episodes whose graph is still to be built, so a crash between the two loses none
# (engram.storage.extraction_queue).
MIGRATIONS.append((19, extraction_queue.SQLITE_MIGRATION))

LATEST_VERSION = MIGRATIONS[-1][0]
