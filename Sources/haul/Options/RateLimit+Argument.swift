import ArgumentParser
import HaulCore

extension RateLimit {
    /// A rate typed on the command line (nil for `0`); the core's message as a usage error.
    static func parseArgument(_ text: String, option: String? = nil) throws(ValidationError) -> RateLimit? {
        do {
            return try parse(text, option: option)
        } catch {
            throw ValidationError(error.description)
        }
    }
}
