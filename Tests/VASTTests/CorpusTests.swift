import Foundation
import Testing
@testable import VAST

/// Every file of the shared VAST/VMAP corpus (see `shared/corpus/SOURCES.md`), read in place.
enum Corpus {
    /// `shared/corpus/vast`, found beside the package (CI) or at `/work/shared` (development), or
    /// named by `SEAM_CORPUS_DIR` (the folder that holds `vast/`).
    static let directory: URL? = {
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var candidates: [URL] = []
        if let override = ProcessInfo.processInfo.environment["SEAM_CORPUS_DIR"] {
            candidates.append(URL(fileURLWithPath: override).appendingPathComponent("vast"))
        }
        candidates.append(packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/vast"))
        candidates.append(URL(fileURLWithPath: "/work/shared/corpus/vast"))
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }()

    static func xmlFiles() -> [URL] {
        guard let directory, let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
        else { return [] }
        return walker.compactMap { $0 as? URL }.filter { $0.pathExtension == "xml" }.sorted { $0.path < $1.path }
    }

    static func relativePath(_ url: URL) -> String {
        guard let directory else { return url.path }
        return String(url.path.dropFirst(directory.path.count + 1))
    }
}

@Suite(
    "Shared corpus",
    .enabled(if: Corpus.directory != nil, "shared/corpus/vast not found: set SEAM_CORPUS_DIR to run the corpus tests"))
struct CorpusTests {
    @Test("every VAST file parses, or is refused with the typed error it deserves")
    func everyVASTFile() throws {
        let files = Corpus.xmlFiles().filter { !Corpus.relativePath($0).hasPrefix("dailymotion/vmap-js/") }
        #expect(files.count == 91)
        var parsed = 0
        var vast1 = 0
        var totalAds = 0, expectedAds = 0, totalMediaFiles = 0, expectedMediaFiles = 0, totalDurations = 0
        for file in files {
            let name = Corpus.relativePath(file)
            let bytes = [UInt8](try Data(contentsOf: file))
            let text = String(decoding: bytes, as: UTF8.self)
            switch Result(catching: { () throws(VASTParseError) in try VASTParser().parse(bytes) }) {
            case .success(let document):
                parsed += 1
                #expect(
                    document.version.map { ["2.0", "3.0", "4.0", "4.1", "4.2", "4.3"].contains($0) } == true, "\(name)")
                totalAds += document.ads.count
                expectedAds += occurrences(of: ["<Ad>", "<Ad "], in: text)
                totalMediaFiles += document.ads.flatMap(\.linears).reduce(0) { $0 + $1.mediaFiles.count }
                expectedMediaFiles += occurrences(of: ["<MediaFile "], in: text)
                for ad in document.ads {
                    if let wrapper = ad.wrapper {
                        #expect(wrapper.vastAdTagURI?.isEmpty == false, "\(name): wrapper without tag URI")
                    }
                }
                // Every <Duration> element (they only occur in Linear) was read.
                let durations = document.ads.flatMap(\.linears).filter { $0.duration != nil }.count
                #expect(durations == occurrences(of: ["<Duration>"], in: text), "\(name): unread Duration")
                totalDurations += durations
            case .failure(.unsupportedVersion(let version, _)):
                #expect(text.contains("<VideoAdServingTemplate"), "\(name): refused version \(version)")
                vast1 += 1
            case .failure(let error):
                #expect(name == "dailymotion/vast-client-js/invalid-xmlfile.xml", "\(name): \(error)")
                #expect(error.vastErrorCode == .xmlParsingError)
            }
        }
        #expect(parsed == 83)
        #expect(vast1 == 7)
        #expect(totalAds == expectedAds)
        #expect(totalMediaFiles == expectedMediaFiles)
        #expect(totalAds > 80 && totalMediaFiles > 100 && totalDurations > 50)
    }

    @Test("every VMAP file parses or is refused for its root element")
    func everyVMAPFile() throws {
        let files = Corpus.xmlFiles().filter { Corpus.relativePath($0).hasPrefix("dailymotion/vmap-js/") }
        #expect(files.count == 4)
        var outcomes: [String: String] = [:]
        for file in files {
            let bytes = [UInt8](try Data(contentsOf: file))
            let result = Result { () throws(VASTParseError) in try VMAPParser().parse(bytes) }
            switch result {
            case .success(let document): outcomes[file.lastPathComponent] = "\(document.adBreaks.count) breaks"
            case .failure(let error): outcomes[file.lastPathComponent] = "\(error.vastErrorCode.rawValue)"
            }
        }
        #expect(
            outcomes == [
                "correct-vmap.xml": "3 breaks",
                "correct-vmap-with-extension.xml": "1 breaks",
                "incorrect-vmap.xml": "101",
                "parsing-example.xml": "101",
            ])
    }

    private func occurrences(of needles: [String], in text: String) -> Int {
        needles.reduce(0) { $0 + text.components(separatedBy: $1).count - 1 }
    }
}
