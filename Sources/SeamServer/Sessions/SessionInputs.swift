import Stitching

/// The parts of an incoming request a session is built from, and the form a session record
/// writes them in (`request`, `deviceIP`, `userAgent`, `baseURL`).
///
/// Copy-on-write over one shared box: a session keeps its inputs for its whole life and its
/// record keeps them again, so copies share the box instead of each holding the request's
/// couple of hundred bytes inline (thousands of live viewers per replica).
package struct SessionInputs: Sendable, Equatable, Codable {
    private final class Storage: @unchecked Sendable {
        // Mutated only through `SessionInputs`'s setters, on a box no other copy references.
        var request: SessionRequest
        var deviceIP: String?
        var userAgent: String?
        var baseURL: String

        init(request: SessionRequest, deviceIP: String?, userAgent: String?, baseURL: String) {
            self.request = request
            self.deviceIP = deviceIP
            self.userAgent = userAgent
            self.baseURL = baseURL
        }

        func copy() -> Storage {
            Storage(request: request, deviceIP: deviceIP, userAgent: userAgent, baseURL: baseURL)
        }
    }

    private var storage: Storage

    package init(request: SessionRequest, deviceIP: String?, userAgent: String?, baseURL: String) {
        storage = Storage(request: request, deviceIP: deviceIP, userAgent: userAgent, baseURL: baseURL)
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

    package var deviceIP: String? {
        _read { yield storage.deviceIP }
        _modify {
            let storage = unique()
            yield &storage.deviceIP
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

    package static func == (lhs: SessionInputs, rhs: SessionInputs) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.request == rhs.request && lhs.deviceIP == rhs.deviceIP && lhs.userAgent == rhs.userAgent
                && lhs.baseURL == rhs.baseURL)
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
