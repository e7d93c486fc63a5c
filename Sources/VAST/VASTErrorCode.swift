/// The IAB VAST error codes (VAST 4.x section 2.3.6.3), sent in the `[ERRORCODE]` macro of `Error` beacons.
///
/// The raw value is the number the ad server expects; ``init(rawValue:)`` accepts any IAB code,
/// including those added after VAST 2.0.
public enum VASTErrorCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case xmlParsingError = 100
    case schemaValidationError = 101
    case versionNotSupported = 102
    case traffickingError = 200
    case unexpectedLinearity = 201
    case unexpectedDuration = 202
    case unexpectedSize = 203
    case adCategoryRequired = 204
    case inlineCategoryViolatesBlockedCategories = 205
    case adBreakShortened = 206
    case generalWrapperError = 300
    case wrapperTimeout = 301
    case wrapperLimitReached = 302
    case noAdsAfterWrapper = 303
    case inlineResponseTimeout = 304
    case generalLinearError = 400
    case fileNotFound = 401
    case mediaFileTimeout = 402
    case noSupportedMediaFile = 403
    case problemDisplayingMediaFile = 405
    case mezzanineRequired = 406
    case mezzanineDownloading = 407
    case conditionalAdRejected = 408
    case interactiveUnitNotExecuted = 409
    case verificationUnitNotExecuted = 410
    case mezzanineNotSpecified = 411
    case generalNonLinearError = 500
    case nonLinearDimensionsMismatch = 501
    case nonLinearResourceFetchFailed = 502
    case noSupportedNonLinearResource = 503
    case generalCompanionError = 600
    case companionDimensionsMismatch = 601
    case requiredCompanionNotDisplayed = 602
    case companionResourceFetchFailed = 603
    case noSupportedCompanionResource = 604
    case undefinedError = 900
    case generalVPAIDError = 901
    case generalInteractiveCreativeError = 902

    public var description: String {
        let text: String
        switch self {
        case .xmlParsingError: text = "XML parsing error"
        case .schemaValidationError: text = "VAST schema validation error"
        case .versionNotSupported: text = "VAST version of response not supported"
        case .traffickingError: text = "trafficking error: the ad is not of the expected kind"
        case .unexpectedLinearity: text = "expected different linearity"
        case .unexpectedDuration: text = "expected different duration"
        case .unexpectedSize: text = "expected different size"
        case .adCategoryRequired: text = "ad category was required but not provided"
        case .inlineCategoryViolatesBlockedCategories:
            text = "InLine category violates the wrapper's BlockedAdCategories"
        case .adBreakShortened: text = "ad break shortened; ad was not served"
        case .generalWrapperError: text = "general wrapper error"
        case .wrapperTimeout: text = "timeout of VAST URI of a wrapper, or the URI could not be retrieved"
        case .wrapperLimitReached: text = "wrapper limit reached"
        case .noAdsAfterWrapper: text = "no VAST response after one or more wrappers"
        case .inlineResponseTimeout:
            text = "InLine response returned ad unit that failed to result in ad display within timeout"
        case .generalLinearError: text = "general linear error"
        case .fileNotFound: text = "file not found: unable to find linear MediaFile from URI"
        case .mediaFileTimeout: text = "timeout of MediaFile URI"
        case .noSupportedMediaFile: text = "couldn't find a MediaFile that is supported"
        case .problemDisplayingMediaFile: text = "problem displaying MediaFile"
        case .mezzanineRequired: text = "mezzanine was required but not provided"
        case .mezzanineDownloading: text = "mezzanine is being downloaded for the first time"
        case .conditionalAdRejected: text = "conditional ad rejected"
        case .interactiveUnitNotExecuted: text = "interactive unit in InteractiveCreativeFile not executed"
        case .verificationUnitNotExecuted: text = "verification unit in Verification not executed"
        case .mezzanineNotSpecified: text = "mezzanine was provided but not as specified"
        case .generalNonLinearError: text = "general NonLinearAds error"
        case .nonLinearDimensionsMismatch: text = "NonLinear ad dimensions do not fit the display area"
        case .nonLinearResourceFetchFailed: text = "unable to fetch NonLinearAds resource"
        case .noSupportedNonLinearResource: text = "couldn't find a supported NonLinear resource"
        case .generalCompanionError: text = "general CompanionAds error"
        case .companionDimensionsMismatch: text = "companion dimensions do not fit the display area"
        case .requiredCompanionNotDisplayed: text = "unable to display a required companion"
        case .companionResourceFetchFailed: text = "unable to fetch CompanionAds resource"
        case .noSupportedCompanionResource: text = "couldn't find a supported companion resource"
        case .undefinedError: text = "undefined error"
        case .generalVPAIDError: text = "general VPAID error"
        case .generalInteractiveCreativeError: text = "general InteractiveCreativeFile error"
        }
        return "\(rawValue) \(text)"
    }
}
