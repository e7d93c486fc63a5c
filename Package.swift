// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Seam",
    platforms: [.macOS(.v14)],
    products: [
        .library(name: "HLS", targets: ["HLS"]),
        .library(name: "VAST", targets: ["VAST"]),
        .executable(name: "seam", targets: ["seam"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .target(
            name: "HLS",
            // Double.rounded() calls into libm; HLS imports no Foundation to pull it in.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]
        ),
        .target(name: "VAST"),
        .executableTarget(
            name: "seam",
            dependencies: [
                "HLS",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        .executableTarget(
            name: "HLSBenchmark",
            dependencies: ["HLS"],
            path: "Benchmarks/HLSBenchmark"
        ),
        .testTarget(
            name: "VASTTests",
            dependencies: ["VAST"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "SeamCLITests",
            dependencies: ["HLS"],
            resources: [.copy("Resources")]
        ),
        .testTarget(
            name: "HLSTests",
            dependencies: ["HLS"],
            resources: [.copy("Resources")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
