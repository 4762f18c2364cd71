-- A queue as haul wrote it when 2026-11-23-create-segment was its newest migration.
-- Applied by SchemaFixtureTests onto a database migrated up to that migration, then migrated to the current schema.
INSERT INTO task (id, url, directory, requestedName, fileName, state, position, bytesDone, totalBytes, etag, lastModified, attempts, lastError, checksum, headers, createdAt, finishedAt)
    VALUES (1, 'https://example.org/a.iso', '/downloads', NULL, 'a.iso', 'completed', 1, 1048576, 1048576, '"a-1"', 'Sun, 22 Nov 2026 10:00:00 GMT', 1, NULL, 'sha-256=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08', '["X-Token: 1","Accept: */*"]', '2026-11-22 10:00:00.000', '2026-11-22 10:05:00.250');
INSERT INTO task (id, url, directory, requestedName, fileName, state, position, bytesDone, totalBytes, etag, lastModified, attempts, lastError, checksum, headers, createdAt, finishedAt)
    VALUES (2, 'https://example.org/b.bin?part=1', '/downloads/sub dir', 'b renamed.bin', 'b renamed.bin', 'paused', 2, 4096, 8388608, 'W/"b-7"', NULL, 3, 'connection reset by peer', NULL, '[]', '2026-11-22 11:00:00.500', NULL);
INSERT INTO task (id, url, directory, requestedName, fileName, state, position, bytesDone, totalBytes, etag, lastModified, attempts, lastError, checksum, headers, createdAt, finishedAt)
    VALUES (3, 'http://example.org/c', '/downloads', NULL, NULL, 'waiting', 3, 0, NULL, NULL, NULL, 0, NULL, NULL, '[]', '2026-11-22 12:00:00.000', NULL);
INSERT INTO task (id, url, directory, requestedName, fileName, state, position, bytesDone, totalBytes, etag, lastModified, attempts, lastError, checksum, headers, createdAt, finishedAt)
    VALUES (4, 'https://example.org/gone.zip', '/downloads', NULL, 'gone.zip', 'failed', 4, 0, NULL, NULL, NULL, 5, 'the server answered 404 Not Found', NULL, '[]', '2026-11-22 13:00:00.000', '2026-11-22 13:00:02.000');
INSERT INTO setting (key, value) VALUES ('maxConcurrent', '3');
INSERT INTO segment (taskId, start, "end", committed) VALUES (2, 0, 4194304, 2048), (2, 4194304, 8388608, 2048);
