import GRDB

/// One row of the `setting` table: a named value kept as text.
struct SettingRecord: Equatable, Codable, FetchableRecord, PersistableRecord {
    /// The settings haul keeps; the raw value is the stored key.
    enum Key: String {
        /// The concurrency limit last chosen with `-j` or `<`/`>`.
        case maxConcurrent
        /// The run and cap windows (`haul schedule`), as JSON.
        case schedule
    }

    static let databaseTableName = "setting"

    var key: String
    var value: String

    init(_ key: Key, value: String) {
        self.key = key.rawValue
        self.value = value
    }

    /// The stored text of a setting, or nil when it was never set.
    static func value(of key: Key, in db: Database) throws -> String? {
        try SettingRecord.fetchOne(db, key: key.rawValue)?.value
    }

    /// Stores a setting, replacing any earlier value.
    static func set(_ key: Key, to value: String, in db: Database) throws {
        try SettingRecord(key, value: value).upsert(db)
    }
}
