import Foundation
import GRDB
import Testing
@testable import HaulStore

/// The store's plain-arithmetic dates agree with GRDB's own conversion, so existing databases read the same.
@Suite struct StoredDateTests {
    static let dates = [0.0, 1_736_157_600.123, 951_782_400.5, -1.5, 1_800_000_000.999].map(Date.init(timeIntervalSince1970:))

    @Test func writesTheTextGRDBWrites() {
        for date in Self.dates {
            #expect(date.storedValue == date.databaseValue)
        }
    }

    @Test func readsWhatGRDBWrote() {
        for date in Self.dates {
            let read = Date(storedValue: date.databaseValue)
            #expect(read.map { abs($0.timeIntervalSince(date)) < 0.001 } == true)
        }
    }

    @Test func readsOtherFormsAndRefusesNull() {
        #expect(Date(storedValue: "2025-01-06T10:00:00.000".databaseValue)?.timeIntervalSince1970 == 1_736_157_600)
        #expect(Date(storedValue: .null) == nil)
    }
}
