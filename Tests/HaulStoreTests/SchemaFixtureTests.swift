import Foundation
import GRDB
import HaulCore
@testable import HaulStore
import Testing

/// A queue written under each past schema opens with the current store and keeps its tasks.
///
/// `Fixtures/schemas/NN-MIGRATION.sql` holds the rows haul wrote while MIGRATION was its newest migration. No
/// release has shipped a database yet, so the fixtures are not files an old build left behind: each test
/// migrates a fresh file only up to MIGRATION (migrations are append-only and never edited, so that is the
/// schema that build made), writes the fixture's rows into it, and opens it through `AppDatabase`, which
/// migrates the rest. When a migration is added, the one before it gets a fixture (`everyPastSchemaHasAFixture`).
@Suite("Databases from past schemas")
struct SchemaFixtureTests {
    static let directory = Bundle.module.url(forResource: "Fixtures", withExtension: nil)!.appendingPathComponent("schemas").path

    /// The fixture files, oldest schema first.
    static let fixtures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
        .filter { $0.hasSuffix(".sql") }.sorted()

    /// `07-2026-11-25-task-request-options.sql` → `2026-11-25-task-request-options`.
    static func migration(of fixture: String) -> String {
        String(fixture.dropFirst(3).dropLast(".sql".count))
    }

    @Test("every past schema has a fixture, the current one has none")
    func everyPastSchemaHasAFixture() {
        let past = Array(Migrations.migrator.migrations.dropLast())
        #expect(Self.fixtures.map(Self.migration(of:)) == past)
        #expect(Self.fixtures.enumerated().allSatisfy { $1.hasPrefix(String(format: "%02d-", $0 + 1)) }, "\(Self.fixtures)")
    }

    @Test("a queue from a past schema migrates, and its tasks and settings read back as written", arguments: fixtures)
    func opensAndMigrates(fixture: String) throws {
        let migration = Self.migration(of: fixture)
        let all = Migrations.migrator.migrations
        let index = try #require(all.firstIndex(of: migration), "\(fixture) names no migration")
        let scratch = try ScratchDirectory()
        let path = scratch.file("haul.sqlite")
        try Self.write(fixture: fixture, upTo: migration, at: path)

        let store = SQLiteTaskStore(database: try AppDatabase(path: path))
        try store.database.writer.read { (db: Database) throws in
            #expect(try Migrations.migrator.appliedMigrations(db) == all)
            #expect(try !db.tableExists("controlRequest"))
        }
        let applied = Set(all[...index])
        let loaded = try store.loadAll().sorted { $0.id.rawValue < $1.id.rawValue }
        let expected = PastQueue.tasks(through: applied)
        #expect(loaded.map(\.id) == expected.map(\.id))
        for (task, want) in zip(loaded, expected) {
            #expect(task == want, "task \(task.id.rawValue) from \(fixture)")
        }
        let setting = applied.contains(PastQueue.setting) ? PastQueue.maxConcurrent : nil
        #expect(try store.loadMaxConcurrent() == setting)
    }

    /// Makes a database at `path` with the schema up to `migration` and the rows of `fixture`.
    static func write(fixture: String, upTo migration: String, at path: String) throws {
        let rows = try String(contentsOfFile: directory + "/" + fixture, encoding: .utf8)
        let queue = try DatabaseQueue(path: path)
        try Migrations.migrator.migrate(queue, upTo: migration)
        try queue.write { db in
            #expect(try Migrations.migrator.appliedMigrations(db).last == migration)
            try db.execute(sql: rows)
        }
        try queue.close()
    }
}
