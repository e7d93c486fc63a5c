import DASH
import Foundation
import HLS
import Stitching

/// One `seam validate` run: the playlist, its renditions, and reloads over time.
struct ValidationRun {
    let loader: PlaylistLoader
    let liveDuration: Double
    let fetchRenditions: Bool
    /// Saved later copies of the media playlist, in order (`--reload`).
    var reloadSnapshots: [String] = []

    struct Outcome {
        var playlist: Playlist?
        var diagnostics: [PlaylistDiagnostic] = []
        var unreadable = false
        var checked: [String] = []
        var reloads = 0
        /// An MPD's findings (`MPDValidator`), or why it could not be read (rule `mpd-read`).
        var mpdFindings: [(severity: String, rule: String, path: String?, message: String)] = []
        var isMPD = false

        /// Errors among the playlist diagnostics and the MPD findings.
        var errorCount: Int {
            diagnostics.filter { $0.severity == .error }.count + mpdFindings.filter { $0.severity == "error" }.count
        }

        var summary: String {
            let errors = errorCount
            let warnings = diagnostics.count + mpdFindings.count - errors
            var text =
                isMPD ? "1 MPD checked" : "\(checked.count) playlist\(checked.count == 1 ? "" : "s") checked"
            if reloads > 0 { text += ", \(reloads) live reloads" }
            return text + ": \(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        }

        func jsonText() -> String {
            var findings: [[String: Any]] = diagnostics.map { d in
                var item: [String: Any] = [
                    "severity": d.severity.rawValue, "rule": d.rule.rawValue, "message": d.message,
                ]
                if let line = d.line { item["line"] = line }
                if let source = d.source { item["source"] = source }
                return item
            }
            for finding in mpdFindings {
                var item: [String: Any] = [
                    "severity": finding.severity, "rule": finding.rule, "message": finding.message,
                ]
                if let path = finding.path { item["path"] = path }
                if let source = checked.first { item["source"] = source }
                findings.append(item)
            }
            let errors = errorCount
            let object: [String: Any] = [
                "valid": errors == 0,
                "playlists": checked,
                "reloads": reloads,
                "errors": errors,
                "warnings": diagnostics.count + mpdFindings.count - errors,
                "findings": findings,
            ]
            let data =
                (try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys])) ?? Data()
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// Whether `text` is an MPD rather than a playlist: XML whose first element is `MPD` (with or
    /// without a namespace prefix).
    static func looksLikeMPD(_ text: String) -> Bool {
        var rest = text[...]
        while let open = rest.firstIndex(of: "<") {
            let after = rest[rest.index(after: open)...]
            if after.hasPrefix("?") || after.hasPrefix("!") {
                guard let close = after.firstIndex(of: ">") else { return false }
                rest = after[after.index(after: close)...]
                continue
            }
            let name = after.prefix { !$0.isWhitespace && $0 != ">" && $0 != "/" }
            return name == "MPD" || name.hasSuffix(":MPD")
        }
        return false
    }

    /// An MPD: read (its rules, with the element), then `MPDValidator`'s timing and addressing checks.
    func validateMPD(_ text: String, at location: String) -> Outcome {
        var outcome = Outcome()
        outcome.isMPD = true
        outcome.checked.append(location)
        do {
            let mpd = try MPD(parsing: text)
            outcome.mpdFindings = MPDValidator.check(mpd).map {
                ($0.severity.rawValue, $0.rule.rawValue, $0.path, $0.message)
            }
        } catch {
            outcome.unreadable = true
            outcome.mpdFindings = [("error", "mpd-read", nil, error.description)]
        }
        return outcome
    }

    /// Reloads a live MPD every `minimumUpdatePeriod` (1 to 10 s) until `liveDuration` has
    /// passed: each reload checked on its own (`MPDValidator.check`) and against the one before
    /// (`MPDValidator.checkReload`: periods that move, segments renumbered, the clock going back).
    /// A finding already reported is not repeated.
    func followLiveMPD(_ first: MPD, at location: String, outcome: inout Outcome) async {
        let started = Date()
        var previous = first
        var seen = Set(outcome.mpdFindings.map { "\($0.rule) \($0.path ?? "") \($0.message)" })
        let pause = min(10, max(1, first.minimumUpdatePeriod ?? 2))
        while Date().timeIntervalSince(started) < liveDuration {
            try? await Task.sleep(for: .seconds(pause))
            outcome.reloads += 1
            let current: MPD
            do {
                current = try MPD(parsing: try await loader.load(location))
            } catch {
                outcome.mpdFindings.append(("error", "mpd-read", nil, "reload \(outcome.reloads): \(error)"))
                continue
            }
            let findings = MPDValidator.check(current) + MPDValidator.checkReload(previous: previous, current: current)
            for finding in findings {
                let key = "\(finding.rule.rawValue) \(finding.path) \(finding.message)"
                guard seen.insert(key).inserted else { continue }
                outcome.mpdFindings.append(
                    (
                        finding.severity.rawValue, finding.rule.rawValue, finding.path,
                        "reload \(outcome.reloads): " + finding.message
                    ))
            }
            previous = current
            // Static, or dynamic with no minimumUpdatePeriod (a live presentation that ended): it will not change.
            if !current.isDynamic || current.minimumUpdatePeriod == nil { break }
        }
    }

    func validate(_ location: String) async -> Outcome {
        var outcome = Outcome()
        let text: String
        do {
            text = try await loader.load(location)
        } catch {
            outcome.unreadable = true
            outcome.diagnostics.append(
                PlaylistDiagnostic(.error, .renditionFetchFailed, line: nil, "\(error)", source: location))
            return outcome
        }
        if Self.looksLikeMPD(text) {
            var outcome = validateMPD(text, at: location)
            if liveDuration > 0, let mpd = try? MPD(parsing: text), mpd.isDynamic {
                await followLiveMPD(mpd, at: location, outcome: &outcome)
            }
            return outcome
        }
        let report = PlaylistValidator.validate(text, source: location)
        outcome.playlist = report.playlist
        outcome.diagnostics = report.diagnostics
        outcome.checked.append(location)
        guard let playlist = report.playlist else {
            outcome.unreadable = true
            return outcome
        }

        // The media playlists to follow: the playlist itself, or its renditions.
        var renditions: [(name: String, location: String, playlist: MediaPlaylist)] = []
        var iFrames: Set<String> = []
        switch playlist {
        case .media(let media):
            outcome.diagnostics += AdIDDecoration.check(media, source: location)
            renditions.append((location, location, media))
            if !reloadSnapshots.isEmpty {
                outcome.reloads = await checkSnapshots(
                    of: media, at: location, diagnostics: &outcome.diagnostics, checked: &outcome.checked)
                return outcome
            }
        case .multivariant(let multivariant):
            if !reloadSnapshots.isEmpty {
                outcome.diagnostics.append(
                    PlaylistDiagnostic(
                        .error, .mixedPlaylistKinds, line: nil,
                        "--reload takes saved copies of one media playlist; give a rendition's playlist, not the multivariant one",
                        source: location))
                return outcome
            }
            guard fetchRenditions else { return outcome }
            var locations: [String] = []
            for uri in multivariant.variants.map(\.uri) + multivariant.renditions.compactMap(\.uri)
                + multivariant.iFrameVariants.map(\.uri)
            {
                let resolved = PlaylistLoader.resolve(uri, against: location)
                if !locations.contains(resolved) { locations.append(resolved) }
            }
            for renditionLocation in locations {
                do {
                    let text = try await loader.load(renditionLocation)
                    let renditionReport = PlaylistValidator.validate(text, source: renditionLocation)
                    outcome.diagnostics += renditionReport.diagnostics
                    outcome.checked.append(renditionLocation)
                    if case .media(let media)? = renditionReport.playlist {
                        outcome.diagnostics += AdIDDecoration.check(media, source: renditionLocation)
                        renditions.append((renditionLocation, renditionLocation, media))
                    } else if renditionReport.playlist != nil {
                        outcome.diagnostics.append(
                            PlaylistDiagnostic(
                                .error, .mixedPlaylistKinds, line: nil,
                                "a multivariant playlist lists another multivariant playlist", source: renditionLocation
                            ))
                    }
                } catch {
                    outcome.diagnostics.append(
                        PlaylistDiagnostic(
                            .error, .renditionFetchFailed, line: nil, "\(error)", source: renditionLocation))
                }
            }
            // I-frame playlists have their own target durations; compare the others.
            let iFrameLocations = Set(
                multivariant.iFrameVariants.map { PlaylistLoader.resolve($0.uri, against: location) })
            let compared = renditions.filter { !iFrameLocations.contains($0.location) }
            var findings = RenditionSetValidator.check(compared.map { ($0.name, $0.playlist) })
            if !findings.isEmpty, compared.contains(where: { !$0.playlist.isFinished }) {
                // A second look, as while following live (`followLive`).
                let again = await fetchRound(compared.map { ($0.name, $0.location) })
                outcome.diagnostics += again.failures
                findings = RenditionSetValidator.check(again.byIndex.map { (compared[$0.index].name, $0.playlist) })
            }
            outcome.diagnostics += findings
            iFrames = iFrameLocations
        }

        let live = renditions.filter { !$0.playlist.isFinished }
        guard liveDuration > 0, !live.isEmpty else { return outcome }
        outcome.reloads = await followLive(live, iFrames: iFrames, diagnostics: &outcome.diagnostics)
        return outcome
    }

    /// The saved reloads (`--reload`): each checked on its own and against the one before it, as
    /// if fetched one target duration apart.
    private func checkSnapshots(
        of media: MediaPlaylist, at location: String,
        diagnostics: inout [PlaylistDiagnostic], checked: inout [String]
    ) async -> Int {
        var validator = LiveReloadValidator(source: location, checksWindowLength: true)
        validator.observe(media, at: 0)
        let step = Double(max(1, media.targetDuration))
        var count = 0
        for (index, snapshot) in reloadSnapshots.enumerated() {
            let text: String
            do {
                text = try await loader.load(snapshot)
            } catch {
                diagnostics.append(
                    PlaylistDiagnostic(.error, .renditionFetchFailed, line: nil, "\(error)", source: snapshot))
                continue
            }
            let report = PlaylistValidator.validate(text, source: snapshot)
            diagnostics += report.diagnostics
            checked.append(snapshot)
            guard case .media(let next)? = report.playlist else {
                if report.playlist != nil {
                    diagnostics.append(
                        PlaylistDiagnostic(
                            .error, .mixedPlaylistKinds, line: nil,
                            "--reload takes later copies of the same media playlist, this is a multivariant playlist",
                            source: snapshot))
                }
                continue
            }
            validator.observe(next, at: Double(index + 1) * step)
            count += 1
        }
        diagnostics += validator.diagnostics
        return count
    }

    /// Reloads every live rendition about twice per target duration until `liveDuration` has passed;
    /// `iFrames` (I-frame playlists, with their own target durations) are followed but not compared.
    private func followLive(
        _ renditions: [(name: String, location: String, playlist: MediaPlaylist)], iFrames: Set<String>,
        diagnostics: inout [PlaylistDiagnostic]
    ) async -> Int {
        let clock = ContinuousClock()
        let start = clock.now
        func elapsed() -> Double {
            let d = clock.now - start
            return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
        }
        var validators = renditions.map { LiveReloadValidator(source: $0.name, checksWindowLength: true) }
        for i in renditions.indices { validators[i].observe(renditions[i].playlist, at: 0) }
        let target = renditions.map(\.playlist.targetDuration).max() ?? 6
        let interval = max(0.5, Double(target) / 2)
        let sources = renditions.map { ($0.name, $0.location) }
        var seen = Set<String>()
        var reloads = 0
        func compared(_ round: Round) -> [(name: String, playlist: MediaPlaylist)] {
            round.byIndex.filter { !iFrames.contains(renditions[$0.index].location) }.map {
                (renditions[$0.index].name, $0.playlist)
            }
        }
        func observe(_ round: Round) {
            for (i, media) in round.byIndex { validators[i].observe(media, at: elapsed()) }
            for failure in round.failures where seen.insert("fetch \(failure.source ?? "") \(failure.message)").inserted
            {
                diagnostics.append(failure)
            }
        }
        while elapsed() < liveDuration {
            try? await Task.sleep(for: .milliseconds(Int(interval * 1000)))
            var round = await fetchRound(sources)
            observe(round)
            reloads += 1
            var findings = RenditionSetValidator.check(compared(round))
            if !findings.isEmpty {
                // Renditions are fetched one after another: a break decided (or a window moved)
                // between two fetches shows in one and not yet in the other. Fetched again at once,
                // they must agree; what still differs is reported.
                round = await fetchRound(sources)
                observe(round)
                findings = RenditionSetValidator.check(compared(round))
            }
            for diagnostic in findings {
                if seen.insert("\(diagnostic.source ?? "") \(diagnostic.message)").inserted {
                    diagnostics.append(
                        PlaylistDiagnostic(
                            diagnostic.severity, diagnostic.rule, line: nil,
                            "reload \(reloads): " + diagnostic.message, source: diagnostic.source))
                }
            }
        }
        for validator in validators { diagnostics += validator.diagnostics }
        return reloads
    }

    /// One fetch of every rendition, back to back, in order: the playlists read (by index in
    /// `sources`) and a `rendition-fetch-failed` finding for each that could not be.
    struct Round {
        var byIndex: [(index: Int, playlist: MediaPlaylist)] = []
        var failures: [PlaylistDiagnostic] = []
    }

    private func fetchRound(_ sources: [(name: String, location: String)]) async -> Round {
        var round = Round()
        for (index, source) in sources.enumerated() {
            do {
                let media = try MediaPlaylist(parsing: try await loader.load(source.location))
                round.byIndex.append((index, media))
            } catch {
                round.failures.append(
                    PlaylistDiagnostic(
                        .error, .renditionFetchFailed, line: nil,
                        "reload failed: \(error)", source: source.name))
            }
        }
        return round
    }
}
