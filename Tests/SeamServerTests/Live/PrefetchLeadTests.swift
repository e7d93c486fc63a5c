import Testing

@testable import SeamServer

/// Each session's prefetch lead: fixed by its id, within the spread, the sessions spread evenly.
@Suite struct PrefetchLeadTests {
    static func seconds(_ duration: Duration?) -> Double? {
        duration.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
    }

    @Test("Off without a lead; the whole lead without a spread")
    func offAndUnspread() {
        let id = InMemorySessionStoreTests.ids.issue()
        #expect(PrefetchLead.lead(for: id, seconds: 0, spread: 10) == nil)
        #expect(Self.seconds(PrefetchLead.lead(for: id, seconds: 60, spread: 0)) == 60)
    }

    @Test(
        "With a spread: each session's lead is between lead − spread and lead, the same at every reload, the sessions spread over it"
    )
    func spread() throws {
        let ids = (0..<2000).map { _ in InMemorySessionStoreTests.ids.issue() }
        var buckets = Array(repeating: 0, count: 5)
        for id in ids {
            let lead = try #require(Self.seconds(PrefetchLead.lead(for: id, seconds: 60, spread: 50)))
            #expect(lead > 10 - 0.001 && lead <= 60, "\(lead)")
            #expect(Self.seconds(PrefetchLead.lead(for: id, seconds: 60, spread: 50)) == lead, "the same every time")
            buckets[min(4, Int((60 - lead) / 10))] += 1
        }
        // 2,000 sessions over five 10 s slices: about 400 each.
        #expect(buckets.allSatisfy { (300...500).contains($0) }, "\(buckets)")
        // A spread beyond the lead is held to it.
        let id = try #require(ids.first)
        #expect(try #require(Self.seconds(PrefetchLead.lead(for: id, seconds: 10, spread: 50))) >= 0)
    }
}
