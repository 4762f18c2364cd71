import HaulCore
import Testing
@testable import HaulTransfer

/// When a removed task's part file is deleted, decided without a file system.
struct PartFileJanitorTests {
    let id = TaskID(7)

    @Test func aRunningTransferStopsFirstAndItsFileGoesAfterClosing() {
        var janitor = PartFileJanitor()
        #expect(janitor.removal(of: id, transferRuns: true, directory: "/d", fileName: "f") == .stopTransferFirst)
        janitor.closingBegan(id, part: "/d/g.part")
        let (released, delete) = janitor.closingEnded(id, completed: false)
        #expect(released == "/d/g.part")
        #expect(delete == "/d/g.part")
        // Deleted once: a later removal does not delete a file that took the name since.
        #expect(janitor.removal(of: id, transferRuns: false, directory: "/d", fileName: nil) == .nothing)
    }

    @Test func aCompletedFileIsNeverDeleted() {
        var janitor = PartFileJanitor()
        janitor.closingBegan(id, part: "/d/f.part")
        #expect(janitor.removal(of: id, transferRuns: false, directory: "/d", fileName: "f") == .afterClosing)
        let (released, delete) = janitor.closingEnded(id, completed: true)
        #expect(released == "/d/f.part")
        #expect(delete == nil)
    }

    @Test func theLastTransfersFileWinsOverTheRecordedName() {
        var janitor = PartFileJanitor()
        janitor.closingBegan(id, part: "/d/f (1).part")
        _ = janitor.closingEnded(id, completed: false)
        #expect(janitor.removal(of: id, transferRuns: false, directory: "/d", fileName: "f") == .delete(path: "/d/f (1).part"))
    }

    @Test func withoutATransferTheRecordedNameIsTried() {
        var janitor = PartFileJanitor()
        #expect(janitor.removal(of: id, transferRuns: false, directory: "/d/", fileName: "f") == .deleteIfUnheld(path: "/d/f.part"))
        #expect(janitor.removal(of: id, transferRuns: false, directory: "/d", fileName: nil) == .nothing)
    }

    @Test func closingWithoutAPartFileReleasesNothing() {
        var janitor = PartFileJanitor()
        janitor.closingBegan(id, part: nil)
        #expect(janitor.isClosing(id))
        let (released, delete) = janitor.closingEnded(id, completed: true)
        #expect(released == nil && delete == nil)
        #expect(!janitor.isClosingAny)
    }
}
