/// Whether a file's bytes (nil when it is missing) equal the expected ones; a Bool, so a failed
/// expectation prints one line instead of megabytes of numbers.
public func same(_ actual: [UInt8]?, _ expected: [UInt8]) -> Bool {
    actual == expected
}
