import ArgumentParser
import Foundation
import HaulCore

/// THE conversion of any error a command ends with into what haul prints and the status it exits with.
struct FailureReport: Equatable {
    /// Where the text goes: help and version (which ArgumentParser reports as errors) to stdout, the rest to stderr.
    enum Stream: Equatable {
        case standardOutput, standardError
    }

    /// The lines to print, without the `haul: ` prefix; empty for none.
    var text: String
    var stream: Stream
    var status: Int32

    /// `help` names the help that documents what ran (`haul schedule --help`); usage errors end by pointing to it.
    init(_ error: any Error, help: String = "haul --help") {
        switch error {
        case let code as ExitCode:
            self.init(text: "", stream: .standardError, status: code.rawValue)
        case let failure as CommandFailure:
            self.init(text: failure.message, stream: .standardError, status: failure.exitStatus.rawValue)
        default:
            // ArgumentParser's own errors: help and version succeed; parsing and validation are usage errors;
            // any other error thrown while a command ran is a failure to carry it out.
            switch Haul.exitCode(for: error) {
            case .success:
                self.init(text: Haul.fullMessage(for: error), stream: .standardOutput, status: ExitStatus.success.rawValue)
            case .validationFailure:
                self.init(
                    text: Haul.message(for: error) + "\n(see `\(help)`)", stream: .standardError,
                    status: ExitStatus.usage.rawValue)
            default:
                self.init(text: Haul.message(for: error), stream: .standardError, status: ExitStatus.commandFailed.rawValue)
            }
        }
    }

    init(text: String, stream: Stream, status: Int32) {
        self.text = text
        self.stream = stream
        self.status = status
    }

    /// Prints the text (a message on stderr as `haul: TEXT`) and exits with the status.
    func exit() -> Never {
        if !text.isEmpty {
            switch stream {
            case .standardOutput: print(text)
            case .standardError: note(text)
            }
        }
        ProcessExit.now(status)
    }
}
