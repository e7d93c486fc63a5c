import AsyncHTTPClient
import NIOCore
import NIOSSL
import Testing

@testable import SeamServer

#if canImport(Glibc)
    import Glibc
#endif

/// What the connection libraries throw, in the words a user reads: each kind of failure named,
/// never the library's type names or errno text.
@Suite struct ConnectionFailureTests {
    static let cases: [(name: String, error: any Error, failure: ConnectionFailure)] = [
        ("refused", IOError(errnoCode: ECONNREFUSED, reason: "connect"), .refused),
        ("certificate", NIOSSLError.unableToValidateCertificate, .untrustedCertificate),
        ("other TLS", NIOSSLError.handshakeFailed(.sslError([])), .tlsFailed),
        ("closed early", HTTPClientError.remoteConnectionClosed, .closedEarly),
        ("anything else", HTTPClientError.invalidURL, .other),
    ]

    @Test(arguments: 0..<cases.count)
    func namedInSeamsWords(_ index: Int) {
        let item = Self.cases[index]
        let failure = ConnectionFailure(item.error)
        #expect(failure == item.failure, "\(item.name)")
        let words = failure.words(host: "origin.example.com:443")
        #expect(words.contains("origin.example.com:443"))
        for leak in ["NIOSSL", "IOError", "HTTPClientError", "errno", "BoringSSL"] {
            #expect(!words.contains(leak), "\(item.name): \(words)")
        }
    }
}
