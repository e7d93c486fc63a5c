// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Seam",
    // iOS and tvOS for the apps that embed SeamKit (ContinuousClock needs iOS 16); the server runs on
    // Linux and macOS.
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17)],
    // What users of Seam's libraries build on. The server, the demo and the test support are
    // this package's own (`package` access): they are run through `seam`, not linked by others.
    products: [
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "VAST", targets: ["VAST"]),
        .library(name: "SCTE35", targets: ["SCTE35"]),
        .library(name: "DASH", targets: ["DASH"]),
        .library(name: "Stitching", targets: ["Stitching"]),
        // The client for apps: sessions, keep-alive, tracking. Foundation and SeamWire only.
        .library(name: "SeamKit", targets: ["SeamKit"]),
        // The fuzz targets' bodies; the libFuzzer executables are in Fuzz/ (scripts/fuzz.sh).
        .library(name: "SeamFuzzing", targets: ["SeamFuzzing"]),
        .executable(name: "seam", targets: ["seam"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        .package(url: "https://github.com/adam-fowler/compress-nio", from: "1.5.0"),
        // HMAC for session ids; already in the graph through swift-nio-extras (3.12.3 or 4.x resolve).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // HTTPRequestPart/HTTPResponsePart, for the connection guard's handler (already in the graph via Hummingbird).
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        // The shared session store (store.postgresURL): PostgresClient, its pool and its wire protocol.
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // TLS settings of the PostgreSQL connection (a private CA); already in the graph through postgres-nio.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        // Spans (tracing.*): the Tracer API the code records through, its in-memory tracer for tests,
        // and swift-otel's OTLP/HTTP exporter (its gRPC trait would add grpc-swift to every build).
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Formats: no I/O.
        .target(
            name: "HLS",
            // Double.rounded() calls into libm; HLS imports no Foundation to pull it in.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        // The XML tokenizer MPDs and VAST responses are read with: well-formedness, no DTD, UTF-8, limits.
        .target(name: "XMLSyntax"),
        .target(name: "VAST", dependencies: ["XMLSyntax"]),
        // MPEG-DASH MPDs: a lossless XML tree of its own (attribute order kept) and typed views.
        .target(
            name: "DASH", dependencies: ["XMLSyntax"], linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(name: "SCTE35", dependencies: ["HLS"]),
        // The JSON the HTTP API speaks, shared by the server and SeamKit so they cannot drift.
        // Foundation only.
        .target(name: "SeamWire"),
        // The engine: no HTTP.
        .target(name: "Stitching", dependencies: ["HLS", "SCTE35", "SeamWire", "DASH"]),
        // Fuzz targets: any bytes in, no trap out. Formats and engine only.
        .target(name: "SeamFuzzing", dependencies: ["HLS", "VAST", "SCTE35", "Stitching", "DASH"]),
        // glibc's heap statistics for the memory metric (no Swift module exposes <malloc.h>).
        .target(name: "CSeamSystem"),
        // The service: the only place with I/O.
        .target(
            name: "SeamServer",
            dependencies: [
                "HLS", "VAST", "Stitching", "SCTE35", "SeamWire", "CSeamSystem", "DASH",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ]
        ),
        // The demo: an origin, an ad server and a web page, kept out of the service as SwiftNIO
        // keeps its examples out of NIOCore.
        .target(
            name: "SeamDemo",
            dependencies: [
                "SeamServer", "HLS", "DASH", "SCTE35",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "seam",
            dependencies: [
                "HLS", "DASH", "Stitching", "SeamServer", "SeamDemo", "SeamWatch", "SeamKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Test support shared by the suites, as HummingbirdTesting is for Hummingbird: a whole
        // Seam stack on loopback, the demo servers as fixtures, scripted and faulty upstreams.
        .target(
            name: "SeamTesting",
            dependencies: [
                "SeamServer", "SeamDemo", "HLS", "VAST",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The client library apps embed: no Hummingbird, no NIO, only Foundation (and
        // FoundationNetworking on Linux) and the wire types.
        .target(name: "SeamKit", dependencies: ["SeamWire"]),
        // `seam watch`: a headless viewer on SeamKit (a simulated player that reads HLS and DASH).
        .target(name: "SeamWatch", dependencies: ["SeamKit", "HLS", "DASH"]),
        .executableTarget(
            name: "HLSBenchmark",
            dependencies: ["HLS"],
            path: "Benchmarks/HLSBenchmark"
        ),
        // Reading a VAST response (BENCHMARKS.md).
        .executableTarget(name: "VASTBenchmark", dependencies: ["VAST"], path: "Benchmarks/VASTBenchmark"),
        .executableTarget(
            name: "DASHBenchmark",
            dependencies: ["DASH"],
            path: "Benchmarks/DASHBenchmark"
        ),
        // A live reload in the session engine, HLS beside DASH (BENCHMARKS.md).
        .executableTarget(
            name: "LiveReloadBenchmark",
            dependencies: ["HLS", "DASH", "SCTE35", "Stitching"],
            path: "Benchmarks/LiveReloadBenchmark"
        ),
        // The session engine's part of a live reload, for instruction counts (BENCHMARKS.md).
        .executableTarget(
            name: "LiveTimelineBenchmark",
            dependencies: ["HLS", "Stitching"],
            path: "Benchmarks/LiveTimelineBenchmark"
        ),
        .executableTarget(
            name: "LiveLoadBenchmark",
            dependencies: [
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Benchmarks/LiveLoad"
        ),
        .testTarget(name: "HLSTests", dependencies: ["HLS"], resources: [.copy("Resources")]),
        .testTarget(name: "VASTTests", dependencies: ["VAST", "XMLSyntax"], resources: [.copy("Resources")]),
        .testTarget(name: "DASHTests", dependencies: ["DASH"], resources: [.copy("Resources")]),
        .testTarget(
            name: "StitchingTests", dependencies: ["Stitching", "HLS", "SCTE35", "DASH"],
            resources: [.copy("Resources")]),
        .testTarget(name: "SCTE35Tests", dependencies: ["SCTE35", "HLS"]),
        .testTarget(
            name: "SeamDemoTests",
            dependencies: [
                "SeamDemo", "SeamServer", "SeamTesting",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]),
        .testTarget(
            name: "SeamServerTests",
            dependencies: [
                "SeamServer", "SeamDemo", "SeamTesting", "HLS", "VAST", "Stitching", "SCTE35", "SeamWire", "DASH",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "CompressNIO", package: "compress-nio"),
                // Contract/: reads docs/openapi.yaml to check the wire types against it.
                .product(name: "Yams", package: "Yams"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
            ]
        ),
        .testTarget(
            name: "SeamKitTests",
            dependencies: [
                "SeamKit", "SeamWire", "SeamWatch", "SeamTesting", "SeamServer", "SeamDemo",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "SeamFuzzingTests", dependencies: ["SeamFuzzing", "HLS"], resources: [.copy("Corpus")]),
        .testTarget(name: "SeamCLITests", dependencies: ["HLS"], resources: [.copy("Resources")]),
    ],
    swiftLanguageModes: [.v6]
)

// The executables and the tests link with lld, which the Swift toolchain ships on Linux: it links
// the two large debug binaries in about a third of gold's time (the tests' 270 MB: 3.2 s against
// 9.4 s, measured), and every test run after an edit waits for that link. Only these targets carry
// the flag, so a package that depends on Seam's libraries builds without it.
for target in package.targets where target.type == .executable || target.type == .test {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-use-ld=lld"], .when(platforms: [.linux]))]
}
