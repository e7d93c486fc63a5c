import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where this deployment's session id secret comes from, so that a restarted Seam still
/// recognises the ids it issued before (and answers `410 SESSION_EXPIRED`, not `404`):
///
/// 1. `sessions.idSecret` when set (every replica behind one URL needs the same one);
/// 2. else the file `session-id-secret` in the state directory (`sessions.stateDirectory`, or when
///    that is empty `$STATE_DIRECTORY`, `$XDG_STATE_HOME/seam`, `$HOME/.local/state/seam`), created
///    with mode 0600 on first start and read on every later one;
/// 3. else (no directory, or it cannot be written or read) a random secret for this process only,
///    with a warning: ids issued now answer `404` after a restart.
package struct SessionIDSecret: Sendable {
    package enum Source: Sendable, Equatable, CustomStringConvertible {
        case configured
        case file(path: String, created: Bool)
        /// `reason` says why no secret could be kept and what to set.
        case processOnly(reason: String)

        package var description: String {
            switch self {
            case .configured: return "sessions.idSecret"
            case .file(let path, let created): return "\(path) (\(created ? "created" : "read"))"
            case .processOnly: return "a random secret for this process only"
            }
        }
    }

    package let key: SessionIDKey
    package let source: Source

    package static let fileName = "session-id-secret"

    /// Resolves the secret; never throws (a missing secret costs restart messages, not service).
    package static func resolve(
        _ sessions: SeamConfiguration.Sessions,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> SessionIDSecret {
        if !sessions.idSecret.isEmpty {
            return SessionIDSecret(key: SessionIDKey(secret: sessions.idSecret), source: .configured)
        }
        guard let directory = stateDirectory(sessions, environment: environment) else {
            return processOnly(
                "no state directory: sessions.stateDirectory is empty and neither STATE_DIRECTORY, XDG_STATE_HOME nor HOME is set"
            )
        }
        do {
            let (secret, path, created) = try readOrCreate(in: directory)
            return SessionIDSecret(key: SessionIDKey(secret: secret), source: .file(path: path, created: created))
        } catch {
            return processOnly(error.description)
        }
    }

    private static func processOnly(_ why: String) -> SessionIDSecret {
        SessionIDSecret(
            key: .random(),
            source: .processOnly(
                reason:
                    "\(why). Session ids issued now will answer 404 instead of 410 after a restart; set sessions.idSecret (the same on every replica), or sessions.stateDirectory to a writable directory"
            ))
    }

    /// The configured directory, or the platform's state directory for Seam.
    static func stateDirectory(_ sessions: SeamConfiguration.Sessions, environment: [String: String]) -> String? {
        if !sessions.stateDirectory.isEmpty { return sessions.stateDirectory }
        // systemd's StateDirectory= sets this (several directories are colon-separated).
        if let systemd = environment["STATE_DIRECTORY"]?.split(separator: ":").first, !systemd.isEmpty {
            return String(systemd)
        }
        if let xdg = environment["XDG_STATE_HOME"], xdg.hasPrefix("/") { return xdg + "/seam" }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.local/state/seam" }
        return nil
    }

    struct FileError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads the secret file in `directory`, or creates it (and the directory, mode 0700). Creation
    /// writes a temporary file and hard-links it into place, so two instances starting at once
    /// agree on one secret and neither ever reads a half-written file.
    static func readOrCreate(in directory: String) throws(FileError) -> (secret: String, path: String, created: Bool) {
        let path = directory.hasSuffix("/") ? directory + fileName : directory + "/" + fileName
        if let existing = try read(path) { return (existing, path, false) }
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } catch {
            throw FileError(
                description: "cannot create the state directory \(directory): \(error.localizedDescription)")
        }
        let secret = SessionIDKey.randomSecret()
        let temporary = path + ".\(getpid()).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw FileError(description: "cannot write \(temporary): \(Self.errnoText())") }
        let bytes = Array((secret + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor) == 0
        close(descriptor)
        defer { unlink(temporary) }
        guard written == bytes.count, synced else {
            throw FileError(description: "cannot write \(temporary): \(Self.errnoText())")
        }
        if link(temporary, path) != 0 {
            // Another instance created it first: use theirs.
            if errno == EEXIST, let existing = try read(path) { return (existing, path, false) }
            throw FileError(description: "cannot create \(path): \(Self.errnoText())")
        }
        return (secret, path, true)
    }

    /// The secret in `path`, nil when there is no such file.
    static func read(_ path: String) throws(FileError) -> String? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw FileError(description: "cannot read \(path): \(error.localizedDescription)")
        }
        let secret = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard secret.count >= SessionIDKey.minimumSecretLength else {
            throw FileError(
                description:
                    "\(path) holds no usable secret (fewer than \(SessionIDKey.minimumSecretLength) characters); delete it and Seam writes a new one (ids issued with the old one then answer 404)"
            )
        }
        return secret
    }

    private static func errnoText() -> String {
        String(cString: strerror(errno))
    }
}
