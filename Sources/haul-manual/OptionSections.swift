import HaulCore

/// How OPTIONS groups a run's options (`OptionSection`), each group's in the order `haul run --help` gives them. An
/// option in no group lands in "Other options", and `ManualTests` fails on it.
enum OptionSections {
    static let otherTitle = "Other options"

    /// `options` in groups, in `OptionSection`'s order; the unplaced ones last.
    static func grouped(_ options: [ArgumentDump]) -> [(title: String, options: [ArgumentDump])] {
        var groups = OptionSection.allCases.map { section in
            (title: section.title, options: options.filter { $0.longName.flatMap(OptionSection.of) == section })
        }
        let others = options.filter { $0.longName.flatMap(OptionSection.of) == nil }
        if !others.isEmpty { groups.append((otherTitle, others)) }
        return groups.filter { !$0.options.isEmpty }
    }
}
