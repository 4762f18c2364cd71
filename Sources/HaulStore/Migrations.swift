import GRDB

/// The schema, as an append-only list of migrations.
///
/// Rules: a migration is never edited once a release has shipped it; a change to the schema is
/// a new migration with a dated name. Tables and columns are written as strings, never derived
/// from Swift types, so that renaming a property cannot silently change the schema. Constraints
/// live in SQL (`CHECK`, `NOT NULL`, foreign keys), so the file itself refuses bad rows whoever
/// writes them.
///
/// Every past schema has a fixture under `Tests/HaulStoreTests/Fixtures/schemas/`: the rows haul wrote while
/// that migration was its newest, which a test writes into a file migrated up to it and opens through
/// `AppDatabase`, checking every task survives. Adding a migration means adding the fixture of the one before.
enum Migrations {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()

        migrator.registerMigration("2026-11-22-create-task") { db in
            try db.execute(sql: """
                CREATE TABLE task (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    url TEXT NOT NULL,
                    directory TEXT NOT NULL,
                    requestedName TEXT,
                    fileName TEXT,
                    state TEXT NOT NULL
                        CHECK (state IN ('waiting', 'running', 'paused', 'completed', 'failed')),
                    position INTEGER NOT NULL,
                    bytesDone INTEGER NOT NULL DEFAULT 0 CHECK (bytesDone >= 0),
                    totalBytes INTEGER CHECK (totalBytes IS NULL OR totalBytes >= 0),
                    etag TEXT,
                    lastModified TEXT,
                    attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
                    lastError TEXT,
                    checksum TEXT
                        CHECK (checksum IS NULL OR (checksum GLOB 'sha-256=*' AND length(checksum) = 72)),
                    headers TEXT NOT NULL DEFAULT '[]',
                    createdAt DATETIME NOT NULL,
                    finishedAt DATETIME
                )
                """)
            try db.execute(sql: "CREATE INDEX task_on_state_position ON task(state, position)")
        }

        migrator.registerMigration("2026-11-22-create-controlRequest") { db in
            try db.execute(sql: """
                CREATE TABLE controlRequest (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    action TEXT NOT NULL
                        CHECK (action IN ('pause', 'resume', 'remove', 'remove-delete-file')),
                    taskId INTEGER REFERENCES task(id) ON DELETE CASCADE,
                    createdAt DATETIME NOT NULL
                )
                """)
            try db.execute(sql: "CREATE INDEX controlRequest_on_taskId ON controlRequest(taskId)")
        }

        migrator.registerMigration("2026-11-22-create-setting") { db in
            try db.execute(sql: """
                CREATE TABLE setting (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                )
                """)
        }

        // Commands from other shells go to the owner over its control socket now.
        migrator.registerMigration("2026-11-23-drop-controlRequest") { db in
            try db.execute(sql: "DROP TABLE controlRequest")
        }

        // Downloads over several connections: each range and its durable bytes (DESIGN §7).
        migrator.registerMigration("2026-11-23-create-segment") { db in
            try db.execute(sql: """
                CREATE TABLE segment (
                    taskId INTEGER NOT NULL REFERENCES task(id) ON DELETE CASCADE,
                    start INTEGER NOT NULL CHECK (start >= 0),
                    "end" INTEGER NOT NULL CHECK ("end" > start),
                    committed INTEGER NOT NULL CHECK (committed >= 0 AND committed <= "end" - start),
                    PRIMARY KEY (taskId, start)
                ) WITHOUT ROWID
                """)
        }

        // A link replaced while a task holds bytes (DESIGN §8): the check its first answer must pass, and the
        // earlier links for the details pane.
        migrator.registerMigration("2026-11-25-task-link-change") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN linkChange TEXT")
            try db.execute(sql: "ALTER TABLE task ADD COLUMN linkHistory TEXT NOT NULL DEFAULT '[]'")
        }

        // Request options fixed when a task is added (proxies, cookies file, netrc file) and the cookies servers
        // set for it (DESIGN §8).
        migrator.registerMigration("2026-11-25-task-request-options") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN requestOptions TEXT")
            try db.execute(sql: "ALTER TABLE task ADD COLUMN cookies TEXT NOT NULL DEFAULT '[]'")
        }

        // Mirrors of a task (DESIGN §8): its other links, and the links its transfers dropped with their reasons.
        migrator.registerMigration("2026-11-25-task-mirrors") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN mirrors TEXT NOT NULL DEFAULT '[]'")
            try db.execute(sql: "ALTER TABLE task ADD COLUMN droppedLinks TEXT NOT NULL DEFAULT '[]'")
        }

        // A task whose link is an HLS stream (DESIGN §9): its variant, segments and the durable count appended.
        migrator.registerMigration("2026-11-26-task-stream") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN stream TEXT")
        }

        // Where a task's validators came from (DESIGN §8): the `Server` header and the link's host, which tell
        // whether another link's ETag can be compared with them.
        migrator.registerMigration("2026-11-27-task-validator-source") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN validatorServer TEXT")
            try db.execute(sql: "ALTER TABLE task ADD COLUMN validatorHost TEXT")
        }

        // What a task's body is (DESIGN §11), decided once at its first answer. Tasks stored before: a stream is one,
        // a task with a decided name or bytes kept answered as a file; any other has not answered yet.
        migrator.registerMigration("2026-11-28-task-kind") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN kind TEXT")
            try db.execute(sql: """
                UPDATE task SET kind = CASE
                    WHEN stream IS NOT NULL THEN 'stream'
                    WHEN fileName IS NOT NULL OR bytesDone > 0 THEN 'file'
                END
                """)
        }

        // A video found on a web page (DESIGN §11): the page it came from, as a JSON object (its link, the format
        // chosen, the title; or why a page was kept as a file), and the group a playlist page's videos were added as.
        migrator.registerMigration("2026-11-29-task-page") { db in
            try db.execute(sql: "ALTER TABLE task ADD COLUMN page TEXT")
            try db.execute(sql: "ALTER TABLE task ADD COLUMN groupName TEXT")
        }

        // The queue read in its order from an index (`SQLiteTaskStore.forEachTask`), a row at a time: without one,
        // SQLite sorted every row in memory before handing out the first (10,000 tasks: megabytes held and a third
        // of the live list's first frame). Unfinished tasks by position (the rowid, last in every index, breaks
        // ties by id), completed ones by when they finished.
        migrator.registerMigration("2026-11-30-task-order-indexes") { db in
            try db.execute(sql: "CREATE INDEX task_on_position ON task(position)")
            try db.execute(sql: "CREATE INDEX task_on_state_finishedAt ON task(state, finishedAt)")
        }

        return migrator
    }
}
