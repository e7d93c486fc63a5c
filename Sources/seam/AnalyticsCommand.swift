import ArgumentParser
import Foundation
import SeamServer

/// `seam analytics`: tools for the analytics a deployment sends.
struct AnalyticsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics",
        abstract: "Tools for session analytics (docs/analytics.md).",
        subcommands: [AnalyticsDecryptCommand.self]
    )
}

/// `seam analytics decrypt`: opens values the `encrypted` privacy mode sealed, one per line, for
/// a request to see one viewer's data (a data subject request, an abuse investigation).
struct AnalyticsDecryptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decrypt",
        abstract: "Decrypt personal fields that analytics.privacy=encrypted sent.",
        discussion: """
            Each VALUE is a field of an event's "device" object (base64 of nonce, ciphertext and tag, \
            AES-256-GCM). Without VALUEs, values are read from standard input, one per line. The key is \
            --key, else the environment variable SEAM_ANALYTICS_ENCRYPTION_KEY (better: it stays out of \
            the shell history). Exit status 1 when a value does not open with the key.
            """
    )

    @Option(help: "The deployment's analytics.encryptionKey (32 bytes, base64).")
    var key: String?

    @Argument(help: "Encrypted values to open.")
    var values: [String] = []

    func run() throws {
        guard let text = key ?? ProcessInfo.processInfo.environment["SEAM_ANALYTICS_ENCRYPTION_KEY"] else {
            throw refuse("give the key with --key or SEAM_ANALYTICS_ENCRYPTION_KEY")
        }
        let encryptionKey: AnalyticsEncryptionKey
        do {
            encryptionKey = try AnalyticsEncryptionKey(base64: text)
        } catch {
            throw refuse(error.message)
        }
        var inputs = values
        if inputs.isEmpty {
            while let line = readLine() {
                let value = line.trimmingCharacters(in: .whitespaces)
                if !value.isEmpty { inputs.append(value) }
            }
        }
        var failed = false
        for value in inputs {
            do {
                print(try encryptionKey.open(value))
            } catch {
                FileHandle.standardError.write(Data("seam: \(value.prefix(24))…: \(error.message)\n".utf8))
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }
}
