extension AdDecisionClient: AdDecisionProviding {}

extension BeaconDispatcher: BeaconSending {
    public func send(_ urls: [String], context: String) {
        fire(urls, context: context)
    }
}
