#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import NIOConcurrencyHelpers
import NIOPosix

/// Turns a host name into addresses. A protocol so tests can resolve names without DNS.
package protocol HostResolving: Sendable {
    /// Every address the name resolves to. Throws `UpstreamError.unreachable` when there is none.
    func resolve(host: String, url: String) async throws(UpstreamError) -> [IPAddress]
}

/// The system resolver (`getaddrinfo`, so `/etc/hosts` and the usual resolver configuration apply),
/// run on NIO's blocking-I/O thread pool because `getaddrinfo` blocks.
///
/// A caller that gives up (its task is cancelled by the request deadline) gets control back at
/// once; the lookup finishes on the pool thread and its answer is dropped.
package struct SystemHostResolver: HostResolving {
    package init() {}

    package func resolve(host: String, url: String) async throws(UpstreamError) -> [IPAddress] {
        let once = NIOLockedValueBox<CheckedContinuation<Result<[IPAddress], UpstreamError>, Never>?>(nil)
        let result: Result<[IPAddress], UpstreamError> = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                once.withLockedValue { $0 = continuation }
                if Task.isCancelled {
                    once.withLockedValue { $0.take() }?.resume(returning: .failure(.timeout(url: url, after: .zero)))
                    return
                }
                NIOThreadPool.singleton.submit { state in
                    let answer: Result<[IPAddress], UpstreamError>
                    if state == .active {
                        answer = Self.lookup(host: host, url: url)
                    } else {
                        answer = .failure(.unreachable(url: url, reason: "the resolver is shutting down"))
                    }
                    once.withLockedValue { $0.take() }?.resume(returning: answer)
                }
            }
        } onCancel: {
            once.withLockedValue { $0.take() }?.resume(returning: .failure(.timeout(url: url, after: .zero)))
        }
        return try result.get()
    }

    static func lookup(host: String, url: String) -> Result<[IPAddress], UpstreamError> {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
            hints.ai_socktype = SOCK_STREAM
        #else
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, nil, &hints, &list)
        guard status == 0, let first = list else {
            let reason = String(cString: gai_strerror(status))
            return .failure(.unreachable(url: url, reason: "cannot resolve \(host): \(reason)"))
        }
        defer { freeaddrinfo(first) }
        var addresses: [IPAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let entry = cursor {
            if let socketAddress = entry.pointee.ai_addr {
                switch Int32(entry.pointee.ai_family) {
                case AF_INET:
                    let address = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        $0.pointee.sin_addr
                    }
                    addresses.append(IPAddress(in4: address))
                case AF_INET6:
                    let address = socketAddress.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        $0.pointee.sin6_addr
                    }
                    addresses.append(IPAddress(in6: address))
                default:
                    break
                }
            }
            cursor = entry.pointee.ai_next
        }
        var unique: [IPAddress] = []
        for address in addresses where !unique.contains(address) { unique.append(address) }
        guard !unique.isEmpty else {
            return .failure(.unreachable(url: url, reason: "\(host) has no IPv4 or IPv6 address"))
        }
        return .success(unique)
    }
}
