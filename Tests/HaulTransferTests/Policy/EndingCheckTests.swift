import HaulCore
import Testing
@testable import HaulTransfer

/// How an attempt goes on once a connection ended, decided without a network.
struct EndingCheckTests {
    let lied = DownloadError.invalidResponse(host: "h", detail: "the connection ended without a response")
    let refused = DownloadError.network(code: 7, message: "Couldn't connect", host: "h")

    @Test func aStoppedSingleStreamPauses() {
        #expect(EndingCheck.singleStream(phase: .receiving, state: .receiving, exit: .stopped, position: 5, total: 10, host: "h") == .paused)
    }

    @Test func aSingleStreamCompletesOnlyWithEveryByte() {
        #expect(EndingCheck.singleStream(phase: .receiving, state: .receiving, exit: .completed, position: 10, total: 10, host: "h") == .complete)
        #expect(EndingCheck.singleStream(phase: .receiving, state: .receiving, exit: .completed, position: 7, total: 10, host: "h")
            == .failed(.sizeMismatch(expected: 10, actual: 7)))
        // No announced length: the end of the body is the end of the file.
        #expect(EndingCheck.singleStream(phase: .receiving, state: .receiving, exit: .completed, position: 7, total: nil, host: "h") == .complete)
    }

    @Test func aFinishedTransferWithoutAnAcceptedHeadIsALie() {
        #expect(EndingCheck.singleStream(phase: .awaitingResponse, state: .awaitingResponse, exit: .completed, position: 0, total: nil, host: "h")
            == .failed(lied))
    }

    @Test func aFileThatWasCompleteEndsComplete() {
        #expect(EndingCheck.singleStream(phase: .alreadyComplete, state: .reachedEnd, exit: .completed, position: 10, total: 10, host: "h") == .complete)
    }

    @Test func theTasksFailureWinsOverTheConnectionsAndCurls() {
        let disk = DownloadError.diskFull(path: "/x")
        #expect(EndingCheck.singleStream(phase: .failed(disk), state: .failed(lied), exit: .failed(refused), position: 0, total: nil, host: "h")
            == .failed(disk))
        #expect(EndingCheck.range(phase: .failed(disk), state: .reachedEnd, exit: .completed, host: "h") == .conclude(.failed(disk)))
    }

    @Test func aConnectionsOwnFailureWinsOverCurls() {
        #expect(EndingCheck.singleStream(phase: .receiving, state: .failed(lied), exit: .failed(refused), position: 0, total: nil, host: "h")
            == .failed(lied))
        #expect(EndingCheck.range(phase: .receiving, state: .failed(lied), exit: .failed(refused), host: "h") == .failedRange(lied))
    }

    @Test func aRangeThatReachedItsEndOrWasStoppedIsFinished() {
        #expect(EndingCheck.range(phase: .receiving, state: .reachedEnd, exit: .stopped, host: "h") == .finishedRange)
        #expect(EndingCheck.range(phase: .receiving, state: .receiving, exit: .completed, host: "h") == .finishedRange)
    }

    @Test func aRangeCurlEndedFailsAlone() {
        #expect(EndingCheck.range(phase: .receiving, state: .receiving, exit: .failed(refused), host: "h") == .failedRange(refused))
        #expect(EndingCheck.range(phase: .receiving, state: .awaitingResponse, exit: .completed, host: "h") == .failedRange(lied))
    }

    @Test func aChangedFileOrIgnoredRangesEndTheAttempt() {
        #expect(EndingCheck.range(phase: .receiving, state: .fileChanged("etag"), exit: .stopped, host: "h")
            == .conclude(.fileChanged("etag")))
        #expect(EndingCheck.range(phase: .receiving, state: .rangesIgnored, exit: .completed, host: "h")
            == .conclude(.failed(.rangesIgnored(host: "h"))))
    }
}
