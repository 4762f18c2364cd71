import Foundation
import HaulStore
import Testing

@Suite("State directory")
struct StateDirectoryTests {
    @Test("an explicit path wins; relative paths and ~ are made absolute")
    func explicit() throws {
        let env = ["HOME": "/home/u", "XDG_STATE_HOME": "/xdg"]
        #expect(try StateDirectory(explicitPath: "/srv/q/", environment: env, currentDirectory: "/cwd").path == "/srv/q")
        #expect(try StateDirectory(explicitPath: "q/../state", environment: env, currentDirectory: "/cwd").path == "/cwd/state")
        #expect(try StateDirectory(explicitPath: "~/q", environment: env, currentDirectory: "/cwd").path == "/home/u/q")
    }

    @Test("without one, $XDG_STATE_HOME/haul, else ~/.local/state/haul")
    func fallbacks() throws {
        let xdg = try StateDirectory(explicitPath: nil, environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/xdg"])
        #expect(xdg.path == "/xdg/haul")
        #expect(xdg.databasePath == "/xdg/haul/haul.sqlite")
        #expect(xdg.lockPath == "/xdg/haul/haul.lock")
        #expect(try StateDirectory(explicitPath: nil, environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/haul")
        #expect(try StateDirectory(explicitPath: "", environment: ["HOME": "/home/u"]).path == "/home/u/.local/state/haul")
        // The XDG spec says to ignore a relative XDG_STATE_HOME.
        let relative = try StateDirectory(explicitPath: nil, environment: ["HOME": "/home/u", "XDG_STATE_HOME": "state"])
        #expect(relative.path == "/home/u/.local/state/haul")
    }

    @Test("create makes missing parents with mode 0700 and accepts an existing directory")
    func create() throws {
        let scratch = try ScratchDirectory()
        let directory = try StateDirectory(explicitPath: scratch.file("a/b/haul"))
        try directory.create()
        try directory.create()
        for path in [scratch.file("a"), scratch.file("a/b"), directory.path] {
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700, "\(path)")
            #expect(attributes[.type] as? FileAttributeType == .typeDirectory)
        }
    }

    @Test("a file in the way is reported by path")
    func notADirectory() throws {
        let scratch = try ScratchDirectory()
        let blocker = scratch.file("file")
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data("x".utf8)))
        let directory = try StateDirectory(explicitPath: blocker + "/haul")
        #expect(throws: StateDirectoryError.notADirectory(path: blocker)) { try directory.create() }
        #expect(StateDirectoryError.notADirectory(path: blocker).description.contains(blocker))
    }
}
