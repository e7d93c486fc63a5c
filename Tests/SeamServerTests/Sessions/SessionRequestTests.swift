import Foundation
import Testing
@testable import SeamServer
import Stitching

/// `POST /v1/sessions` bodies and implicit-session queries decode to typed options, and what
/// Seam does not know or do yet is refused by name.
@Suite struct SessionRequestTests {
    static func decode(_ json: String) throws -> SessionRequest {
        try JSONDecoder().decode(SessionRequest.self, from: Data(json.utf8))
    }

    /// The SeamError a body is refused with, or nil when it decodes.
    static func refusal(_ json: String) -> SeamError? {
        do {
            _ = try decode(json)
            return nil
        } catch let error as SeamError {
            return error
        } catch {
            return SeamError(.internalError, "not a SeamError: \(error)")
        }
    }

    @Test("Every option decodes to its type")
    func typedOptions() throws {
        let id = SessionIDKey.random().issue()
        let request = try Self.decode(
            #"""
            {"url": "https://origin.test/a.m3u8", "mode": "stitched", "trackingMode": "hybrid", "pipOf": "\#(id)",
             "policy": {"restrict": ["skip", "jump"], "snap": ["out"], "resumeOffset": 0, "playoutLimit": 30.5},
             "consent": {"gdpr": true, "gdprConsent": "CO-abc"}, "durationMs": 60000}
            """#)
        #expect(request.mode == .stitched)
        #expect(request.trackingMode == .hybrid)
        #expect(request.pipOf == id)
        #expect(
            request.policy == AdPolicy(restrict: [.skip, .jump], snap: [.out], resumeOffset: 0, playoutLimit: 30.5))
        #expect(request.consent == SessionRequest.Consent(gdpr: true, gdprConsent: "CO-abc"))
        #expect(request.durationMs == 60000)
        // And back: a stored request reads the same.
        #expect(try JSONDecoder().decode(SessionRequest.self, from: JSONEncoder().encode(request)) == request)
    }

    @Test("Absent and null options are absent; the tracking mode then is the configured one")
    func absentOptions() throws {
        let request = try Self.decode(
            #"{"url": "https://origin.test/a.m3u8", "mode": null, "trackingMode": null, "policy": null}"#)
        #expect(request.mode == nil)
        #expect(request.trackingMode == nil)
        #expect(request.policy == nil)
        #expect(request.pipOf == nil)
        #expect(request.trackingMode(default: "client") == .client)
        #expect(try Self.decode(#"{"url": "u", "trackingMode": "server"}"#).trackingMode(default: "client") == .server)
    }

    @Test(
        "Unknown values are INVALID_REQUEST naming the field and the values it takes",
        arguments: [
            (#"{"url": "u", "mode": "ssai"}"#, #"mode must be one of "stitched", "interstitials"; got "ssai""#),
            (
                #"{"url": "u", "trackingMode": "none"}"#,
                #"trackingMode must be one of "server", "client", "hybrid"; got "none""#
            ),
            (
                #"{"url": "u", "trackingMode": true}"#,
                #"trackingMode must be one of "server", "client", "hybrid"; got a value that is not a string"#
            ),
            (
                #"{"url": "u", "policy": {"snap": ["middle"]}}"#,
                #"policy.snap must be one of "in", "out"; got "middle""#
            ),
            (
                #"{"url": "u", "policy": {"snap": "in"}}"#,
                #"policy.snap must be one of "in", "out"; got something that is not a list of strings"#
            ),
            (
                #"{"url": "u", "policy": {"resumeOffset": -1}}"#,
                "policy.resumeOffset must be a number of seconds, 0 to 1000000000"
            ),
            (
                #"{"url": "u", "policy": {"playoutLimit": 0}}"#,
                "policy.playoutLimit must be a number of seconds, more than 0 to 1000000000"
            ),
            (
                #"{"url": "u", "policy": {"X-RESTRICT": "SKIP"}}"#,
                #"policy must be one of "restrict", "snap", "resumeOffset", "playoutLimit", "repeat"; got a field "X-RESTRICT""#
            ),
            (
                #"{"url": "u", "policy": [1]}"#,
                #"policy must be an object with any of "restrict", "snap", "resumeOffset", "playoutLimit", "repeat""#
            ),
            (
                #"{"url": "u", "policy": {"repeat": "twice"}}"#,
                #"policy.repeat must be one of "once", "everyTime"; got "twice""#
            ),
        ])
    func unknownValues(json: String, message: String) {
        let error = Self.refusal(json)
        #expect(error?.code == .invalidRequest, "\(json): \(String(describing: error))")
        #expect(error?.message == message)
    }

    @Test("Interstitials and a policy are accepted, and the policy maps to the interstitial attributes")
    func interstitialsAndPolicy() throws {
        let request = try Self.decode(
            #"{"url": "u", "mode": "interstitials", "policy": {"restrict": ["jump"], "snap": ["out"], "repeat": "everyTime", "resumeOffset": 2, "playoutLimit": 40}}"#
        )
        #expect(request.mode == .interstitials)
        let policy = InterstitialPolicy(request.policy)
        #expect(
            policy
                == InterstitialPolicy(
                    restrictSkip: false, restrictJump: true, snapOut: true, snapIn: false, playOnce: false,
                    resumeOffset: 2, playoutLimit: 40))
        // No policy: ads cannot be skipped or jumped over, each break plays once.
        #expect(
            InterstitialPolicy(nil)
                == InterstitialPolicy(
                    restrictSkip: true, restrictJump: true, snapOut: false, snapIn: false, playOnce: true))
        // An empty restrict list lifts every restriction.
        #expect(
            InterstitialPolicy(try Self.decode(#"{"url": "u", "policy": {"restrict": []}}"#).policy).restrictValues
                .isEmpty)
    }

    // MARK: Implicit sessions

    static func query(_ text: String) throws(SeamError) -> ImplicitSessionQuery {
        try ImplicitSessionQuery(query: text)
    }

    @Test(
        "The origin's parameters go on exactly as sent (a signed token's %2B, %26 and %3D stay encoded; + stays +); Seam decodes only the values it reads"
    )
    func implicitQueryKeepsTheOriginsBytes() throws {
        let query = try Self.query(
            "tok=a%2Bb%26c%3Dd&seam.scheme=http&sig=x%2Fy%3D%3D&plus=1+2&flag&&e=%26seam.scheme%3Dhttp&ads.site=a%20b%26c"
        )
        #expect(
            query.originQuery.joined(separator: "&")
                == "tok=a%2Bb%26c%3Dd&sig=x%2Fy%3D%3D&plus=1+2&flag&&e=%26seam.scheme%3Dhttp")
        #expect(query.scheme == "http")
        #expect(query.adParams == ["site": "a b&c"])
        // An encoded seam.* parameter inside a value stays the origin's: not a Seam option here,
        // nor one of a later hop.
        #expect(try Self.query("e=%26seam.scheme%3Dgopher").originQuery == ["e=%26seam.scheme%3Dgopher"])
        #expect(try Self.query("").originQuery.isEmpty)
        #expect(try Self.query("seam.mode=interstitials").originQuery.isEmpty)
    }

    @Test("seam.* parameters are Seam's options, ads.* ad parameters, the rest the origin's, in order")
    func implicitQuery() throws {
        let query = try Self.query(
            "token=abc&seam.scheme=HTTP&ads.site=news&seam.trackingMode=client&seam.mode=stitched&b=2&seam.policy.playoutLimit=20"
        )
        #expect(query.scheme == "http")
        #expect(query.adParams == ["site": "news"])
        #expect(query.originQuery == ["token=abc", "b=2"])
        let request = query.sessionRequest(url: "http://origin.test/a.m3u8?token=abc&b=2")
        #expect(request.trackingMode == .client)
        #expect(request.mode == .stitched)
        #expect(request.policy == AdPolicy(playoutLimit: 20))
        #expect(try Self.query("").scheme == "https")
    }

    @Test(
        "Unknown seam.* parameters and values are refused by name",
        arguments: [
            ("seam.tracking=client", "seam.tracking is not a Seam option"),
            ("seam.trackingMode=off", #"seam.trackingMode must be one of "server", "client", "hybrid"; got "off""#),
            ("seam.scheme=gopher", #"seam.scheme must be one of "http", "https"; got "gopher""#),
            (
                "seam.policy.restrict=skip,fastforward",
                #"seam.policy.restrict must be one of "skip", "jump"; got "fastforward""#
            ),
            ("seam.policy.resumeOffset=soon", "seam.policy.resumeOffset must be a number of seconds"),
        ])
    func implicitRefusals(text: String, message: String) {
        do {
            _ = try Self.query(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code == .invalidRequest)
            #expect(error.message.hasPrefix(message), "\(error.message)")
        }
    }
}
