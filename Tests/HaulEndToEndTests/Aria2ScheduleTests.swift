import Foundation
import HaulTestSupport
import Testing

extension Aria2Conformance {
    /// The schedule over JSON-RPC (`haul.getSchedule`, `haul.changeSchedule`, `haul.suspendSchedule`, with the
    /// secret), as `haul schedule` and the list's `z` key change it (DESIGN §10).
    @Suite(.timeLimit(.minutes(2)), .enabled(if: RPCClient.pythonClientsAvailable, "python3 with websocket-client is not installed"))
    struct Aria2ScheduleTests {
        /// A run window of an hour that starts two hours from now (local time): the queue is held now.
        static func laterWindow() -> String {
            let calendar = Calendar.current
            let start = calendar.component(.hour, from: Date().addingTimeInterval(2 * 3600))
            return String(format: "%02d:00-%02d:00", start, (start + 1) % 24)
        }

        @Test func aClientSetsShowsSuspendsAndClearsTheSchedule() async throws {
            let run = try HaulRun()
            let haul = try await Aria2Haul.start(run)
            defer { haul.process?.kill() }
            let empty = try #require(try await haul.result("haul.getSchedule") as? [String: Any])
            #expect(empty["runs"] as? [String] == [] && empty["now"] as? String == "no schedule", "\(empty)")

            let window = Self.laterWindow()
            #expect(try await haul.result("haul.changeSchedule", [["runs": [window], "caps": ["08:00-18:00=1M"]]]) as? String == "OK")
            let set = try await eventuallyValue("the schedule holds the queue", timeout: .seconds(10)) { () async -> [String: Any]? in
                guard let answer = try? await haul.result("haul.getSchedule") as? [String: Any],
                      (answer["now"] as? String)?.hasPrefix("scheduled: resumes at") == true else { return nil }
                return answer
            }
            #expect(set["runs"] as? [String] == [window], "\(set)")
            #expect((set["caps"] as? [String])?.count == 1, "\(set)")
            // The schedule is the queue's: `haul schedule` reads the same windows from the database.
            let (status, out, _) = try await run.run(["schedule"])
            #expect(status == 0 && out.contains(window), "\(out)")

            #expect(try await haul.result("haul.suspendSchedule", [true]) as? String == "OK")
            let suspended = try await eventuallyValue("suspended", timeout: .seconds(10)) { () async -> [String: Any]? in
                guard let answer = try? await haul.result("haul.getSchedule") as? [String: Any], answer["suspended"] as? Bool == true else { return nil }
                return answer
            }
            #expect(suspended["runs"] as? [String] == [window])

            // A window that does not read is refused naming it, and nothing changes.
            let bad = try await haul.call("haul.changeSchedule", [["runs": ["25:00-26:00"]]])
            #expect(bad.object?["error"] != nil && bad.body.contains("25:00"), "\(bad.body)")
            #expect((try await haul.result("haul.getSchedule") as? [String: Any])?["runs"] as? [String] == [window])
            // Without the secret: refused.
            let anonymous = try await haul.call("haul.getSchedule", token: false)
            #expect(anonymous.object?["error"] != nil, "\(anonymous.body)")

            #expect(try await haul.result("haul.changeSchedule", [[String: Any]()]) as? String == "OK")
            let cleared = try #require(try await haul.result("haul.getSchedule") as? [String: Any])
            #expect(cleared["runs"] as? [String] == [] && cleared["caps"] as? [String] == [], "\(cleared)")
        }
    }
}
