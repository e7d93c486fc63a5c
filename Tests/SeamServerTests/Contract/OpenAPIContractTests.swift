import Foundation
import Hummingbird
import Testing
@testable import SeamServer
import Stitching

/// `docs/openapi.yaml` against the Swift types the server speaks, so the two cannot drift.
///
/// Issue 13 allows generating the types from the spec (swift-openapi-generator) or checking them
/// against it. This checks: the types stay hand-written, Codable and shared with SeamKit
/// (SeamWire), no generator or its runtime joins the build, and a field added on either side
/// fails here, naming it. For each type, a fixture with every field set (`WireFixtures`) is
/// encoded and must have exactly the schema's properties, with the schema's types, enums and
/// patterns, all the way down; taking each member out must make the type refuse the document
/// exactly when the schema requires it. The running server is checked against the same file by
/// scripts/schemathesis.sh.
@Suite struct OpenAPIContractTests {
    let spec: OpenAPIDocument

    init() throws {
        spec = try OpenAPIDocument.repository()
    }

    /// The answers, one schema each: what the server encodes is what the spec says, member for member.
    static let answers: [(schema: String, value: any Encodable & Sendable)] = [
        ("SessionCreated", WireFixtures.created),
        ("PassThrough", WireFixtures.passThrough),
        ("KeepAlive", WireFixtures.keepAlive),
        ("Error", WireFixtures.error),
        ("TrackingDocument", WireFixtures.tracking),
        ("AssetList", WireFixtures.assetList),
        ("SessionCreateBody", WireFixtures.createBody),
        ("SessionStoryDocument", WireFixtures.story),
        ("BreakAnnouncementBody", WireFixtures.breakBody),
        ("BreakAnnouncement", WireFixtures.announcement),
        ("BreakAnnouncementList", BreakAnnouncementList(breaks: [WireFixtures.announcement])),
    ]

    @Test("The fixtures set every field, so every member of every type is checked")
    func fixturesAreFull() {
        for (schema, value) in Self.answers {
            #expect(WireFixtures.unsetFields(value) == [], "\(schema): fill these in WireFixtures (and the schema)")
        }
    }

    @Test(
        "Each wire type encodes exactly its schema's properties, with their types and enums",
        arguments: OpenAPIContractTests.answers.map(\.schema))
    func encodedShapeMatchesSchema(_ name: String) throws {
        let value = try #require(Self.answers.first { $0.schema == name }).value
        let document = try JSONValue(encoding: value)
        #expect(try spec.mismatches(document, spec.schema(name)) == [])
    }

    @Test("Each wire type requires exactly the schema's required fields")
    func requiredMatchesSchema() throws {
        #expect(
            try spec.requiredMismatches(
                SessionCreated.self, JSONValue(encoding: WireFixtures.created), spec.schema("SessionCreated")) == [])
        #expect(
            try spec.requiredMismatches(
                PassThrough.self, JSONValue(encoding: WireFixtures.passThrough), spec.schema("PassThrough")) == [])
        #expect(
            try spec.requiredMismatches(
                KeepAlive.self, JSONValue(encoding: WireFixtures.keepAlive), spec.schema("KeepAlive")) == [])
        #expect(
            try spec.requiredMismatches(
                APIErrorBody.self, JSONValue(encoding: WireFixtures.error), spec.schema("Error")) == [])
        #expect(
            try spec.requiredMismatches(
                TrackingDocument.self, JSONValue(encoding: WireFixtures.tracking), spec.schema("TrackingDocument"))
                == [])
        #expect(
            try spec.requiredMismatches(
                AssetList.self, JSONValue(encoding: WireFixtures.assetList), spec.schema("AssetList")) == [])
        #expect(
            try spec.requiredMismatches(
                SessionCreateBody.self, JSONValue(encoding: WireFixtures.createBody), spec.schema("SessionCreateBody"))
                == [])
        #expect(
            try spec.requiredMismatches(
                SessionStoryDocument.self, JSONValue(encoding: WireFixtures.story),
                spec.schema("SessionStoryDocument")) == [])
    }

    @Test("The server's SessionRequest accepts exactly the request schema: its fields, its required, its closed policy")
    func sessionRequestMatchesSchema() throws {
        let schema = try spec.schema("SessionCreateBody")
        let body = try JSONValue(encoding: WireFixtures.createBody)
        // What the server decodes, member by member, and which unknown members it refuses.
        #expect(try spec.requiredMismatches(SessionRequest.self, body, schema, unknownMembers: true) == [])
        // Every field SessionRequest has is in the schema (a field the server reads and the spec
        // does not name shows here: SessionRequest encodes all it holds).
        let request = try JSONDecoder().decode(SessionRequest.self, from: JSONEncoder().encode(WireFixtures.createBody))
        #expect(WireFixtures.unsetFields(request) == [])
        #expect(try spec.mismatches(JSONValue(encoding: request), schema) == [])
        // A value outside an enum of the schema is refused by the server too.
        for (field, wrong) in [("mode", "ssai"), ("trackingMode", "none"), ("pipOf", "not-a-session")] {
            let changed = body.changingObject(at: []) { $0[field] = .string(wrong) }
            #expect(!changed.decodes(as: SessionRequest.self), "\(field) = \(wrong)")
        }
        for (field, wrong) in [
            ("restrict", JSONValue.array([.string("seek")])), ("snap", .array([.string("both")])),
            ("repeat", .string("twice")),
        ] {
            let changed = body.changingObject(at: [.key("policy")]) { $0[field] = wrong }
            #expect(!changed.decodes(as: SessionRequest.self), "policy.\(field)")
        }
    }

    @Test("The spec's enums are SeamWire's enums' cases (one vocabulary for server and SeamKit)")
    func enumsMatch() throws {
        #expect(try enumValues(spec.schema("Mode")) == SessionMode.allCases.map(\.rawValue))
        #expect(try enumValues(spec.schema("TrackingMode")) == TrackingMode.allCases.map(\.rawValue))
        #expect(try enumValues(spec.schema("Repeat")) == AdPolicy.Repeat.allCases.map(\.rawValue))
        let policy = try #require(spec.schema("Policy")["properties"] as? [String: Any])
        #expect(try enumValues(items(of: policy["restrict"])) == AdPolicy.Restriction.allCases.map(\.rawValue))
        #expect(try enumValues(items(of: policy["snap"])) == AdPolicy.Snap.allCases.map(\.rawValue))
        #expect(Set(policy.keys) == Set(AdPolicy.CodingKeys.allCases.map(\.stringValue)))
        let avail = try #require(spec.schema("Avail")["properties"] as? [String: Any])
        let positions = [BreakPosition.preroll, .midroll(seconds: 1), .postroll].map(\.name) + ["live"]
        #expect(try enumValues(spec.resolved(try #require(avail["position"] as? [String: Any]))) == positions)
    }

    /// `SeamErrorMiddleware`'s codes for Hummingbird's own errors, with their statuses.
    static let routerCodes = ["NOT_FOUND": 404, "METHOD_NOT_ALLOWED": 405]

    /// Each error response of the spec by the status it is answered with.
    static let errorResponses = [
        400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 409: "Conflict", 404: "NotFound", 410: "Gone",
        413: "PayloadTooLarge",
        429: "TooManyRequests", 500: "InternalError", 501: "NotImplemented", 502: "BadGateway",
        503: "ServiceUnavailable", 504: "GatewayTimeout",
    ]

    @Test("Every error code is in the spec under the status Seam answers it with, and no other")
    func errorCodesMatch() throws {
        let error = try #require(spec.schema("Error")["properties"] as? [String: Any])
        let detail = try #require((error["error"] as? [String: Any])?["properties"] as? [String: Any])
        let code = try #require(detail["code"] as? [String: Any])
        let listed = try #require((code["anyOf"] as? [[String: Any]])?.compactMap { $0["enum"] as? [String] }.first)
        let known = SeamError.Code.allCases.map(\.rawValue) + Self.routerCodes.keys.sorted()
        #expect(Set(listed) == Set(known))
        #expect(listed.count == known.count)

        var codesByStatus: [Int: Set<String>] = [:]
        for code in SeamError.Code.allCases { codesByStatus[Int(code.status.code), default: []].insert(code.rawValue) }
        for (code, status) in Self.routerCodes where status != 405 { codesByStatus[status, default: []].insert(code) }
        #expect(Set(codesByStatus.keys) == Set(Self.errorResponses.keys))
        for (status, name) in Self.errorResponses {
            let response = try spec.component("responses", name)
            let schema = try #require(
                ((response["content"] as? [String: Any])?["application/json"] as? [String: Any])?["schema"]
                    as? [String: Any])
            let narrowed = try #require((schema["allOf"] as? [[String: Any]])?.last)
            let codes = try #require(
                (((narrowed["properties"] as? [String: Any])?["error"] as? [String: Any])?["properties"]
                    as? [String: Any])?["code"] as? [String: Any])
            #expect(Set(codes["enum"] as? [String] ?? []) == codesByStatus[status], "\(status) \(name)")
        }
    }

    @Test("Every route the server serves is in the spec, and every path under /v1/ answers the CORS preflight")
    func routesMatch() throws {
        // The routes as the router holds them, conditioning and the debug route on (their routes
        // are added only then).
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "seam-contract-\(UInt64.random(in: 0...UInt64.max))"
        ).path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let harness = SessionRouteHarness {
            $0.conditioning.directory = directory
            $0.debug.token = "contract-test-debug-token-0123456789"
            $0.live.breaksToken = "contract-test-breaks-token-0123456789"
        }
        let router = Router(context: SeamRequestContext.self)
        try harness.routes().addRoutes(to: router)
        let served = Set(router.routes.map { Self.openAPIPath($0.path.description) }).union([
            "/healthz", "/readyz", "/metrics",
        ])
        #expect(Set(spec.paths.keys) == served)
        for (path, item) in spec.paths where path.hasPrefix("/v1/") {
            #expect(item["options"] != nil, "\(path) has no options (CORS preflight)")
        }
    }

    /// A Hummingbird route path as OpenAPI writes it: `:id` → `{id}`, the implicit session's
    /// `{host}/**` → `{host}/{path}`.
    static func openAPIPath(_ route: String) -> String {
        route.split(separator: "/", omittingEmptySubsequences: false).map { part -> String in
            if part == "**" { return "{path}" }
            if part.hasPrefix(":") { return "{" + part.dropFirst() + "}" }
            return String(part)
        }.joined(separator: "/")
    }

    func enumValues(_ schema: [String: Any]) -> [String] {
        schema["enum"] as? [String] ?? []
    }

    func items(of property: Any?) throws -> [String: Any] {
        try spec.resolved(try #require((property as? [String: Any])?["items"] as? [String: Any]))
    }
}
