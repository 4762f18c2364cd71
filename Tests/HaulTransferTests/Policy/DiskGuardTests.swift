import HaulCore
import Testing
@testable import HaulTransfer

/// The disk checks of a running transfer, from given figures.
struct DiskGuardTests {
    @Test func roomAboveTheReserveAndTheRestPasses() {
        #expect(DiskGuard.freeSpaceError(free: 100, reserve: 50, needed: 50, directory: "/d") == nil)
        #expect(DiskGuard.freeSpaceError(free: nil, reserve: 50, needed: 50, directory: "/d") == nil)
    }

    @Test func tooLittleRoomNamesEveryFigure() {
        #expect(DiskGuard.freeSpaceError(free: 99, reserve: 50, needed: 50, directory: "/d")
            == .lowDiskSpace(path: "/d", freeBytes: 99, neededBytes: 50, reserveBytes: 50))
        // A negative rest (a lying length) counts as nothing.
        #expect(DiskGuard.freeSpaceError(free: 49, reserve: 50, needed: -10, directory: "/d")
            == .lowDiskSpace(path: "/d", freeBytes: 49, neededBytes: 0, reserveBytes: 50))
    }

    @Test func anUnlinkedPartFileStopsTheTransfer() {
        #expect(DiskGuard.partFileError(linkCount: 0, path: "/d/f.part") == .partFileRemoved(path: "/d/f.part"))
        #expect(DiskGuard.partFileError(linkCount: 1, path: "/d/f.part") == nil)
        #expect(DiskGuard.partFileError(linkCount: nil, path: "/d/f.part") == nil)
    }
}
