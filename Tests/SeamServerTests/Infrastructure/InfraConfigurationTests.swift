import Foundation
import Testing
@testable import SeamServer

@Suite("Infra: configuration loading")
struct InfraConfigurationTests {
    @Test("Nothing set gives the defaults")
    func defaults() throws {
        let configuration = try ConfigurationLoader(environment: [:]).load(yaml: nil)
        #expect(configuration == SeamConfiguration())
    }

    @Test("Defaults < YAML < environment < overrides")
    func precedence() throws {
        let yaml = """
            server:
              port: 9000
              host: 0.0.0.0
              gzip: false
            domains:
              mode: custom
              hosts: [cdn.example.com, "*.media.example.net"]
            ads:
              adTagURL: https://ads.example.com/vast?sid={session.id}
              cuePoints: [0, 300, -1]
            """
        let environment = [
            "SEAM_SERVER_PORT": "9100",
            "SEAM_SERVER_HOST": "10.0.0.5",
            "SEAM_UPSTREAM_ALLOW_PRIVATE_NETWORKS": "true",
        ]
        let loader = ConfigurationLoader(environment: environment)
        let configuration = try loader.load(yaml: yaml, overrides: ["server.port": "9200"])

        #expect(configuration.server.port == 9200)  // override beats env beats YAML
        #expect(configuration.server.host == "10.0.0.5")  // env beats YAML
        #expect(configuration.server.gzip == false)  // YAML beats default
        #expect(configuration.domains.mode == .custom)
        #expect(configuration.domains.hosts == ["cdn.example.com", "*.media.example.net"])
        #expect(configuration.ads.adTagURL == "https://ads.example.com/vast?sid={session.id}")
        #expect(configuration.ads.cuePoints == [0, 300, -1])
        #expect(configuration.upstream.allowPrivateNetworks == true)  // env beats default
        #expect(configuration.upstream.maxRedirects == SeamConfiguration().upstream.maxRedirects)  // untouched

        let withoutOverride = try loader.load(yaml: yaml)
        #expect(withoutOverride.server.port == 9100)
        let yamlOnly = try ConfigurationLoader(environment: [:]).load(yaml: yaml)
        #expect(yamlOnly.server.port == 9000)
        #expect(yamlOnly.server.host == "0.0.0.0")
    }

    @Test("Environment variables: lists comma-separated, every type parsed")
    func environmentValues() throws {
        let environment = [
            "SEAM_DOMAINS_MODE": "custom",
            "SEAM_DOMAINS_HOSTS": "a.example.com, *.b.example.com,,",
            "SEAM_ADS_AD_TAG_URL": "https://ads.example.com/tag",
            "SEAM_ADS_CUE_POINTS": "0,120.5,-1",
            "SEAM_UPSTREAM_MAX_VAST_BYTES": "2_000_000",
            "SEAM_UPSTREAM_ORIGIN_TIMEOUT_SECONDS": "1.5",
            "SEAM_SERVER_LOG_FORMAT": "JSON",
        ]
        let configuration = try ConfigurationLoader(environment: environment).load(yaml: nil)
        #expect(configuration.domains.mode == .custom)
        #expect(configuration.domains.hosts == ["a.example.com", "*.b.example.com"])
        #expect(configuration.ads.adTagURL == "https://ads.example.com/tag")
        #expect(configuration.ads.cuePoints == [0, 120.5, -1])
        #expect(configuration.upstream.maxVASTBytes == 2_000_000)
        #expect(configuration.upstream.originTimeoutSeconds == 1.5)
        #expect(configuration.server.logFormat == "json")
    }

    @Test(
        "Environment variable names follow SEAM_SECTION_FIELD in UPPER_SNAKE",
        arguments: [
            ("server.port", "SEAM_SERVER_PORT"),
            ("domains.mode", "SEAM_DOMAINS_MODE"),
            ("domains.hosts", "SEAM_DOMAINS_HOSTS"),
            ("ads.adTagURL", "SEAM_ADS_AD_TAG_URL"),
            ("upstream.allowPrivateNetworks", "SEAM_UPSTREAM_ALLOW_PRIVATE_NETWORKS"),
            ("upstream.maxVASTBytes", "SEAM_UPSTREAM_MAX_VAST_BYTES"),
            ("server.publicBaseURL", "SEAM_SERVER_PUBLIC_BASE_URL"),
            ("sessions.ttlSeconds", "SEAM_SESSIONS_TTL_SECONDS"),
        ])
    func environmentNames(path: String, variable: String) throws {
        let key = try #require(ConfigurationKey.named(path))
        #expect(key.environmentVariable == variable)
    }

    @Test("Every key has its own environment variable")
    func environmentNamesUnique() {
        let names = ConfigurationKey.all.map(\.environmentVariable)
        #expect(Set(names).count == names.count)
    }

    @Test("An unknown YAML key is an error naming it, with a suggestion")
    func unknownYAMLKey() {
        let yaml = """
            server:
              prot: 8080
            """
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: yaml, fileName: "seam.yaml")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.key == "server.prot")
        #expect(error?.description.contains("Did you mean server.port?") == true)
        #expect(error?.description.contains("seam.yaml line 2") == true)
    }

    @Test("An unknown YAML section is an error listing the sections")
    func unknownSection() {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: "sever:\n  port: 1\n")
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.key == "sever")
        #expect(error?.message.contains("server, domains, upstream, ads, sessions, beacons") == true)
    }

    @Test(
        "A bad YAML value names the key and the expected type",
        arguments: [
            ("server:\n  port: eighty\n", "server.port", "integer"),
            ("server:\n  gzip: sometimes\n", "server.gzip", "boolean"),
            ("domains:\n  mode: most\n", "domains.mode", "one of all, none, custom"),
            ("upstream:\n  originTimeoutSeconds: [1, 2]\n", "upstream.originTimeoutSeconds", "number"),
            ("ads:\n  cuePoints: [0, soon]\n", "ads.cuePoints", "list of numbers"),
            ("server:\n  host:\n", "server.host", "string"),
            ("ads:\n  adTagURL: {a: 1}\n", "ads.adTagURL", "mapping"),
        ])
    func badYAMLValue(yaml: String, key: String, expected: String) {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: yaml)
        }
        #expect(error?.kind == .invalidValue)
        #expect(error?.key == key)
        #expect(error?.description.contains(expected) == true, "\(String(describing: error))")
    }

    @Test("A bad environment value names the variable")
    func badEnvironmentValue() {
        let loader = ConfigurationLoader(environment: ["SEAM_UPSTREAM_ALLOW_PRIVATE_NETWORKS": "maybe"])
        let error = #expect(throws: ConfigurationError.self) { try loader.load(yaml: nil) }
        #expect(error?.key == "upstream.allowPrivateNetworks")
        #expect(error?.source == "environment variable SEAM_UPSTREAM_ALLOW_PRIVATE_NETWORKS")
        #expect(error?.message.contains("true or false") == true)
    }

    @Test("An unknown override key is an error; --set needs key=value")
    func badOverrides() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: nil, overrides: ["ads.adTagUrl": "x"])
        }
        #expect(error?.kind == .unknownKey)
        #expect(error?.message.contains("Did you mean ads.adTagURL?") == true)

        #expect(throws: ConfigurationError.self) { try ConfigurationLoader.parseOverride("server.port") }
        let parsed = try ConfigurationLoader.parseOverride("ads.adTagURL=https://x.test/?a=b")
        #expect(parsed.key == "ads.adTagURL")
        #expect(parsed.value == "https://x.test/?a=b")
    }

    @Test("Whole-configuration checks say where the bad value came from")
    func validation() {
        let loader = ConfigurationLoader(environment: ["SEAM_SERVER_PORT": "70000"])
        let error = #expect(throws: ConfigurationError.self) { try loader.load(yaml: nil) }
        #expect(error?.kind == .outOfRange)
        #expect(error?.key == "server.port")
        #expect(error?.source == "environment variable SEAM_SERVER_PORT")

        let custom = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: nil, overrides: ["domains.mode": "custom"])
        }
        #expect(custom?.key == "domains.hosts")

        let badHost = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(
                yaml: nil, overrides: ["upstream.allowedHosts": "https://cdn.example.com/"])
        }
        #expect(badHost?.key == "upstream.allowedHosts")
        #expect(badHost?.message.contains("without scheme or path") == true)

        let badNetwork = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(
                yaml: nil, overrides: ["upstream.allowedNetworks": "10.0.0.0/33"])
        }
        #expect(badNetwork?.key == "upstream.allowedNetworks")

        let zeroTimeout = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: nil, overrides: ["beacons.timeoutSeconds": "0"])
        }
        #expect(zeroTimeout?.key == "beacons.timeoutSeconds")
    }

    @Test("Broken YAML and unreadable files are reported as such")
    func unreadable() {
        let broken = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(yaml: "server: [unclosed\n")
        }
        #expect(broken?.kind == .unreadableFile)
        let missing = #expect(throws: ConfigurationError.self) {
            try ConfigurationLoader(environment: [:]).load(configFile: "/nonexistent/seam.yaml")
        }
        #expect(missing?.kind == .unreadableFile)
        #expect(missing?.source.contains("/nonexistent/seam.yaml") == true)
    }

    @Test("The file comes from --config or SEAM_CONFIG")
    func configFileFromEnvironment() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("seam-infra-\(UUID().uuidString).yaml")
            .path
        try "server:\n  port: 9321\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let configuration = try ConfigurationLoader(environment: ["SEAM_CONFIG": path]).load()
        #expect(configuration.server.port == 9321)
    }

    @Test("Unknown SEAM_ variables are reported, not fatal")
    func unrecognizedEnvironment() throws {
        let loader = ConfigurationLoader(environment: [
            "SEAM_SERVICE_HOST": "10.0.0.1", "SEAM_SERVER_PORT": "81", "HOME": "/root",
        ])
        _ = try loader.load(yaml: nil)
        #expect(loader.unrecognizedEnvironmentVariables() == ["SEAM_SERVICE_HOST"])
    }

    @Test("The key table covers every field of SeamConfiguration")
    func tableCoversStruct() {
        var fields: Set<String> = []
        for section in Mirror(reflecting: SeamConfiguration()).children {
            guard let sectionName = section.label else { continue }
            for field in Mirror(reflecting: section.value).children {
                guard let fieldName = field.label else { continue }
                // A group of keys inside a section (`ads.bumpers.startURL`): its fields are the keys.
                let group = Mirror(reflecting: field.value)
                if group.displayStyle == .struct, !group.children.isEmpty, !(field.value is String) {
                    for inner in group.children {
                        if let innerName = inner.label {
                            fields.insert(sectionName + "." + fieldName + "." + innerName)
                        }
                    }
                } else {
                    fields.insert(sectionName + "." + fieldName)
                }
            }
        }
        #expect(fields == Set(ConfigurationKey.all.map(\.path)))
    }

    @Test("The rendered YAML reads back to the same configuration")
    func renderRoundTrip() throws {
        let loader = ConfigurationLoader(environment: [:])
        let configuration = try loader.load(
            yaml: nil,
            overrides: [
                "domains.mode": "custom", "domains.hosts": "a.test,*.b.test", "ads.cuePoints": "0,12.5,-1",
                "ads.adTagURL": "https://ads.test/vast?x=\"y\"", "upstream.allowedNetworks": "10.1.0.0/16",
            ])
        let text = ConfigurationLoader.renderYAML(configuration)
        #expect(try loader.load(yaml: text) == configuration)
    }

    @Test("docs/configuration.md lists every key with its variable and default")
    func documentationIsComplete() throws {
        let docs = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("docs/configuration.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
        let defaults = SeamConfiguration()
        for key in ConfigurationKey.all {
            let row = rows.first { $0.hasPrefix("| `\(key.path)` |") }
            #expect(row != nil, "no row for \(key.path)")
            guard let row else { continue }
            #expect(row.contains("`\(key.environmentVariable)`"), "\(key.path): environment variable")
            let value = key.value(in: defaults)
            let shown = value.isEmpty ? "(empty)" : "`\(value)`"
            #expect(row.contains(shown), "\(key.path): default \(shown)")
        }
    }
}
