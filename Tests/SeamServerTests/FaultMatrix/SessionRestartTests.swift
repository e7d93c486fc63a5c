import Foundation
import HLS
import Hummingbird
import HummingbirdTesting
import Testing
@testable import SeamServer

#if canImport(Glibc)
    import Glibc
#endif

/// After a restart (a new instance, empty in-memory store, same secret), the ids Seam issued
/// before answer `410 SESSION_EXPIRED` with the restart message; ids it never issued, forged or
/// not, answer `404`.
@Suite struct SessionRestartTests {
    static let restartMessage = "Seam restarted or the session expired; start playback again"

    /// The URLs a player holds for one VOD session, created on a first instance.
    struct OldSession {
        var id: String
        var master: String
        var media: String
        var tracking: String
        var adSegment: String
        var keepalive: String
        var delete: String
    }

    func createSession(on app: some ApplicationProtocol) async throws -> OldSession {
        try await app.test(.router) { client in
            let created = try await client.call("/v1/sessions", method: .post, json: ["url": FaultMatrixOrigin.vodURL])
            #expect(created.status == 201, "\(created.body)")
            let id = try #require(created.json["sessionId"] as? String)
            let master = try #require(created.json["manifestUrl"] as? String)
            let tracking = try #require(created.json["trackingUrl"] as? String)
            let multivariant = try MultivariantPlaylist(parsing: try await client.call(master).body)
            let media = try #require(multivariant.variants.first?.uri)
            #expect(try await client.call(media).status == 200)
            #expect(try await client.call(tracking).status == 200)
            let base = "/v1/sessions/\(id)"
            return OldSession(
                id: id, master: master, media: media, tracking: tracking, adSegment: base + "/ad/0/0/v0/0.ts",
                keepalive: base + "/keepalive", delete: base)
        }
    }

    func expectGone(_ answer: FaultMatrixApp.Answer, _ what: String) {
        #expect(answer.status == 410, "\(what): \(answer.status) \(answer.body)")
        #expect(answer.errorCode == "SESSION_EXPIRED", "\(what): \(answer.body)")
        #expect(answer.errorMessage?.contains(Self.restartMessage) == true, "\(what): \(answer.body)")
    }

    func expectNotFound(_ answer: FaultMatrixApp.Answer, _ what: String) {
        #expect(answer.status == 404, "\(what): \(answer.status) \(answer.body)")
        #expect(answer.errorCode == "SESSION_NOT_FOUND", "\(what): \(answer.body)")
    }

    /// Every session URL of `id`, each with the method a player uses.
    func urls(_ session: OldSession) -> [(String, HTTPRequest.Method)] {
        [
            (session.master, .get), (session.media, .get), (session.tracking, .get), (session.adSegment, .get),
            (session.keepalive, .post), (session.delete, .delete),
        ]
    }

    /// `id` with the character at `index` changed.
    func altered(_ id: String, at index: Int) -> String {
        var characters = Array(id)
        characters[index] = characters[index] == "a" ? "b" : "a"
        return String(characters)
    }

    @Test(
        "A restarted Seam with the same sessions.idSecret: 410 with the restart message for old ids, 404 for ids it never issued or forged ones"
    )
    func restartWithConfiguredSecret() async throws {
        var configuration = SeamConfiguration()
        configuration.sessions.idSecret = SessionIDKey.randomSecret()
        let origin = FaultMatrixOrigin()
        let old = try await createSession(on: FaultMatrixApp.make(configuration, upstream: origin))

        let restarted = try FaultMatrixApp.make(configuration, upstream: origin)
        try await restarted.test(.router) { client in
            for (url, method) in urls(old) {
                expectGone(try await client.call(url, method: method), "\(method) \(url)")
            }
            // Well formed, never issued here (another deployment's key, or no key at all).
            let foreign = SessionIDKey.random().issue().value
            let random = String(
                (0..<SessionID.length).map { _ in "abcdefghijklmnopqrstuvwxyz234567".randomElement() ?? "a" })
            // Forged: an issued id with one character of the random part, or of the check, changed.
            let forgedRandom = altered(old.id, at: 3)
            let forgedCheck = altered(old.id, at: SessionID.length - 2)
            for id in [foreign, random, forgedRandom, forgedCheck] {
                let session = OldSession(
                    id: id, master: "/v1/sessions/\(id)/master.m3u8", media: "/v1/sessions/\(id)/media/v0.m3u8",
                    tracking: "/v1/sessions/\(id)/tracking", adSegment: "/v1/sessions/\(id)/ad/0/0/v0/0.ts",
                    keepalive: "/v1/sessions/\(id)/keepalive", delete: "/v1/sessions/\(id)")
                for (url, method) in urls(session) {
                    expectNotFound(try await client.call(url, method: method), "\(method) \(url)")
                }
            }
            // Malformed ids (the old 26-character form, upper case, too long) never reach a lookup.
            for id in [String(old.id.prefix(26)), old.id.uppercased(), old.id + "a"] {
                #expect(try await client.call("/v1/sessions/\(id)/master.m3u8").status == 404, "\(id)")
            }
        }
        // A deployment with another secret does not recognise the id either.
        var other = configuration
        other.sessions.idSecret = SessionIDKey.randomSecret()
        try await FaultMatrixApp.make(other, upstream: origin).test(.router) { client in
            expectNotFound(try await client.call(old.master), "another deployment")
        }
    }

    @Test(
        "Without sessions.idSecret the secret is kept in sessions.stateDirectory (0600, created once) and survives a restart"
    )
    func restartWithSecretFile() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-state-\(UUID().uuidString)/nested"
        ).path
        defer { try? FileManager.default.removeItem(atPath: (directory as NSString).deletingLastPathComponent) }
        var configuration = SeamConfiguration()
        configuration.sessions.stateDirectory = directory

        let first = SessionIDSecret.resolve(configuration.sessions, environment: [:])
        let path = directory + "/" + SessionIDSecret.fileName
        #expect(first.source == .file(path: path, created: true))
        var info = stat()
        #expect(stat(path, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o600, "secret file mode \(String(info.st_mode & 0o777, radix: 8))")
        #expect(stat(directory, &info) == 0)
        #expect(info.st_mode & 0o777 == 0o700, "state directory mode \(String(info.st_mode & 0o777, radix: 8))")
        let text = try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(text.count == 64 && text.allSatisfy(\.isHexDigit), "\(text.count) characters")

        let origin = FaultMatrixOrigin()
        let old = try await createSession(
            on: FaultMatrixApp.make(configuration, upstream: origin, sessionIDs: first.key))

        let second = SessionIDSecret.resolve(configuration.sessions, environment: [:])
        #expect(second.source == .file(path: path, created: false))
        try await FaultMatrixApp.make(configuration, upstream: origin, sessionIDs: second.key).test(.router) { client in
            expectGone(try await client.call(old.master), "master after restart")
            expectGone(try await client.call(old.keepalive, method: .post), "keepalive after restart")
        }
        // The file's contents work as sessions.idSecret, for replicas that must share it.
        #expect(SessionIDKey(secret: text).issued(try #require(SessionID(old.id[...]))))
    }

    @Test("The default state directory follows STATE_DIRECTORY, XDG_STATE_HOME, HOME")
    func defaultStateDirectory() {
        let sessions = SeamConfiguration.Sessions()
        #expect(
            SessionIDSecret.stateDirectory(
                sessions, environment: ["STATE_DIRECTORY": "/var/lib/seam:/x", "HOME": "/root"]) == "/var/lib/seam")
        #expect(
            SessionIDSecret.stateDirectory(sessions, environment: ["XDG_STATE_HOME": "/s", "HOME": "/root"])
                == "/s/seam")
        #expect(
            SessionIDSecret.stateDirectory(sessions, environment: ["HOME": "/home/a"]) == "/home/a/.local/state/seam")
        #expect(SessionIDSecret.stateDirectory(sessions, environment: [:]) == nil)
    }

    @Test("A state directory that cannot be written: a per-process secret and a reason that says what to set")
    func unwritableStateDirectory() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-not-a-directory-\(UUID().uuidString)"
        ).path
        try "x".write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        var sessions = SeamConfiguration.Sessions()
        sessions.stateDirectory = file + "/state"
        let first = SessionIDSecret.resolve(sessions, environment: [:])
        let second = SessionIDSecret.resolve(sessions, environment: [:])
        guard case .processOnly(let reason) = first.source else {
            Issue.record("expected a per-process secret, got \(first.source)")
            return
        }
        #expect(reason.contains(file), "\(reason)")
        #expect(reason.contains("sessions.idSecret") && reason.contains("sessions.stateDirectory"), "\(reason)")
        #expect(!second.key.issued(first.key.issue()), "two processes without a kept secret must not share one")
        let none = SessionIDSecret.resolve(SeamConfiguration.Sessions(), environment: [:])
        if case .processOnly = none.source {
        } else {
            Issue.record("no directory at all must fall back, got \(none.source)")
        }
    }

    @Test("Session ids: 40 lower-case base32 characters, unique, recognised only by the key that issued them")
    func idsAreURLSafeAndUnguessable() throws {
        let key = SessionIDKey.random()
        let other = SessionIDKey.random()
        var seen: Set<String> = []
        for _ in 0..<2000 {
            let id = key.issue()
            #expect(id.value.count == SessionID.length)
            #expect(id.value.allSatisfy { ("a"..."z").contains($0) || ("2"..."7").contains($0) }, "\(id)")
            #expect(SessionID(id.value[...]) == id)
            #expect(key.issued(id))
            #expect(!other.issued(id))
            seen.insert(id.value)
        }
        #expect(seen.count == 2000)
    }

    @Test("sessions.idSecret is never printed: --print-config, error messages and override sources hide it")
    func secretIsNeverPrinted() throws {
        let secret = SessionIDKey.randomSecret()
        let loader = ConfigurationLoader(environment: ["SEAM_SESSIONS_ID_SECRET": secret])
        let configuration = try loader.load(yaml: nil)
        #expect(configuration.sessions.idSecret == secret)
        let printed = ConfigurationLoader.renderYAML(configuration)
        #expect(!printed.contains(secret))
        #expect(printed.contains("idSecret: \"\"  # set, not shown"), "\(printed)")
        #expect(!ConfigurationLoader.renderYAML(SeamConfiguration()).contains("not shown"))

        let short = "short-secret-value"
        let thrown = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: nil, overrides: ["sessions.idSecret": short])
        }
        #expect(thrown?.description.contains("at least 32") == true, "\(String(describing: thrown))")
        #expect(thrown?.description.contains(short) == false, "\(String(describing: thrown))")
    }
}
