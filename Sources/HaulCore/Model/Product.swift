/// haul's name and version, as `--version`, requests and RPC clients show them.
public enum Product {
    public static let version = "0.1.0"
    /// The `User-Agent` haul sends when none is given.
    public static let userAgent = "haul/0.1"
}
