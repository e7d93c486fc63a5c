import NIOCore
import Testing
@testable import SeamServer

@Suite struct BodyArenaTests {
    @Test func slicesHoldTheSameBytesInOneAllocation() {
        var arena = BodyArena()
        let bodies = ["#EXTM3U\n", String(repeating: "x", count: 1500), "", "{\"ASSETS\":[]}"].map {
            ByteBuffer(string: $0)
        }
        let indices = bodies.map { arena.add($0) }
        let slices = arena.slices()
        #expect(indices == [0, 1, 2, 3])
        #expect(slices == bodies)
        // One storage: each slice starts where the one before ends.
        let starts = slices.map { slice in slice.withUnsafeReadableBytes { Int(bitPattern: $0.baseAddress) } }
        #expect(starts[1] - starts[0] == 8)
        #expect(starts[3] - starts[1] == 1500)
    }
}
