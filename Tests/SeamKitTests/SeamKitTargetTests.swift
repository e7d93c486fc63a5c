import Foundation
import SeamKit
import Testing

@Suite struct SeamKitTargetTests {
    @Test func trackingDocumentRoundTripsThroughSeamWire() throws {
        let document = TrackingDocument(sessionId: "s", trackingMode: "client", durationSeconds: 60, avails: [], cuePoints: [0, -1])
        let decoded = try JSONDecoder().decode(TrackingDocument.self, from: JSONEncoder().encode(document))
        #expect(decoded == document)
    }
}
