import Testing

@testable import Stitching

/// Where a player that joins a live break late begins in its asset list (`_HLS_start_offset`),
/// as hls.js and Shaka place the list: from the break's start.
@Suite struct AssetListJoinTests {
    static let twoTens = AssetList(assets: [
        AssetList.Asset(uri: "https://seam.example/a/0.m3u8", duration: 10),
        AssetList.Asset(uri: "https://seam.example/a/1.m3u8", duration: 10),
    ])

    @Test(
        arguments: [
            // offset → (asset, seconds into it), nil when nothing of the list is left
            (0.0, AssetList.JoinPoint(asset: 0, time: 0)),
            (2.5, AssetList.JoinPoint(asset: 0, time: 2.5)),
            (9.999, AssetList.JoinPoint(asset: 0, time: 9.999)),
            (10.0, AssetList.JoinPoint(asset: 1, time: 0)),
            (12.0, AssetList.JoinPoint(asset: 1, time: 2)),
            (12.345, AssetList.JoinPoint(asset: 1, time: 2.345)),
            (19.9995, AssetList.JoinPoint(asset: 1, time: 10)),
        ] as [(Double, AssetList.JoinPoint?)])
    func joinPointOfTwoTenSecondAds(offset: Double, expected: AssetList.JoinPoint?) {
        #expect(Self.twoTens.joinPoint(at: offset) == expected)
    }

    @Test func nothingIsLeftAtOrPastTheEndOrForANonsenseOffset() {
        #expect(Self.twoTens.joinPoint(at: 20) == nil)
        #expect(Self.twoTens.joinPoint(at: 300) == nil)
        #expect(Self.twoTens.joinPoint(at: .nan) == nil)
        #expect(Self.twoTens.joinPoint(at: .infinity) == nil)
        #expect(AssetList.empty.joinPoint(at: 0) == nil)
    }

    @Test func durationsAddUpInMillisecondsAsWritten() {
        // Three assets of a third of ten seconds each, as a list writes them (3.333): the third
        // starts at 6.666, not at a float sum a hair off it.
        let thirds = AssetList(
            assets: (0..<3).map { AssetList.Asset(uri: "https://seam.example/a/\($0).m3u8", duration: 3.333) })
        #expect(thirds.joinPoint(at: 6.666) == AssetList.JoinPoint(asset: 2, time: 0))
        #expect(thirds.joinPoint(at: 9.998) == AssetList.JoinPoint(asset: 2, time: 3.332))
        #expect(thirds.joinPoint(at: 9.999) == nil)
    }
}
