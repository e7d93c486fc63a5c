import ArgumentParser
import AsyncHTTPClient
import Foundation
import NIOCore
import SeamKit

/// `seam session <id or URL>`: one session's plan and story, read from a running Seam's debug
/// route (`GET /v1/admin/sessions/{id}`, on when the server has `debug.token`).
struct SessionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "session",
        abstract: "Print a session's plan and story (ad requests, wrappers, verdicts, avails, beacons).",
        discussion: """
            Asks a running Seam's debug route, GET /v1/admin/sessions/{id}, which the server \
            answers only when its debug.token is set. Give the session's id with --server, or any \
            URL of the session (its manifestUrl, trackingUrl, ...), which names both. The token is \
            --token, else the SEAM_DEBUG_TOKEN environment variable. Exit status: 0 printed, \
            1 the server refused or does not hold the session, 64 a bad command.
            """)

    @Argument(help: "The session id, or a URL of the session (http://seam:8080/v1/sessions/<id>/master.m3u8).")
    var session: String

    @Option(help: ArgumentHelp("Seam's base URL, when the session is given by id.", valueName: "url"))
    var server: String = "http://127.0.0.1:8080"

    @Option(help: ArgumentHelp("The server's debug.token (default: $SEAM_DEBUG_TOKEN).", valueName: "token"))
    var token: String?

    @Flag(help: "The server's JSON answer as it is.")
    var json = false

    mutating func run() async throws {
        let target: (base: String, id: String)
        do {
            target = try Self.target(session, server: server)
        } catch {
            throw refuse(error.description)
        }
        guard let token = token ?? ProcessInfo.processInfo.environment["SEAM_DEBUG_TOKEN"], !token.isEmpty else {
            throw refuse("the debug route needs the server's debug.token: pass --token or set SEAM_DEBUG_TOKEN")
        }
        let url = "\(target.base)/v1/admin/sessions/\(target.id)"
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        request.headers.add(name: "User-Agent", value: "seam-session")
        let client = HTTPClient.shared
        let status: UInt
        let body: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: .seconds(10))
            status = response.status.code
            body = try await response.body.collect(upTo: 16 * 1024 * 1024)
        } catch {
            FileHandle.standardError.write(
                Data(
                    "Error: \(target.base) did not answer (\(Self.words(error))); check the URL and that Seam runs\n"
                        .utf8))
            throw ExitCode.failure
        }
        let data = Data(buffer: body)
        guard status == 200 else {
            FileHandle.standardError.write(Data("Error: \(Self.refusal(status: status, body: data, url: url))\n".utf8))
            throw ExitCode.failure
        }
        if json {
            print(String(decoding: data, as: UTF8.self))
            return
        }
        do {
            print(
                SessionStoryPrinter.lines(try JSONDecoder().decode(SessionStoryDocument.self, from: data)),
                terminator: "")
        } catch {
            FileHandle.standardError.write(
                Data("Error: \(url) did not answer a session story (is it a Seam of another version?)\n".utf8))
            throw ExitCode.failure
        }
    }

    struct TargetError: Error, CustomStringConvertible {
        var description: String
    }

    /// Seam's base URL and the session id, from a URL of the session or an id and `server`.
    static func target(_ text: String, server: String) throws(TargetError) -> (base: String, id: String) {
        if let url = URLComponents(string: text), let scheme = url.scheme?.lowercased(), url.host != nil {
            guard scheme == "http" || scheme == "https" else {
                throw TargetError(
                    description: "\(text) is not an http(s) URL; give a session id or a URL of the session")
            }
            let parts = url.path.split(separator: "/")
            guard let at = parts.firstIndex(of: "sessions"), at > 0, parts[at - 1] == "v1", at + 1 < parts.count else {
                throw TargetError(
                    description:
                        "\(text) names no session: use a URL of the form http://seam:8080/v1/sessions/<id>/master.m3u8, or the id with --server"
                )
            }
            var base = URLComponents()
            base.scheme = scheme
            base.host = url.host
            base.port = url.port
            return (base.string ?? "", String(parts[at + 1]))
        }
        guard !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw TargetError(description: "\"\(text)\" is neither a session id nor a URL of a session")
        }
        guard let base = URLComponents(string: server), let scheme = base.scheme?.lowercased(),
            scheme == "http" || scheme == "https", base.host != nil
        else {
            throw TargetError(description: "--server \(server) is not an http(s) URL like http://127.0.0.1:8080")
        }
        return (server.hasSuffix("/") ? String(server.dropLast()) : server, text)
    }

    /// What a refusal means, with the fix.
    static func refusal(status: UInt, body: Data, url: String) -> String {
        let error = try? JSONDecoder().decode(APIErrorBody.self, from: body)
        switch (status, error?.error.code) {
        case (401, _):
            return "the server refused the token: pass the server's debug.token with --token or SEAM_DEBUG_TOKEN"
        case (404, "SESSION_NOT_FOUND"?), (410, _):
            return error?.error.message ?? "the server does not hold this session"
        case (404, _):
            return "\(url) is not served: the server's debug route is off; set debug.token on the server to turn it on"
        default:
            return "the server answered HTTP \(status)" + (error.map { ": \($0.error.message)" } ?? "")
        }
    }

    /// A connection failure in words, without library type names.
    static func words(_ error: any Error) -> String {
        let text = "\(error)".lowercased()
        if text.contains("refused") { return "connection refused" }
        if text.contains("timeout") || text.contains("timed out") { return "no answer within 10 s" }
        if text.contains("resolve") || text.contains("dns") { return "the host name does not resolve" }
        return "the connection failed"
    }
}
