import CFileSystem
import Glibc
import HaulCore

/// The mark a task puts on its part file (an extended attribute), so that after a crash before the file's name
/// was recorded the task knows the file as its own, and no other task or program's file is ever taken for it.
/// On a filesystem without extended attributes nothing is marked and nothing is recognised.
struct PartOwnerTag: Sendable, Equatable {
    static let attribute = "user.haul.task"
    let value: String

    /// The tag of `request`'s task: its id and when it was added, which no other task in the directory shares.
    init(_ request: TransferRequest) {
        value = "\(request.id)@\(request.addedAt)"
    }

    /// Puts the tag on the open file `fd` (nothing happens where the filesystem cannot keep it).
    func mark(_ fd: Int32) {
        _ = Array(value.utf8).withUnsafeBytes { bytes in
            CFileSystem_set_attribute(fd, Self.attribute, bytes.baseAddress, bytes.count)
        }
    }

    /// Whether the open file `fd` carries this tag.
    func marks(_ fd: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 128)
        let count = buffer.withUnsafeMutableBytes { CFileSystem_get_attribute(fd, Self.attribute, $0.baseAddress, $0.count) }
        return count > 0 && Array(buffer[..<count]) == Array(value.utf8)
    }
}
