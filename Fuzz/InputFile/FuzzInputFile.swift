import FuzzSupport
import HaulCore

/// An aria2-style input file (`-i`): every task it yields passed the one intake.
func fuzzInputFile(_ bytes: [UInt8]) {
    let intake = TaskIntake(defaultDirectory: "/nonexistent-haul-fuzz")
    guard let (tasks, _) = try? InputFile.parse(bytes, intake: intake) else { return }
    for task in tasks {
        FuzzInput.require((try? URLValidation.validate(task.url)) == task.url, "a task URL the intake would change: \(task.url)")
        for header in task.headers { FuzzInput.require((try? HeaderRule.check(header)) != nil, "a header the rule refuses") }
        if let name = task.requestedName { FuzzInput.require(SafeFileName.sanitize(name) == name, "unsafe out= \(name)") }
    }
}

@main enum Target {
    static func main() { FuzzInput.main(fuzzInputFile) }
}
