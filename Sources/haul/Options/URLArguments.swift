import ArgumentParser

/// The links a command downloads or queues (`haul URL…`, `haul add URL…`, `haul daemon URL…`): apart from the run
/// options, so `haul config`, which takes those options but no links, does not list them in its help.
struct URLArguments: ParsableArguments {
    @Argument(help: "http(s) URLs to download.")
    var urls: [String] = []
}
