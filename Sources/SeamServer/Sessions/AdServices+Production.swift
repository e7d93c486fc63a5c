extension AdDecisionClient: AdDecisionProviding {}

extension BeaconDispatcher: BeaconSending {
    package func send(_ urls: [String], event: String, context: String) {
        fire(urls, event: event, context: context)
    }
}
