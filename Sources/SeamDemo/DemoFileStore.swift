import SeamServer
import Foundation
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

/// A read-only view of one directory that the demo servers serve files from.
///
/// Every lookup resolves the real path (following symlinks) and refuses anything that ends up
/// outside the root, so a stray symlink in `Samples/` cannot expose the rest of the disk.
/// Small files are kept in memory after the first read: the sample title is a few megabytes and
/// players fetch the same playlists and segments over and over, which a demo on a laptop should not
/// turn into disk reads. The samples are treated as immutable while a server runs; restart the demo
/// after regenerating them.
package struct DemoFileStore: Sendable {
    /// One file found under the root.
    package struct File: Sendable {
        /// Resolved absolute path (symlinks followed, inside the root).
        package var absolutePath: String
        package var size: Int
        package var modified: Date
        /// The whole file, when it is small enough to be cached.
        package var contents: ByteBuffer?
        /// Content type from the extension of the requested name.
        package var contentType: String

        /// A weak validator built from size and modification time, like nginx's.
        package var eTag: String {
            "W/\"\(String(size, radix: 16))-\(String(Int(modified.timeIntervalSince1970), radix: 16))\""
        }
    }

    /// Why a file cannot be served.
    package enum LookupError: Error, Sendable, Equatable {
        /// Missing, a directory, unreadable, or resolving outside the root: all look the same to a
        /// client, so nothing about the disk leaks.
        case notFound
    }

    /// The root directory, real path without a trailing slash.
    package let rootPath: String
    /// Files up to this size are cached in memory; larger ones are streamed from disk.
    package let maxCachedFileBytes: Int
    /// Upper bound for all cached bytes together.
    package let maxCacheBytes: Int
    /// Whether files read are kept in memory. Off for folders someone edits while the server runs
    /// (the web page), so a reload shows the change.
    package let keepsContents: Bool

    private let cache: NIOLockedValueBox<Cache>
    private let threadPool: NIOThreadPool

    private struct Cache {
        var files: [DemoFilePath: File] = [:]
        var bytes = 0
    }

    /// Opens `root` (relative paths resolve against the working directory).
    /// Throws ``DemoServerError/directoryNotFound(_:)`` when it is not a readable directory, so a
    /// mistyped `--media` fails at start-up instead of answering 404 forever.
    package init(
        root: String, maxCachedFileBytes: Int = 16 << 20, maxCacheBytes: Int = 256 << 20,
        keepsContents: Bool = true, threadPool: NIOThreadPool = .singleton
    ) throws {
        guard let real = Self.realPath(root) else { throw DemoServerError.directoryNotFound(root) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: real, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw DemoServerError.directoryNotFound(root)
        }
        rootPath = real == "/" ? "" : real
        self.maxCachedFileBytes = maxCachedFileBytes
        self.maxCacheBytes = maxCacheBytes
        self.keepsContents = keepsContents
        self.threadPool = threadPool
        cache = NIOLockedValueBox(Cache())
    }

    /// Finds `path` under the root, reading it into memory when it is small (and keeping it there
    /// when ``keepsContents`` is on).
    /// Blocking file-system calls run on the NIO thread pool, never on an event loop.
    package func file(at path: DemoFilePath) async throws(LookupError) -> File {
        if keepsContents, let cached = cache.withLockedValue({ $0.files[path] }) { return cached }
        let rootPath = self.rootPath
        let maxCachedFileBytes = self.maxCachedFileBytes
        let loaded: File?
        do {
            loaded = try await threadPool.runIfActive {
                Self.load(path, rootPath: rootPath, maxCachedFileBytes: maxCachedFileBytes)
            }
        } catch {
            throw .notFound
        }
        guard let file = loaded else { throw .notFound }
        if keepsContents, let contents = file.contents {
            cache.withLockedValue { cache in
                guard cache.files[path] == nil, cache.bytes + contents.readableBytes <= maxCacheBytes else { return }
                cache.files[path] = file
                cache.bytes += contents.readableBytes
            }
        }
        return file
    }

    /// Number of files currently held in memory (for tests and diagnostics).
    package var cachedFileCount: Int { cache.withLockedValue { $0.files.count } }

    private static func load(_ path: DemoFilePath, rootPath: String, maxCachedFileBytes: Int) -> File? {
        let candidate = rootPath + "/" + path.components.joined(separator: "/")
        // Resolve symlinks and check containment on the result, not on the request.
        guard let real = realPath(candidate), real.hasPrefix(rootPath + "/") else { return nil }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: real),
            (attributes[.type] as? FileAttributeType) == .typeRegular,
            let size = (attributes[.size] as? NSNumber)?.intValue
        else { return nil }
        let modified = (attributes[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
        var contents: ByteBuffer?
        if size <= maxCachedFileBytes {
            guard let data = FileManager.default.contents(atPath: real) else { return nil }
            contents = ByteBuffer(bytes: data)
        }
        return File(
            absolutePath: real, size: contents?.readableBytes ?? size, modified: modified,
            contents: contents, contentType: DemoContentType.forExtension(path.fileExtension))
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
