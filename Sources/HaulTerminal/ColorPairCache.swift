import CNcursesw
import HaulTUI

/// Turns theme styles into curses attributes and colour pairs, allocating a pair the first time a
/// foreground/background combination is used.
///
/// Colours degrade to what the terminal has: 24-bit colours go to the nearest of the 256-colour
/// palette, or of 16 or 8 colours; indexes above what the terminal has go the same way. On a
/// direct-colour terminal (COLORS = 2^24) RGB is passed through. Without colours only the attributes
/// (bold, dim, reverse, underline) remain. Lives on the key-loop thread with the session.
struct ColorPairCache {
    let colorCount: Int
    let pairLimit: Int
    let hasDefaultColors: Bool
    private var pairs: [PairKey: Int16] = [:]
    private var resolved: [Style: (attr_t, Int16)] = [:]

    private struct PairKey: Hashable {
        var foreground: Int32
        var background: Int32
    }

    init(hasColors: Bool, hasDefaultColors: Bool) {
        colorCount = hasColors ? Int(CNcursesw_colors()) : 0
        pairLimit = hasColors ? min(Int(CNcursesw_color_pairs()), Int(Int16.max)) : 0
        self.hasDefaultColors = hasDefaultColors
    }

    /// The attributes and pair number to draw `style` with.
    mutating func attributes(for style: Style) -> (attr_t, Int16) {
        if let known = resolved[style] { return known }
        var attributes: attr_t = 0
        if style.bold { attributes |= CNcursesw_attr_bold() }
        if style.dim { attributes |= CNcursesw_attr_dim() }
        if style.reverse { attributes |= CNcursesw_attr_reverse() }
        if style.underline { attributes |= CNcursesw_attr_underline() }
        let pair = pairNumber(foreground: style.foreground, background: style.background)
        resolved[style] = (attributes, pair)
        return (attributes, pair)
    }

    private mutating func pairNumber(foreground: ThemeColor, background: ThemeColor) -> Int16 {
        guard colorCount >= 8, pairLimit > 1 else { return 0 }
        let key = PairKey(foreground: terminalColor(foreground, isForeground: true), background: terminalColor(background, isForeground: false))
        if key.foreground == -1, key.background == -1 { return 0 }
        if let pair = pairs[key] { return pair }
        guard pairs.count + 1 < pairLimit else { return 0 }
        let pair = Int16(pairs.count + 1)
        guard init_extended_pair(Int32(pair), key.foreground, key.background) == OK else { return 0 }
        pairs[key] = pair
        return pair
    }

    /// The colour number for this terminal.
    func terminalColor(_ color: ThemeColor, isForeground: Bool) -> Int32 {
        switch color {
        case .terminalDefault:
            return hasDefaultColors ? -1 : (isForeground ? 7 : 0)
        case let .indexed(index):
            if colorCount >= 1 << 24 {
                // Direct colour: 0–7 are the ANSI colours, anything above is read as RGB.
                guard index >= 8 else { return Int32(index) }
                let (red, green, blue) = Palette.rgb(ofIndex: Int(index))
                return Int32(red) << 16 | Int32(green) << 8 | Int32(blue)
            }
            if Int(index) < colorCount { return Int32(index) }
            let (red, green, blue) = Palette.rgb(ofIndex: Int(index))
            return Int32(Palette.nearest(red, green, blue, among: colorCount))
        case let .rgb(red, green, blue):
            if colorCount >= 1 << 24 { return Int32(red) << 16 | Int32(green) << 8 | Int32(blue) }
            return Int32(Palette.nearest(red, green, blue, among: colorCount))
        }
    }
}

/// The xterm 256-colour palette, for degrading colours to what a terminal has.
enum Palette {
    /// The 16 ANSI colours as xterm draws them.
    static let ansi: [(UInt8, UInt8, UInt8)] = [
        (0, 0, 0), (205, 0, 0), (0, 205, 0), (205, 205, 0), (0, 0, 238), (205, 0, 205), (0, 205, 205), (229, 229, 229),
        (127, 127, 127), (255, 0, 0), (0, 255, 0), (255, 255, 0), (92, 92, 255), (255, 0, 255), (0, 255, 255), (255, 255, 255),
    ]
    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]

    static func rgb(ofIndex index: Int) -> (UInt8, UInt8, UInt8) {
        switch index {
        case ..<16: return ansi[max(0, index)]
        case 16..<232:
            let cube = index - 16
            return (cubeLevels[cube / 36], cubeLevels[cube / 6 % 6], cubeLevels[cube % 6])
        default:
            let level = UInt8(8 + (min(index, 255) - 232) * 10)
            return (level, level, level)
        }
    }

    /// The palette index nearest to an RGB colour among the first `count` colours (8, 16 or 256).
    static func nearest(_ red: UInt8, _ green: UInt8, _ blue: UInt8, among count: Int) -> Int {
        let limit = count >= 256 ? 256 : (count >= 16 ? 16 : 8)
        if limit == 256 {
            // Only the cube and the grey ramp: indexes 0–15 vary between terminals.
            var best = 16
            var bestDistance = Int.max
            for index in 16..<256 {
                let distance = Self.distance(rgb(ofIndex: index), (red, green, blue))
                if distance < bestDistance { (best, bestDistance) = (index, distance) }
            }
            return best
        }
        var best = 0
        var bestDistance = Int.max
        for index in 0..<limit {
            let distance = Self.distance(ansi[index], (red, green, blue))
            if distance < bestDistance { (best, bestDistance) = (index, distance) }
        }
        return best
    }

    static func distance(_ a: (UInt8, UInt8, UInt8), _ b: (UInt8, UInt8, UInt8)) -> Int {
        let red = Int(a.0) - Int(b.0), green = Int(a.1) - Int(b.1), blue = Int(a.2) - Int(b.2)
        // Weighted for the eye: green counts most, blue least.
        return 2 * red * red + 4 * green * green + 3 * blue * blue
    }
}
