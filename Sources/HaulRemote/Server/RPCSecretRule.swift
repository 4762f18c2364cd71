/// What a TCP listener's secret must be: long enough that guessing it a second a guess is hopeless.
///
/// aria2 takes any `--rpc-secret`; a two-character one falls to a few thousand guesses. The secret haul makes
/// itself is 64 hex digits.
public enum RPCSecretRule {
    /// The fewest characters a secret may have.
    public static let minimumLength = 16

    /// Refuses a secret shorter than `minimumLength`, naming where it came from.
    public static func check(_ secret: String, from source: String) throws(RPCSecretTooShort) {
        guard secret.count >= minimumLength else { throw RPCSecretTooShort(source: source, length: secret.count) }
    }
}

/// A secret shorter than `RPCSecretRule.minimumLength`.
public struct RPCSecretTooShort: Error, CustomStringConvertible {
    /// Where the secret came from (the file, or the variable).
    public var source: String
    public var length: Int

    public var description: String {
        "the RPC secret in \(source) has \(length) characters; use at least \(RPCSecretRule.minimumLength)"
            + " (for example `openssl rand -hex 32`)"
    }
}
