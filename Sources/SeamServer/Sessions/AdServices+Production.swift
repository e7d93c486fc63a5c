extension AdDecisionClient: AdDecisionProviding {}

extension BeaconDispatcher: BeaconSending {
    package func send(
        _ urls: [String], event: String, viewer: BeaconViewer, context: String, report: BeaconReport?
    ) {
        fire(urls, event: event, viewer: viewer, context: context, report: report)
    }
}
