import Stitching

import NIOConcurrencyHelpers

/// The parts of an incoming request a session is built from, and the form a session record
/// writes them in (`request`, `deviceIP`, `userAgent`, `baseURL`).
///
/// Copy-on-write over one shared box: a session keeps its inputs for its whole life and its
/// record keeps them again, so copies share the box instead of each holding the request's
/// couple of hundred bytes inline (thousands of live viewers per replica). The viewer's address
/// is kept beside the box, so viewers of a channel who sent the same request share one box
/// (`Pool`).
package struct SessionInputs: Sendable, Equatable, Codable {
    fileprivate final class Storage: @unchecked Sendable {
        // Mutated only through `SessionInputs`'s setters, on a box no other copy references.
        var request: SessionRequest
        var userAgent: String?
        var baseURL: String

        init(request: SessionRequest, userAgent: String?, baseURL: String) {
            self.request = request
            self.userAgent = userAgent
            self.baseURL = baseURL
        }

        func copy() -> Storage {
            Storage(request: request, userAgent: userAgent, baseURL: baseURL)
        }

        func holdsTheSame(as other: Storage) -> Bool {
            self === other || (request == other.request && userAgent == other.userAgent && baseURL == other.baseURL)
        }
    }

    private var storage: Storage
    /// The viewer's address (an IPv4 address is kept inline: at most 15 bytes).
    package var deviceIP: String?

    package init(request: SessionRequest, deviceIP: String?, userAgent: String?, baseURL: String) {
        storage = Storage(request: request, userAgent: userAgent, baseURL: baseURL)
        self.deviceIP = deviceIP
    }

    private mutating func unique() -> Storage {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        return storage
    }

    package var request: SessionRequest {
        _read { yield storage.request }
        _modify {
            let storage = unique()
            yield &storage.request
        }
    }

    package var userAgent: String? {
        _read { yield storage.userAgent }
        _modify {
            let storage = unique()
            yield &storage.userAgent
        }
    }

    /// Where players reach Seam, e.g. `http://127.0.0.1:8080`.
    package var baseURL: String {
        _read { yield storage.baseURL }
        _modify {
            let storage = unique()
            yield &storage.baseURL
        }
    }

    /// These inputs with the strings most viewers of a channel share (Seam's base URL, the channel
    /// URL, the user agent) taken from `interner`: one copy serves them all.
    func interned(by interner: StringInterner) -> SessionInputs {
        var inputs = self
        inputs.baseURL = interner.intern(baseURL)
        inputs.request.url = interner.intern(request.url)
        inputs.userAgent = userAgent.map(interner.intern)
        return inputs
    }

    /// Who tracks ad progress: the request's choice, else the configured default (`ads.trackingMode`).
    func trackingMode(default configured: String) -> TrackingMode {
        request.trackingMode(default: configured)
    }

    /// These inputs holding the box of an equal request from `pool` when it has one (most viewers
    /// of a channel send the same request), else their own, now in the pool.
    func sharing(_ pool: Pool) -> SessionInputs {
        var inputs = self
        inputs.storage = pool.share(storage)
        return inputs
    }

    /// The boxes of the last few distinct requests a channel's sessions were made with.
    final class Pool: Sendable {
        private let recent = NIOLockedValueBox<[Storage]>([])
        /// Distinct requests kept; compared one by one (a request's few fields), newest first.
        static let capacity = 8

        fileprivate func share(_ storage: Storage) -> Storage {
            recent.withLockedValue { recent in
                if let index = recent.firstIndex(where: { $0.holdsTheSame(as: storage) }) {
                    let shared = recent[index]
                    if index > 0 {
                        recent.remove(at: index)
                        recent.insert(shared, at: 0)
                    }
                    return shared
                }
                if recent.count >= Self.capacity { recent.removeLast() }
                recent.insert(storage, at: 0)
                return storage
            }
        }

        /// Distinct requests held (for tests).
        var count: Int { recent.withLockedValue { $0.count } }
    }

    /// Whether two inputs share one box (for tests of what is shared).
    func sharesStorage(with other: SessionInputs) -> Bool { storage === other.storage }

    package static func == (lhs: SessionInputs, rhs: SessionInputs) -> Bool {
        lhs.deviceIP == rhs.deviceIP && lhs.storage.holdsTheSame(as: rhs.storage)
    }

    private enum CodingKeys: String, CodingKey { case request, deviceIP, userAgent, baseURL }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            request: try container.decode(SessionRequest.self, forKey: .request),
            deviceIP: try container.decodeIfPresent(String.self, forKey: .deviceIP),
            userAgent: try container.decodeIfPresent(String.self, forKey: .userAgent),
            baseURL: try container.decode(String.self, forKey: .baseURL))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(request, forKey: .request)
        try container.encodeIfPresent(deviceIP, forKey: .deviceIP)
        try container.encodeIfPresent(userAgent, forKey: .userAgent)
        try container.encode(baseURL, forKey: .baseURL)
    }
}
