import Foundation

/// What every fuzz target shares: its input as bytes, and the replay of saved inputs.
///
/// A target is one function from bytes to nothing that traps on a broken invariant. Built with
/// `-sanitize=fuzzer,address -DFUZZING` (`make fuzz`), libFuzzer calls it through `LLVMFuzzerTestOneInput`;
/// built normally, the same executable replays the files or directories given on its command line (the
/// committed corpus and crash reproducers), which `make test` does.
public enum FuzzInput {
    /// The bytes libFuzzer hands over.
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Runs `body` on every file named on the command line (a directory: every file in it); exits 1 when a
    /// path cannot be read, and prints how many inputs ran.
    public static func replay(_ body: ([UInt8]) -> Void) {
        var count = 0
        for path in CommandLine.arguments.dropFirst() {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("no such input: \(path)\n".utf8))
                exit(1)
            }
            let files = isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                body(Array(data))
                count += 1
            }
        }
        print("replayed \(count) inputs")
    }

    /// The target's entry point: under `-DFUZZING` hands `body` to libFuzzer's driver with the command line
    /// (`-max_total_time`, corpus directories, ...); otherwise replays the files and directories named on it.
    public static func main(_ body: @escaping ([UInt8]) -> Void) -> Never {
        #if FUZZING
        target = body
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            FuzzInput.target?(FuzzInput.bytes(data, size))
            return 0
        })
        #else
        replay(body)
        exit(0)
        #endif
    }

    #if FUZZING
    /// The function libFuzzer's callback runs. Set once in `main` before the driver starts, then only read, on
    /// the one thread the driver calls back on.
    nonisolated(unsafe) static var target: (([UInt8]) -> Void)?
    #endif

    /// Traps with `message` when `condition` is false: a broken invariant is a crash libFuzzer keeps.
    public static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }
}

#if FUZZING
/// libFuzzer's driver (`-sanitize=fuzzer` links it): runs the fuzzing loop with the process's arguments.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<Int32>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
) -> Int32
#endif
