/// For UIKit-style apps that take callbacks rather than iterate a stream. Called on the thread
/// that fed the playhead (an `AVPlayer` periodic time observer on the main queue: the main
/// thread), in the order the events happened.
public protocol SeamKitDelegate: AnyObject, Sendable {
    func adEventStream(_ stream: AdEventStream, didEmit event: AdEvent)
}
