/// One `Verification` of `AdVerifications`: a measurement script (OM SDK) a client runs alongside the ad.
///
/// Seam cannot run verification scripts server-side; it keeps them so client SDKs can.
/// ``rawXML`` holds the whole element for clients that need more than this light model.
public struct VASTVerification: Sendable, Equatable {
    /// `vendor` attribute, e.g. `company.com-omid`.
    public var vendor: String?
    public var javaScriptResources: [Resource]
    public var executableResources: [Resource]
    /// `VerificationParameters` text, passed to the script as is.
    public var parameters: String?
    /// `TrackingEvents` (e.g. `verificationNotExecuted`).
    public var trackingEvents: [VASTTrackingEvent]
    /// The `Verification` element serialised as XML.
    public var rawXML: String

    /// A `JavaScriptResource` or `ExecutableResource`.
    public struct Resource: Sendable, Hashable {
        public var url: String
        public var apiFramework: String?
        /// `browserOptional` (JavaScript) — whether the script can run outside a browser.
        public var browserOptional: Bool?
        /// `type` (executable resources).
        public var type: String?

        public init(url: String, apiFramework: String? = nil, browserOptional: Bool? = nil, type: String? = nil) {
            self.url = url
            self.apiFramework = apiFramework
            self.browserOptional = browserOptional
            self.type = type
        }
    }

    public init(
        vendor: String? = nil, javaScriptResources: [Resource] = [], executableResources: [Resource] = [],
        parameters: String? = nil, trackingEvents: [VASTTrackingEvent] = [], rawXML: String = ""
    ) {
        self.vendor = vendor
        self.javaScriptResources = javaScriptResources
        self.executableResources = executableResources
        self.parameters = parameters
        self.trackingEvents = trackingEvents
        self.rawXML = rawXML
    }
}
