extension AdDecisionClient: AdDecisionProviding {}

extension BeaconDispatcher: BeaconSending {
    package func send(_ urls: [String], event: String, viewer: BeaconViewer, context: String) {
        fire(urls, event: event, viewer: viewer, context: context)
    }
}
