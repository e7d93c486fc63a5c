import Foundation
import NIOCore
import SeamWire
import Stitching

extension SessionAccess {
    /// Counts an answered asset list and tells it in the session's story: where the player said
    /// it begins (`query`), and so which ads it passes by. The list itself is the same whatever
    /// the query (`AssetList.joinPoint(at:)`); it is read back from `body` only for a join inside
    /// the break, the rare case.
    func assetListAnswered(
        _ id: SessionID, breakID: InterstitialBreakID, query: AssetListQuery, body: ByteBuffer
    ) {
        var join = "start"
        var passed = 0
        var detail = "break \(breakID.text)"
        if query.joinsInside, let offset = query.startOffset {
            let list = try? JSONDecoder().decode(AssetList.self, from: Data(body.readableBytesView))
            if let point = list?.joinPoint(at: offset) {
                join = "inside"
                passed = point.asset
                detail +=
                    ": joins \(Self.seconds(offset)) s in, at asset \(point.asset + 1) of \(list?.assets.count ?? 0), \(Self.seconds(point.time)) s into it"
            } else {
                join = "after"
                passed = list?.assets.count ?? 0
                detail +=
                    ": joins \(Self.seconds(offset)) s in, past the list's end (\(Self.seconds(list?.totalDuration ?? 0)) s)"
            }
        }
        if let primary = query.primaryID { detail += "; _HLS_primary_id \(primary)" }
        analytics.metrics?.assetListAnswered(join: join, passed: passed)
        let story = sessions.story
        guard story.isOn else { return }
        var entry = SessionStoryEntry(time: SessionStoryEntries.stamp(story.now), event: .assetList)
        entry.outcome = join
        entry.seconds = query.startOffset
        entry.count = passed
        entry.detail = detail
        story.record(id, [entry])
    }

    private static func seconds(_ value: Double) -> String {
        String(format: "%.3f", value).replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
    }
}
