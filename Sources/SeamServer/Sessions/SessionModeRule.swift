import Foundation
import Stitching

/// A configured `sessions.modeRules` entry: players whose `User-Agent` contains `userAgent`
/// (any letter case) get `mode` when their request does not name one. Written
/// `"<User-Agent substring>=<mode>"`, e.g. `"AppleCoreMedia=interstitials"` (AVPlayer plays HLS
/// Interstitials; a browser's native player would play only the content of them).
package struct SessionModeRule: Sendable, Equatable {
    package var userAgent: String
    package var mode: SessionMode

    package struct ParseError: Error, Sendable {
        package var message: String
    }

    package init(parsing text: String) throws(ParseError) {
        guard let equals = text.lastIndex(of: "=") else {
            throw ParseError(
                message:
                    "\"\(text)\" is not a rule; write \"<User-Agent substring>=<mode>\", like \"AppleCoreMedia=interstitials\""
            )
        }
        let agent = text[..<equals].trimmingCharacters(in: .whitespaces)
        let modeText = text[text.index(after: equals)...].trimmingCharacters(in: .whitespaces)
        guard !agent.isEmpty else {
            throw ParseError(message: "\"\(text)\" has no User-Agent substring before the =")
        }
        guard let mode = SessionMode(rawValue: modeText) else {
            throw ParseError(message: "\"\(text)\": \"\(modeText)\" is not a mode; use stitched or interstitials")
        }
        userAgent = agent.lowercased()
        self.mode = mode
    }

    /// The mode of a session whose request names none: the first rule matching `userAgent`, else `fallback`.
    package static func mode(for userAgent: String?, rules: [SessionModeRule], fallback: SessionMode) -> SessionMode {
        guard let agent = userAgent?.lowercased(), !agent.isEmpty else { return fallback }
        return rules.first { agent.contains($0.userAgent) }?.mode ?? fallback
    }
}
