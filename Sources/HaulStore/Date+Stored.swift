import Foundation
import GRDB
import HaulCore

/// Dates go in and out of the store as `UTCTimestamp` text, the same `yyyy-MM-dd HH:mm:ss.SSS` GRDB writes.
///
/// GRDB's own `Date` conversion uses a `DateFormatter` and a `Calendar`, which load ICU's tables (megabytes of
/// resident memory for every run that adds or loads a task); this does the same with plain arithmetic.
extension Date {
    /// The stored form of this date.
    var storedValue: DatabaseValue { UTCTimestamp.text(self).databaseValue }

    /// The date in a stored value; other date forms GRDB understands are read its way; nil for NULL or garbage.
    init?(storedValue value: DatabaseValue) {
        if let text = String.fromDatabaseValue(value), let date = UTCTimestamp.date(from: text) {
            self = date
        } else if let date = Date.fromDatabaseValue(value) {
            self = date
        } else {
            return nil
        }
    }
}
