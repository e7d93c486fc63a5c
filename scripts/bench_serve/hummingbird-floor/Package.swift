// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "HBFloor",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1")],
    targets: [.executableTarget(name: "HBFloor", dependencies: [.product(name: "Hummingbird", package: "hummingbird")])]
)
