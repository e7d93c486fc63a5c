import Testing
@testable import SeamServer

@Suite struct HeapUsageTests {
    #if os(Linux)
        @Test func heapInUseFollowsAnAllocationAndIsExported() throws {
            let before = try #require(HeapUsage.bytesInUse())
            let block = [UInt8](repeating: 1, count: 16 << 20)
            let during = try #require(HeapUsage.bytesInUse())
            // Other tests allocate and free at the same time: only most of the 16 MiB must show.
            #expect(during - before > 8 << 20)
            withExtendedLifetime(block) {}
            let page = String(decoding: SeamMetrics().exposition(), as: UTF8.self)
            #expect(page.contains("\(SeamMetrics.heapInUseName) "))
        }
    #endif
}
