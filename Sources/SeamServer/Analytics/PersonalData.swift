/// What a session start knows about the viewer that identifies a person or a device: the device's
/// IP address, its User-Agent, and the ad parameters that are device or user ids. Analytics events
/// carry these only through `AnalyticsPrivacy`; every other field of an event is about the
/// content, the ads and Seam.
package struct PersonalData: Sendable, Equatable {
    package var deviceIP: String?
    package var userAgent: String?
    /// Device and user ids from the ad parameters, by the parameter's own name (`ifa`, `rdid`, ...).
    package var deviceIDs: [String: String]

    package init(deviceIP: String? = nil, userAgent: String? = nil, deviceIDs: [String: String] = [:]) {
        self.deviceIP = deviceIP
        self.userAgent = userAgent
        self.deviceIDs = deviceIDs
    }

    package var isEmpty: Bool { deviceIP == nil && userAgent == nil && deviceIDs.isEmpty }

    /// Ad parameter names that are device or user ids, compared without letter case, `_`, `-` or
    /// `.` (`device_id`, `deviceId` and `device-id` are one name). Listed in `docs/analytics.md`.
    package static let deviceIDParameters: Set<String> = [
        "ifa", "idfa", "idfv", "aaid", "gaid", "adid", "rdid", "afai", "msai", "tifa", "lgudid", "vaid",
        "deviceid", "advertisingid", "advertiserid", "uid", "userid", "ppid", "subscriberid", "accountid",
    ]

    /// Ad parameter names that carry the viewer's IP address or User-Agent (some players send them
    /// as ad parameters too); treated like the request's own.
    package static let ipParameters: Set<String> = ["ip", "uip", "deviceip", "clientip"]
    package static let userAgentParameters: Set<String> = ["ua", "useragent"]

    /// The form a parameter name is compared in: lowercase, without `_`, `-` and `.`.
    package static func normalized(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.filter { $0 != "_" && $0 != "-" && $0 != "." })
    }

    /// Whether an ad parameter named `name` is personal data (a device id, an IP or a User-Agent).
    package static func isPersonal(parameter name: String) -> Bool {
        let key = normalized(name)
        return deviceIDParameters.contains(key) || ipParameters.contains(key) || userAgentParameters.contains(key)
    }

    /// Whether the viewer's consent lets device ids be stored: not when the player said
    /// `allowStorage: false`, nor when GDPR applies (`gdpr: true`) and no consent string came.
    /// IP and User-Agent still follow the privacy mode: they are how the request reached Seam.
    package static func allowsDeviceIDs(_ consent: SessionRequest.Consent?) -> Bool {
        guard let consent else { return true }
        if consent.allowStorage == false { return false }
        if consent.gdpr == true, (consent.gdprConsent ?? "").isEmpty { return false }
        return true
    }

    /// A session's personal data: the request's device IP and User-Agent (an ad parameter naming
    /// them stands in when the request has none) and the device-id ad parameters, the latter only
    /// when consent allows them.
    package init(_ inputs: SessionInputs) {
        var deviceIP = inputs.deviceIP
        var userAgent = inputs.userAgent
        var ids: [String: String] = [:]
        let allowIDs = Self.allowsDeviceIDs(inputs.request.consent)
        for (name, value) in inputs.request.adParams ?? [:] where !value.isEmpty {
            let key = Self.normalized(name)
            if Self.ipParameters.contains(key) {
                deviceIP = deviceIP ?? value
            } else if Self.userAgentParameters.contains(key) {
                userAgent = userAgent ?? value
            } else if Self.deviceIDParameters.contains(key), allowIDs {
                ids[name] = value
            }
        }
        self.init(
            deviceIP: deviceIP.flatMap { $0.isEmpty ? nil : $0 },
            userAgent: userAgent.flatMap { $0.isEmpty ? nil : $0 },
            deviceIDs: ids)
    }

    /// The ad parameters with every personal one removed: what events may carry as they are.
    package static func impersonalParameters(_ parameters: [String: String]?) -> [String: String] {
        (parameters ?? [:]).filter { !isPersonal(parameter: $0.key) }
    }
}
