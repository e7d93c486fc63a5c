// swift-tools-version: 6.1
// libFuzzer executables for Seam's fuzz targets (Sources/SeamFuzzing in the main package).
// A package of its own so the main package's build and tests never pay for it: build it only
// through scripts/fuzz.sh, which passes `-sanitize=fuzzer,address -parse-as-library`.
import PackageDescription

let targets = ["HLS", "VAST", "SCTE35", "Stitching", "DASH"]

let package = Package(
    name: "SeamFuzz",
    products: targets.map { .executable(name: "Fuzz\($0)", targets: ["Fuzz\($0)"]) },
    dependencies: [.package(name: "Seam", path: "..")],
    targets: [.target(name: "CLibFuzzer")] + targets.map {
        .executableTarget(name: "Fuzz\($0)", dependencies: ["CLibFuzzer", .product(name: "SeamFuzzing", package: "Seam")])
    },
    swiftLanguageModes: [.v6]
)
