import Testing

/// Records an issue when a file's bytes (nil when it is missing) differ from the expected ones,
/// saying where they first differ, instead of printing megabytes of numbers.
public func expectSameBytes(
    _ actual: [UInt8]?, _ expected: [UInt8], _ what: String = "file", sourceLocation: SourceLocation = #_sourceLocation
) {
    guard let actual else {
        Issue.record("\(what) is missing", sourceLocation: sourceLocation)
        return
    }
    guard actual != expected else { return }
    let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
    Issue.record(
        "\(what): \(actual.count) bytes, expected \(expected.count); first difference at byte \(firstDifference.map(String.init) ?? "(one is a prefix of the other)")",
        sourceLocation: sourceLocation)
}
