import HaulCore

/// Response heads: the first answer decides the name, the total and the validators, and whether the file
/// is split; a range answer must agree with them (`ResumeCheck`, `RangeCheck`).
extension ActiveTransfer {
    /// A connection's final response head arrived (transfer thread, inside curl_multi_perform).
    func accept(_ head: ResponseHead, on connection: Connection) {
        let link = connection.link
        if link.isMain, effectiveURL == nil {
            effectiveURL = connection.easy.effectiveURL
            originReach = connection.easy.primaryAddress.flatMap(AddressReach.init(address:))
        }
        if !link.isMain, link.effectiveURL == nil { link.effectiveURL = connection.easy.effectiveURL }
        // 0 on a reused connection: the largest seen stands for the server's distance.
        if let micros = connection.easy.connectMicroseconds, micros > 0 {
            link.planner.sawConnect(seconds: Double(micros) / 1_000_000)
        }
        switch connection.role {
        case .first: acceptFirst(head, on: connection)
        case .range: acceptRange(head, on: connection)
        }
    }

    private func acceptFirst(_ head: ResponseHead, on connection: Connection) {
        let link = connection.link
        if head.status == 200, mayBePage(link), WebPageAnswer.isPage(contentType: head["content-type"]) {
            // A web page (DESIGN §11): yt-dlp is asked what video it holds, unless there is none to ask or the link is
            // already a video found on a page; then the page is kept as the file it is.
            if request.options.extractsPages, request.page == nil { return failFirst(connection, .webPage) }
            answeredWebPage = true
        }
        if head.status == 200, mayBecomeStream(link),
           StreamManifest.kind(prefix: [UInt8](), contentType: head["content-type"]) != nil {
            // An HLS playlist: gathered in memory, no file.
            playlistCapture = []
            phase = .receiving
            connection.state = .receiving
            return
        }
        // A mirror asked after the main link failed has validators of its own, unknown yet.
        let verdict = ResumeCheck.verdict(
            head: head, requestedOffset: requestedOffset, expectedTotal: request.expectedTotal,
            storedValidators: link.isMain ? request.validators : RemoteValidators(), host: link.host,
            newLink: link.isMain ? newLink : nil)
        var restartReason: String?
        do throws(DownloadError) {
            switch verdict {
            case let .append(offset, total):
                position = offset
                self.total = total
            case let .restart(total, reason):
                // Before a part file is made for it: a file that cannot fit leaves no empty NAME.part behind.
                if writer == nil, let total { try directory.checkFreeSpace(for: request, needed: total) }
                try startOver(head)
                self.total = total
                restartReason = reason
            case let .alreadyComplete(total):
                self.total = total
                phase = .alreadyComplete
                connection.state = .reachedEnd
                return
            case let .reject(error):
                return failFirst(connection, error)
            case let .discardAndRetry(error):
                if writer != nil { try startOver(head) }
                return failFirst(connection, error)
            }
            if let total { try directory.checkFreeSpace(for: request, needed: total - position) }
        } catch {
            return failFirst(connection, error)
        }
        phase = .receiving
        connection.state = .receiving
        connection.cursor = position
        if link.isMain {
            validators = head.validators(from: link.host)
            newLink = nil
        } else {
            // The task keeps the main link's validators; the mirror's are its own.
            link.validators = head.validators(from: link.host)
            link.answered = true
        }
        // A fresh answer that may still be a playlist is reported once its first bytes tell (`takePlaylist`): the
        // kind is decided once.
        if mayBecomeStream(link) {
            heldReport = HeldReport(status: head.status, restartReason: restartReason)
        } else {
            reportResponse(status: head.status, restartReason: restartReason)
        }
        // -s applies to each link: with mirrors even -s 1 means a connection on each.
        if request.options.split > 1 || links.count > 1,
           RangeCheck.allowsSplitting(head: head, total: total, from: position, minSplit: request.options.minSplitSize) {
            // Planned by the engine loop, after this callback (`advance`).
            splitFrom = connection
        }
    }

    private func failFirst(_ connection: Connection, _ error: DownloadError) {
        connection.state = .failed(error)
        phase = .failed(error)
    }

    private func acceptRange(_ head: ResponseHead, on connection: Connection) {
        guard let total else { return connection.state = .failed(.inconsistentTransfer("no total for a range request")) }
        let link = connection.link
        // A dropped link's answers are not used; each link's are checked against its own validators.
        guard link.isLive else { return connection.state = .reachedEnd }
        let agreement = LinkAgreement.verdict(
            head: head, requested: connection.requested, total: total, validators: link.isMain ? validators : link.validators,
            host: link.host, othersLive: othersLive(than: link), newLink: link.isMain ? newLink : nil,
            main: link.isMain || link.answered ? nil : validators)
        guard case let .keep(verdict) = agreement else {
            if case let .drop(reason) = agreement { drop(link, reason: reason) }
            return connection.state = .reachedEnd
        }
        switch verdict {
        case let .accept(end):
            // Its range is taken for good: the connection it was cut from stops at the cut.
            if let holder = connection.lease.flatMap({ ledger?.lease(before: $0) }) { releaseHold(of: holder) }
            if link.isMain, newLink != nil {
                // The replaced link serves the same file: its validators are the file's from now on.
                validators = head.validators(from: link.host)
                newLink = nil
            }
            connection.state = .receiving
            connection.end = min(connection.end ?? end, end)
            if !responded {
                phase = .receiving
                reportResponse(status: head.status, restartReason: nil)
            }
            if !link.isMain, !link.answered {
                // A mirror's first answer: its validators are the ones its later answers must repeat.
                link.validators = head.validators(from: link.host)
                link.answered = true
                // Its ranges count once its sample agreed (`judgeSample`).
                if link.sampleAgreed { grownLinks.append(link) }
            }
        case .ignoresRanges:
            connection.state = .rangesIgnored
        case let .changed(reason):
            connection.state = .fileChanged(reason)
        case let .reject(error):
            connection.state = .failed(error)
        case let .refuse(error):
            connection.state = .failed(error)
            phase = .failed(error)
        }
    }

    func reportResponse(status: Int, restartReason: String?) {
        guard let fileName else { return }
        responded = true
        emit(.responded(request.id, ResponseSummary(
            fileName: fileName, totalBytes: total, validators: validators, offset: ledger?.committedBytes ?? position,
            restartReason: restartReason, httpStatus: status, directory: category?.directory, category: category?.category,
            webPage: answeredWebPage)))
    }

    /// Empties the part file (reserving one first when the name is not decided yet); records 0 durable bytes.
    /// A part file `-c` took from the final name is not emptied: it goes back there, and a fresh one is reserved.
    private func startOver(_ head: ResponseHead) throws(DownloadError) {
        if let writer, let fileName, request.requestOptions.continuesPartialFile == true, epoch == 0, !responded {
            partsInUse.paths.remove(writer.path)
            writer.close()
            self.writer = nil
            do throws(PartialAdoption.MoveError) {
                try PartialAdoption.giveBack(directory: directory.path, fileName: fileName)
            } catch {
                throw error.downloadError
            }
        }
        if let writer {
            try writer.truncate(to: 0)
        } else {
            try chooseDirectory(contentType: head["content-type"])
            let name = FileNameChoice.choose(
                requested: request.requestedName, contentDisposition: head["content-disposition"], url: request.url,
                effectiveURL: { self.effectiveURL })
            let (reserved, writer) = try directory.reservePart(
                for: name, inUse: partsInUse.paths, heldElsewhere: request.namesHeldElsewhere,
                replacing: request.requestOptions.allowOverwrite == true, tag: PartOwnerTag(request))
            hold(writer, name: reserved)
        }
        epoch += 1
        position = 0
        // Recording 0 needs no sync: the database may never claim more than the file holds.
        if durable != 0 || request.resumeFrom != 0 { emit(.checkpoint(request.id, durableBytes: 0)) }
        durable = 0
    }

    // MARK: - Splitting (DESIGN §7)

    /// The first answer allows several connections: have the file allocated, cut the rest into ranges, stop
    /// the first connection and open one for each other range (the first range's opens when it has closed).
    func split(from first: Connection) {
        guard let total else { return }
        let prefix = position
        guard writer != nil, let layout = SegmentLedger(
            total: total, segments: prefix > 0 ? [SegmentRecord(start: 0, end: prefix, committed: prefix)] : [])
        else { return }
        // Off this thread: allocating takes a while where it really reserves blocks (0.3 s a GiB on tmpfs),
        // and the connections need not wait for it.
        pendingAllocation = total
        // The first connection is counted already; the others (on every link) only where the host has room.
        ledger = layout
        let planned = planLinks(first: first.link)
        guard let head = planned.first?.lease, head.range.lowerBound == prefix else {
            self.ledger = nil
            pendingAllocation = nil
            return
        }
        // The first connection goes on as the first range's: its request runs to the end of the file, so it
        // stops at its range's end (what is on its way then is lost, as at any cut), one request fewer.
        first.lease = head.id
        first.end = head.range.upperBound
        track(head.id)
        for (lease, link) in planned.dropFirst() {
            openRange(lease.id, from: lease.range.lowerBound, to: lease.range.upperBound, on: link)
        }
        if first.link.isMain { sampleWindow = OverlapSample.window(start: head.range.lowerBound, rangeEnd: head.range.upperBound) }
        openSamples()
        // The layout becomes the truth about the file once the file is allocated (`layoutAllocated`).
    }

    /// The file size to allocate, once, after the split.
    func takeAllocation() -> (writer: FileWriter, length: Int64)? {
        defer { pendingAllocation = nil }
        guard let length = pendingAllocation, let writer else { return nil }
        return (writer, length)
    }

    /// The part file is allocated at full size: from now on the layout is the truth about the file, so it
    /// is recorded (the prefix is durable already).
    func allocated() {
        guard let ledger else { return }
        emit(.segmentCheckpoint(request.id, ledger.records, durableBytes: ledger.committedBytes))
    }
}
