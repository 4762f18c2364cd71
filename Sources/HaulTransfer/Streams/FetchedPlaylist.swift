import HaulCore

/// A playlist a task's first answer brought: its bytes, its URL after redirects and where it came from. The task
/// goes on as a stream from it, in the same attempt.
struct FetchedPlaylist: Equatable {
    var bytes: [UInt8]
    var url: String
    var origin: AddressReach?
}
