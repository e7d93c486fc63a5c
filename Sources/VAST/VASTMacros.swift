import Foundation

/// Values for the IAB VAST macros (`[CACHEBUSTING]`, `[TIMESTAMP]`, ...) and their expansion in
/// beacon and tag URLs.
///
/// Deterministic: the caller supplies every value, the cache buster and the time included, so a
/// test or a replay gives the same URL. Values are percent-encoded (RFC 3986 unreserved
/// characters kept) as VAST 4.x requires. Macros without a value, and unknown macros, are left as
/// they are, so a later stage (or the client) can still fill them.
public struct VASTMacros: Sendable, Equatable {
    /// `[CACHEBUSTING]`: a random number chosen by the caller, written as 8 digits.
    public var cacheBuster: UInt64?
    /// `[TIMESTAMP]`: the time of the request, written as ISO 8601 UTC with milliseconds.
    public var timestamp: Date?
    /// `[ERRORCODE]`.
    public var errorCode: VASTErrorCode?
    /// `[BREAKPOSITION]`.
    public var breakPosition: VASTBreakPosition?
    /// `[SERVERSIDE]`.
    public var serverSide: VASTServerSide?
    /// `[DEVICEIP]`.
    public var deviceIP: String?
    /// `[DEVICEUA]`.
    public var deviceUserAgent: String?
    /// `[GDPR]`: whether GDPR applies (written `1` or `0`).
    public var gdpr: Bool?
    /// `[GDPRCONSENT]`: the TCF consent string.
    public var gdprConsent: String?
    /// `[ADPLAYHEAD]`: seconds into the ad, written `HH:MM:SS.mmm`.
    public var adPlayhead: Double?
    /// `[CONTENTPLAYHEAD]` and its VAST 4.1 name `[MEDIAPLAYHEAD]`: seconds into the content.
    public var contentPlayhead: Double?
    /// `[ASSETURI]`: the URI of the ad asset being played.
    public var assetURI: String?
    /// `[PODSEQUENCE]`: the ad's `sequence` in its pod.
    public var podSequence: Int?
    /// `[ADCOUNT]`: the number of ads played in the break so far.
    public var adCount: Int?
    /// `[LIMITADTRACKING]`: written `1` or `0`.
    public var limitAdTracking: Bool?
    /// `[REGULATIONS]`: regulations in force, e.g. `["gdpr", "coppa"]`, written comma-separated.
    public var regulations: [String]?
    /// `[TRANSACTIONID]`: one id for the whole ad request chain.
    public var transactionID: String?
    /// `[APPBUNDLE]`.
    public var appBundle: String?
    /// `[DOMAIN]`.
    public var domain: String?
    /// `[PAGEURL]`.
    public var pageURL: String?
    /// Further macros by name (without brackets, upper case), e.g. `["CLIENTUA": "..."]`. Raw values.
    public var custom: [String: String]

    public init(
        cacheBuster: UInt64? = nil, timestamp: Date? = nil, errorCode: VASTErrorCode? = nil,
        breakPosition: VASTBreakPosition? = nil, serverSide: VASTServerSide? = nil, deviceIP: String? = nil,
        deviceUserAgent: String? = nil, gdpr: Bool? = nil, gdprConsent: String? = nil, adPlayhead: Double? = nil,
        contentPlayhead: Double? = nil, assetURI: String? = nil, podSequence: Int? = nil, adCount: Int? = nil,
        limitAdTracking: Bool? = nil, regulations: [String]? = nil, transactionID: String? = nil,
        appBundle: String? = nil, domain: String? = nil, pageURL: String? = nil, custom: [String: String] = [:]
    ) {
        self.cacheBuster = cacheBuster
        self.timestamp = timestamp
        self.errorCode = errorCode
        self.breakPosition = breakPosition
        self.serverSide = serverSide
        self.deviceIP = deviceIP
        self.deviceUserAgent = deviceUserAgent
        self.gdpr = gdpr
        self.gdprConsent = gdprConsent
        self.adPlayhead = adPlayhead
        self.contentPlayhead = contentPlayhead
        self.assetURI = assetURI
        self.podSequence = podSequence
        self.adCount = adCount
        self.limitAdTracking = limitAdTracking
        self.regulations = regulations
        self.transactionID = transactionID
        self.appBundle = appBundle
        self.domain = domain
        self.pageURL = pageURL
        self.custom = custom
    }

    /// The raw (not yet encoded) value of every macro that has one, keyed by upper-case name.
    public var values: [String: String] {
        var values: [String: String] = [:]
        for (name, value) in custom { values[name.uppercased()] = value }
        func set(_ name: String, _ value: String?) { if let value { values[name] = value } }
        set("CACHEBUSTING", cacheBuster.map(VASTMacros.formatCacheBuster))
        set("TIMESTAMP", timestamp.map(VASTMacros.formatTimestamp))
        set("ERRORCODE", errorCode.map { String($0.rawValue) })
        set("BREAKPOSITION", breakPosition.map { String($0.rawValue) })
        set("SERVERSIDE", serverSide.map { String($0.rawValue) })
        set("DEVICEIP", deviceIP)
        set("DEVICEUA", deviceUserAgent)
        set("GDPR", gdpr.map { $0 ? "1" : "0" })
        set("GDPRCONSENT", gdprConsent)
        set("ADPLAYHEAD", adPlayhead.map(VASTTime.format))
        set("CONTENTPLAYHEAD", contentPlayhead.map(VASTTime.format))
        set("MEDIAPLAYHEAD", contentPlayhead.map(VASTTime.format))
        set("ASSETURI", assetURI)
        set("PODSEQUENCE", podSequence.map { String($0) })
        set("ADCOUNT", adCount.map { String($0) })
        set("LIMITADTRACKING", limitAdTracking.map { $0 ? "1" : "0" })
        set("REGULATIONS", regulations.map { $0.joined(separator: ",") })
        set("TRANSACTIONID", transactionID)
        set("APPBUNDLE", appBundle)
        set("DOMAIN", domain)
        set("PAGEURL", pageURL)
        return values
    }

    /// The IAB macros these values can fill (upper case).
    public static let names: Set<String> = [
        "CACHEBUSTING", "TIMESTAMP", "ERRORCODE", "BREAKPOSITION", "SERVERSIDE", "DEVICEIP", "DEVICEUA", "GDPR",
        "GDPRCONSENT", "ADPLAYHEAD", "CONTENTPLAYHEAD", "MEDIAPLAYHEAD", "ASSETURI", "PODSEQUENCE", "ADCOUNT",
        "LIMITADTRACKING", "REGULATIONS", "TRANSACTIONID", "APPBUNDLE", "DOMAIN", "PAGEURL",
    ]

    /// VAST 4.x's value for a macro whose value is unknown.
    public static let unknown = "-1"

    /// `template` with every known macro replaced by its percent-encoded value.
    ///
    /// Recognises `[NAME]` with any letter case, and `%5BNAME%5D` (ad servers that encoded the
    /// brackets). Names are letters, digits and `_`; anything else in brackets is left alone.
    /// With `unset`, an IAB macro of ``names`` that has no value is replaced by it (an ad request
    /// is sent once: a macro left in it reaches the ad server as literal text); without, it is
    /// left for a later stage to fill.
    public func expand(_ template: String, unset: String? = nil) -> String {
        // Values are made and encoded only for the macros the template holds: every beacon and
        // ad request comes here, and most name two or three of the twenty.
        guard Self.mayHoldMacro(template) else { return template }
        var output = ""
        output.reserveCapacity(template.utf8.count)
        var rest = Substring(template)
        while let open = rest.firstIndex(where: { $0 == "[" || $0 == "%" }) {
            output += rest[..<open]
            let (opener, closer) = rest[open] == "[" ? ("[", "]") : ("%5B", "%5D")
            guard rest[open...].prefix(opener.count).uppercased() == opener else {
                output.append(rest[open])
                rest = rest[rest.index(after: open)...]
                continue
            }
            let nameStart = rest.index(open, offsetBy: opener.count)
            let name = rest[nameStart...].prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
            let afterName = name.endIndex
            if !name.isEmpty, rest[afterName...].prefix(closer.count).uppercased() == closer,
                let value = value(named: name.uppercased(), unset: unset)
            {
                output += VASTMacros.percentEncode(value)
                rest = rest[rest.index(afterName, offsetBy: closer.count)...]
            } else {
                output.append(rest[open])
                rest = rest[rest.index(after: open)...]
            }
        }
        output += rest
        return output
    }

    /// The raw value of macro `name` (upper case) as ``values`` has it, else `unset` for one of
    /// ``names``, else nil.
    func value(named name: String, unset: String?) -> String? {
        let standard: String? =
            switch name {
            case "CACHEBUSTING": cacheBuster.map(VASTMacros.formatCacheBuster)
            case "TIMESTAMP": timestamp.map(VASTMacros.formatTimestamp)
            case "ERRORCODE": errorCode.map { String($0.rawValue) }
            case "BREAKPOSITION": breakPosition.map { String($0.rawValue) }
            case "SERVERSIDE": serverSide.map { String($0.rawValue) }
            case "DEVICEIP": deviceIP
            case "DEVICEUA": deviceUserAgent
            case "GDPR": gdpr.map { $0 ? "1" : "0" }
            case "GDPRCONSENT": gdprConsent
            case "ADPLAYHEAD": adPlayhead.map(VASTTime.format)
            case "CONTENTPLAYHEAD", "MEDIAPLAYHEAD": contentPlayhead.map(VASTTime.format)
            case "ASSETURI": assetURI
            case "PODSEQUENCE": podSequence.map { String($0) }
            case "ADCOUNT": adCount.map { String($0) }
            case "LIMITADTRACKING": limitAdTracking.map { $0 ? "1" : "0" }
            case "REGULATIONS": regulations.map { $0.joined(separator: ",") }
            case "TRANSACTIONID": transactionID
            case "APPBUNDLE": appBundle
            case "DOMAIN": domain
            case "PAGEURL": pageURL
            default: nil
            }
        if let standard { return standard }
        if !custom.isEmpty, let own = custom[name] ?? custom.first(where: { $0.key.uppercased() == name })?.value {
            return own
        }
        return unset.flatMap { Self.names.contains(name) ? $0 : nil }
    }

    /// Whether `template` has a `[` or a `%5` (an encoded bracket) anywhere: without, there is no
    /// macro to expand.
    private static func mayHoldMacro(_ template: String) -> Bool {
        var afterPercent = false
        for byte in template.utf8 {
            if byte == UInt8(ascii: "[") || (afterPercent && byte == UInt8(ascii: "5")) { return true }
            afterPercent = byte == UInt8(ascii: "%")
        }
        return false
    }

    /// `value` percent-encoded as VAST 4.x asks: RFC 3986 unreserved characters kept, every other
    /// UTF-8 byte written `%XX`.
    public static func percentEncode(_ value: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(value.utf8.count)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                bytes.append(byte)
            default:
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A cache buster as the 8 digits IAB asks for (the number modulo 10^8, zero-padded).
    public static func formatCacheBuster(_ number: UInt64) -> String {
        VASTTime.pad(Int64(number % 100_000_000), 8)
    }

    /// ISO 8601 in UTC with milliseconds, e.g. `2016-01-17T08:15:07.127Z`. No locale, no calendar object.
    public static func formatTimestamp(_ date: Date) -> String {
        // Clamped to years 0001–9999 so the conversion can never trap and the year has 4 digits.
        let raw = date.timeIntervalSince1970 * 1000
        let milliseconds = raw.isFinite ? Int64(min(max(raw, -62_135_596_800_000), 253_402_300_799_999).rounded()) : 0
        let (days, dayMilliseconds) = floorDivision(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        let seconds = dayMilliseconds / 1000
        return VASTTime.pad(year, 4) + "-" + VASTTime.pad(month, 2) + "-" + VASTTime.pad(day, 2) + "T"
            + VASTTime.pad(seconds / 3600, 2) + ":" + VASTTime.pad(seconds / 60 % 60, 2) + ":"
            + VASTTime.pad(seconds % 60, 2)
            + "." + VASTTime.pad(dayMilliseconds % 1000, 3) + "Z"
    }

    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let quotient = value >= 0 ? value / divisor : -((-value + divisor - 1) / divisor)
        return (quotient, value - quotient * divisor)
    }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    private static func civilDate(daysSinceEpoch: Int64) -> (Int64, Int64, Int64) {
        let z = daysSinceEpoch + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// `[BREAKPOSITION]` values.
public enum VASTBreakPosition: Int, Sendable, Hashable, CaseIterable {
    case preRoll = 1
    case midRoll = 2
    case postRoll = 3
    case standalone = 4
}

/// `[SERVERSIDE]` values: who makes the request.
public enum VASTServerSide: Int, Sendable, Hashable, CaseIterable {
    /// The client (player) itself.
    case client = 0
    /// A server on behalf of a client: SSAI, Seam's normal case.
    case serverForClient = 1
    /// A server with no client involved.
    case serverOnly = 2
}
