import SeamServer
import Foundation

/// A path inside a served directory, checked component by component before it ever touches the
/// file system.
///
/// The demo servers run on a developer's machine next to their home directory, so a request must
/// never name a file outside the root: no `..` or `.` segments (literal or percent-encoded), no
/// empty segments (`//etc/passwd`), no encoded slashes, backslashes or NUL bytes, and no hidden
/// files. Symlinks that leave the root are refused later, by ``DemoFileStore``, after resolving.
package struct DemoFilePath: Sendable, Hashable, CustomStringConvertible {
    /// Decoded path components, each a plain file or directory name.
    package let components: [String]

    /// The relative path, components joined with `/`.
    package var description: String { components.joined(separator: "/") }

    /// Builds a path from the percent-encoded part of a request path that follows the route prefix
    /// (for `/media/content/master.m3u8`, `content/master.m3u8`).
    /// Returns `nil` when any component is unsafe or not valid percent-encoding.
    package init?(urlEncoded encoded: some StringProtocol) {
        guard !encoded.isEmpty else { return nil }
        var components: [String] = []
        for raw in encoded.split(separator: "/", omittingEmptySubsequences: false) {
            guard let decoded = String(raw).removingPercentEncoding, Self.isSafe(decoded) else { return nil }
            components.append(decoded)
        }
        self.components = components
    }

    /// Builds a path from already-decoded components (for code, not requests).
    package init?(components: [String]) {
        guard !components.isEmpty, components.allSatisfy(Self.isSafe) else { return nil }
        self.components = components
    }

    /// The lowercased extension of the last component, without the dot (`m3u8`), or `""`.
    package var fileExtension: String {
        guard let last = components.last, let dot = last.lastIndex(of: ".") else { return "" }
        return String(last[last.index(after: dot)...]).lowercased()
    }

    private static func isSafe(_ component: String) -> Bool {
        guard !component.isEmpty, component.first != "." else { return false }
        return !component.unicodeScalars.contains { scalar in
            scalar == "/" || scalar == "\\" || scalar.value < 0x20 || scalar.value == 0x7F
        }
    }
}
