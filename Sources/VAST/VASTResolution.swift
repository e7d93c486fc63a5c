/// A VAST response with every wrapper followed: the InLine ads to play and the chains that failed.
public struct VASTResolution: Sendable, Equatable {
    /// The original document with each wrapper ad replaced by the InLine ad(s) it led to, in place.
    /// Failed wrappers are removed. ``VASTDocument/podAds`` and ``VASTDocument/standaloneAds`` still work.
    public var document: VASTDocument
    /// One entry per chain that ended without an ad, in document order.
    public var failures: [Failure]

    /// A wrapper chain that ended without an ad.
    public struct Failure: Sendable, Equatable {
        /// `id` of the ad in the original document that started the chain.
        public var adId: String?
        /// `sequence` of that ad.
        public var sequence: Int?
        /// Why the chain failed; never ``WrapperOutcome/resolved(_:)``.
        public var outcome: WrapperOutcome

        public init(adId: String?, sequence: Int?, outcome: WrapperOutcome) {
            self.adId = adId
            self.sequence = sequence
            self.outcome = outcome
        }
    }

    public init(document: VASTDocument, failures: [Failure]) {
        self.document = document
        self.failures = failures
    }

    /// The resolved InLine ads, in document order.
    public var ads: [VASTAd] { document.ads }
}
