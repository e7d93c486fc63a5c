extension AdDecisionClient: AdDecisionProviding {}

extension BeaconDispatcher: BeaconSending {
    package func send(_ urls: [String], context: String) {
        fire(urls, context: context)
    }
}
