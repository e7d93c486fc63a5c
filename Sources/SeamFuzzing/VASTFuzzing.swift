import VAST

/// The VAST target: an ad server's answer, as VAST and as VMAP, and the values Seam reads from it.
enum VASTFuzzing {
    static func run(_ bytes: [UInt8]) {
        if let document = try? VASTParser().parse(bytes) {
            read(document)
        }
        if let vmap = try? VMAPParser().parse(bytes) {
            for adBreak in vmap.adBreaks {
                _ = adBreak.timeOffset.seconds(contentDuration: 3600)
                _ = adBreak.timeOffset.seconds(contentDuration: 0)
                _ = adBreak.trackingURLs(for: .breakStart)
                if case .vastAdData(let document)? = adBreak.adSource?.content { read(document) }
            }
        }
        let text = String(decoding: bytes.prefix(256), as: UTF8.self)
        _ = VASTTime.seconds(from: text)
        if let offset = VASTOffset(text) {
            _ = (offset.seconds(duration: 30), offset.seconds(duration: nil), offset.description)
        }
        if let seconds = VASTTime.seconds(from: text) { _ = VASTTime.format(seconds) }
    }

    static func read(_ document: VASTDocument) {
        for ad in document.playbackAds {
            _ = (ad.sequence, ad.id)
            guard case .inline(let inline) = ad.body else { continue }
            for creative in inline.creatives {
                guard let linear = creative.linear else { continue }
                _ = linear.hlsMediaFiles
                _ = linear.trackingURLsByEvent
                if let duration = linear.duration {
                    _ = VASTTime.format(duration)
                    _ = linear.skipOffset?.seconds(duration: duration)
                }
                for event in linear.trackingEvents { _ = event.offset?.seconds(duration: linear.duration) }
            }
        }
    }
}
