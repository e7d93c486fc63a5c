import HLS
import Testing
@testable import Stitching

/// Random cue timings, decision delays, pod shapes and rendition fetch lags: whatever happens,
/// every rendition's stitched window must pass the live reload rules (media sequence never
/// back, a number always names the same segment, discontinuity sequence exactly right) and the
/// renditions must agree with each other.
@Suite struct LiveTimelinePropertyTests {
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func randomChannel(_ random: inout SplitMix64) -> LiveChannelFixture {
        var channel = LiveChannelFixture()
        channel.windowSize = Int.random(in: 3...8, using: &random)
        var position = Int.random(in: 8...20, using: &random)
        while position < 140 {
            let planned =
                Double(Int.random(in: 1...10, using: &random)) * 6
                + (Bool.random(using: &random) ? 0 : Double.random(in: 0...5, using: &random))
            let natural = position + Int((planned / 6).rounded(.up))
            let returnAt: Int? =
                switch Int.random(in: 0..<4, using: &random) {
                case 0: nil
                case 1: position + Int.random(in: 1...max(1, natural - position), using: &random)
                default: natural
                }
            channel.breaks.append(.init(start: position, planned: planned, returnAt: returnAt))
            position = max(natural, returnAt ?? natural) + Int.random(in: 1...12, using: &random)
        }
        return channel
    }

    @Test(arguments: 0..<40)
    func stitchedWindowsKeepTheLiveRules(seed: Int) {
        var random = SplitMix64(state: UInt64(seed) &* 7919 &+ 17)
        let channel = Self.randomChannel(&random)
        let podShapes: [[(String, [Double])]] = (0..<4).map { pod in
            (0..<Int.random(in: 0...3, using: &random)).map { ad in
                ("p\(pod)ad\(ad)", Array(repeating: 5.0, count: Int.random(in: 1...4, using: &random)))
            }
        }
        let hasSlate = Bool.random(using: &random)
        var driver = LiveSessionDriver(
            channel: channel, hasSlate: hasSlate, ads: { podShapes[$0.number % podShapes.count] })
        let renditions = ["v0", "v1", "a0", "s0"]
        var validators = renditions.map { LiveReloadValidator(source: $0) }
        var fetched = renditions.map { _ in 0 }
        var held: Set<Int> = []
        let start = Int.random(in: 6...30, using: &random)
        for (step, last) in (start...(start + 100)).enumerated() {
            // Some decisions miss one reload (the server waits at most its ad budget).
            driver.advance(
                last: last,
                hold: { pending in
                    if held.contains(pending.number) { return false }
                    held.insert(pending.number)
                    return pending.number % 3 == 1
                })
            var windows: [(name: String, playlist: MediaPlaylist)] = []
            for (index, rendition) in renditions.enumerated() {
                // Each rendition's origin window may lag the reference by up to two segments, never going back.
                fetched[index] = max(fetched[index], last - Int.random(in: 0...2, using: &random))
                let window = driver.render(rendition, last: fetched[index])
                validators[index].observe(window, at: Double(step) * 6)
                windows.append((rendition, window))
                #expect(!window.segments.isEmpty, "seed \(seed) step \(step) \(rendition): empty window")
                #expect(window.segments.allSatisfy { $0.duration <= 6 })
            }
            let mismatch = RenditionSetValidator.check(windows)
            #expect(mismatch.isEmpty, "seed \(seed) step \(step): \(mismatch.map(\.message))")
        }
        for validator in validators {
            let errors = validator.diagnostics.filter { $0.rule != .playlistStale }
            #expect(errors.isEmpty, "seed \(seed) \(validator.source): \(errors.map(\.message).prefix(3))")
        }
        // The timeline keeps a bounded amount of state however long the session runs.
        #expect(driver.timeline.entries.count < 60)
        #expect(driver.timeline.breaks.count <= 4)
    }
}
