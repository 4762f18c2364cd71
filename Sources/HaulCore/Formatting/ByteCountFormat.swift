/// Sizes and rates as short, locale-independent text in binary units (KiB, MiB…): `552.0M`, `4.1 MiB/s`.
public enum ByteCountFormat {
    static let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"]

    /// `1.5 GiB`, `812 B`.
    public static func size(_ bytes: Int64) -> String {
        let (value, unit) = scaled(Double(bytes))
        return unit == 0 ? "\(bytes) B" : "\(oneDecimal(value)) \(units[unit])"
    }

    /// Compact form for table columns: `552.0M`, `1.0G`, `812B`.
    public static func compact(_ bytes: Int64) -> String {
        let (value, unit) = scaled(Double(bytes))
        return unit == 0 ? "\(bytes)B" : "\(oneDecimal(value))\(units[unit].prefix(1))"
    }

    /// `4.1 MiB/s`; `—` when unknown.
    public static func rate(_ bytesPerSecond: Double?) -> String {
        guard let bytesPerSecond, bytesPerSecond.isFinite, bytesPerSecond >= 0 else { return "—" }
        let (value, unit) = scaled(bytesPerSecond)
        return unit == 0 ? "\(Int(bytesPerSecond)) B/s" : "\(oneDecimal(value)) \(units[unit])/s"
    }

    /// A bit rate as a playlist states it (`BANDWIDTH`, 1000-based): `800 kbit/s`, `2.5 Mbit/s`.
    public static func bitRate(_ bitsPerSecond: Int64) -> String {
        let value = Double(max(0, bitsPerSecond))
        if value >= 1_000_000 { return "\(oneDecimal(value / 1_000_000)) Mbit/s" }
        if value >= 1000 { return "\(Int((value / 1000).rounded())) kbit/s" }
        return "\(Int(value)) bit/s"
    }

    static func scaled(_ value: Double) -> (Double, Int) {
        var value = value
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        // 1023.96 KiB rounds to "1024.0": show it as the next unit instead.
        if unit > 0, unit < units.count - 1, (value * 10).rounded() >= 10240 {
            value /= 1024
            unit += 1
        }
        return (value, unit)
    }

    static func oneDecimal(_ value: Double) -> String {
        let tenths = (value * 10).clampedInt64()
        return "\(tenths / 10).\(tenths % 10)"
    }
}
