import Foundation

/// The one directory `HaulProcess.binary(named:)` looks in, and where that choice came from.
public struct BinDirectory: Sendable, Equatable {
    /// Why this directory.
    public enum Origin: Sendable, Equatable {
        /// `$HAUL_BIN_DIR`, set by `make` to the build it made.
        case variable
        /// The directory of the running test executable (`swift test` without `make`).
        case testExecutable
        /// Neither is known (no `/proc`).
        case unknown
    }

    public var path: String
    public var origin: Origin

    public init(path: String, origin: Origin) {
        self.path = path
        self.origin = origin
    }

    /// How to make the missing executable appear, for the failure message.
    var remedy: String {
        switch origin {
        case .variable:
            "\(HaulProcess.binDirectoryVariable) names the build `make` made; build that product (`make test` does)"
        case .testExecutable:
            "it sits beside the test executable after `swift build --build-tests`; or set \(HaulProcess.binDirectoryVariable)"
        case .unknown:
            "set \(HaulProcess.binDirectoryVariable) to `swift build --show-bin-path`"
        }
    }
}
