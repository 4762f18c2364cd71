import Foundation
import GRDB
import HaulCore

/// What lets two processes share one queue: the change token and settings.
extension SQLiteTaskStore {
    /// A number that changes when another connection or process commits, and not for our own writes.
    ///
    /// `PRAGMA data_version` is per connection and ignores that connection's own commits. It is
    /// always read on the writer connection, which makes every write of this `AppDatabase`;
    /// reading it on one of the pool's reader connections would count our own writes as
    /// external, and differ from one reader to the next.
    public func externalChangeToken() throws -> Int64 {
        try database.writer.writeWithoutTransaction { db in
            try Int64.fetchOne(db, sql: "PRAGMA data_version") ?? 0
        }
    }

    /// The concurrency limit last saved, or nil when none was (or the stored text is not a number).
    public func loadMaxConcurrent() throws -> Int? {
        try database.writer.read { db in
            try SettingRecord.value(of: .maxConcurrent, in: db).flatMap { Int($0) }
        }
    }

    public func saveMaxConcurrent(_ value: Int) throws {
        try database.writer.write { db in
            try SettingRecord.set(.maxConcurrent, to: String(value), in: db)
        }
    }

    public func loadSchedule() throws -> Schedule? {
        let text = try database.writer.read { db in try SettingRecord.value(of: .schedule, in: db) }
        guard let text else { return nil }
        let schedule: Schedule
        do {
            schedule = try JSONDecoder().decode(Schedule.self, from: Data(text.utf8))
        } catch {
            throw StoreError.unreadableSetting(key: SettingRecord.Key.schedule.rawValue, value: text)
        }
        // One saved before the cap existed, or edited by hand, is refused as one given now would be.
        do {
            try schedule.checkWindowCount()
        } catch {
            throw StoreError.refusedSchedule(error)
        }
        return schedule
    }

    public func saveSchedule(_ schedule: Schedule) throws {
        let text = String(decoding: try JSONEncoder().encode(schedule), as: UTF8.self)
        try database.writer.write { db in
            try SettingRecord.set(.schedule, to: text, in: db)
        }
    }
}
