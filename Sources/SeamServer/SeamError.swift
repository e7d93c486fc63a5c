import Foundation
import HTTPTypes

/// An error a client of Seam sees, as `{"error": {"code": ..., "message": ...}}` with a fitting status.
/// The message says what to do about it.
package struct SeamError: Error, Sendable, Equatable, CustomStringConvertible {
    package enum Code: String, Sendable, Codable, CaseIterable {
        case invalidPlaybackURL = "INVALID_PLAYBACK_URL"
        case invalidRequest = "INVALID_REQUEST"
        case domainNotAllowed = "DOMAIN_NOT_ALLOWED"
        /// The content (or the request) is a Seam's own: Seam does not put a Seam inside a Seam.
        case loopDetected = "LOOP_DETECTED"
        case sessionNotFound = "SESSION_NOT_FOUND"
        case sessionExpired = "SESSION_EXPIRED"
        case renditionNotFound = "RENDITION_NOT_FOUND"
        case payloadTooLarge = "PAYLOAD_TOO_LARGE"
        case rateLimited = "RATE_LIMITED"
        case originUnavailable = "ORIGIN_UNAVAILABLE"
        case originInvalidPlaylist = "ORIGIN_INVALID_PLAYLIST"
        case originTimeout = "ORIGIN_TIMEOUT"
        /// The origin answered plain HTTP to Seam's TLS: its URL's scheme (or `seam.scheme`) is wrong.
        case originNotTLS = "ORIGIN_NOT_TLS"
        /// The origin answered 404 or 410: the URL names nothing there.
        case originNotFound = "ORIGIN_NOT_FOUND"
        case internalError = "INTERNAL_ERROR"
        /// The shared session store (PostgreSQL) cannot answer now; retrying shortly may work.
        case storeUnavailable = "STORE_UNAVAILABLE"
        /// A request option Seam knows but does not implement yet (named in the message).
        case notImplemented = "NOT_IMPLEMENTED"
        /// An operator route called without its bearer token (`conditioning.prefetchToken`).
        case unauthorized = "UNAUTHORIZED"
        /// A route for a feature this deployment has turned off (named in the message).
        case featureOff = "FEATURE_OFF"

        package var status: HTTPResponse.Status {
            switch self {
            case .invalidPlaybackURL, .invalidRequest: return .badRequest
            case .domainNotAllowed, .loopDetected: return .forbidden
            case .sessionNotFound, .renditionNotFound: return .notFound
            case .sessionExpired: return .gone
            case .payloadTooLarge: return .contentTooLarge
            case .rateLimited: return .tooManyRequests
            case .originUnavailable, .originInvalidPlaylist, .originNotTLS, .originNotFound: return .badGateway
            case .originTimeout: return .gatewayTimeout
            case .internalError: return .internalServerError
            case .storeUnavailable: return .serviceUnavailable
            case .notImplemented: return .notImplemented
            case .unauthorized: return .unauthorized
            case .featureOff: return .conflict
            }
        }
    }

    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.rawValue): \(message)" }

    /// The JSON body Seam answers with.
    package var jsonBody: [UInt8] {
        JSONResponses.errorBody(code: code.rawValue, message: message)
    }
}
