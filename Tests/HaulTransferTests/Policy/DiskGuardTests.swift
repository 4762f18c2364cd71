import Glibc
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

    @Test func aReserveAndARestPastInt64NeedMoreThanAnyDiskHas() {
        #expect(DiskGuard.freeSpaceError(free: .max, reserve: 1 << 20, needed: 9_223_372_036_854_775_000, directory: "/d")
            == .lowDiskSpace(path: "/d", freeBytes: .max, neededBytes: 9_223_372_036_854_775_000, reserveBytes: 1 << 20))
        #expect(DiskGuard.freeSpaceError(free: .max, reserve: .max, needed: .max, directory: "/d") != nil)
        #expect(DiskGuard.freeSpaceError(free: .max, reserve: 0, needed: .max, directory: "/d") == nil)
    }

    /// A read-only mount reports little or nothing free; the cause named is the mount, whatever the figures.
    @Test func aReadOnlyFileSystemIsNamedNotLowSpace() {
        let readOnly = FreeSpace.Room(freeBytes: 1 << 20, readOnly: true)
        #expect(DiskGuard.freeSpaceError(room: readOnly, reserve: 64 << 20, needed: nil, directory: "/d")
            == .readOnlyFileSystem(path: "/d"))
        #expect(DiskGuard.freeSpaceError(room: readOnly, reserve: 0, needed: 0, directory: "/d") == .readOnlyFileSystem(path: "/d"))
        #expect(DownloadError.readOnlyFileSystem(path: "/d").description.contains("/d is on a read-only file system (errno 30"))
        let writable = FreeSpace.Room(freeBytes: 1 << 20, readOnly: false)
        #expect(DiskGuard.freeSpaceError(room: writable, reserve: 64 << 20, needed: nil, directory: "/d")
            == .lowDiskSpace(path: "/d", freeBytes: 1 << 20, neededBytes: 0, reserveBytes: 64 << 20))
        #expect(DiskGuard.freeSpaceError(room: nil, reserve: 64 << 20, needed: nil, directory: "/d") == nil)
    }

    /// EROFS from a call (open, with `--disk-reserve 0`) is the same error as the mount flag gives.
    @Test func erofsFromACallIsTheReadOnlyFileSystem() {
        #expect(FileWriter.error(call: "open", path: "/d/f.part", errno: EROFS) == .readOnlyFileSystem(path: "/d/f.part"))
        #expect(FileWriter.error(call: "open", path: "/d/f.part", errno: ENOSPC) == .diskFull(path: "/d/f.part"))
    }

    @Test func anUnlinkedPartFileStopsTheTransfer() {
        #expect(DiskGuard.partFileError(linkCount: 0, path: "/d/f.part") == .partFileRemoved(path: "/d/f.part"))
        #expect(DiskGuard.partFileError(linkCount: 1, path: "/d/f.part") == nil)
        #expect(DiskGuard.partFileError(linkCount: nil, path: "/d/f.part") == nil)
    }
}
