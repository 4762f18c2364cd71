/// A usage or configuration error: printed as `haul: MESSAGE`, exit status 2.
struct UsageFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
