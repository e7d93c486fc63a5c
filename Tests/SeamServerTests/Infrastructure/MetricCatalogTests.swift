import CoreMetrics
import Foundation
import SeamTesting
import Testing

@testable import SeamServer

/// The metric families Seam exposes, their `# HELP` lines and `docs/metrics.md` in step: an
/// operator finds every family on the page explained in the docs, and every documented family
/// is one Seam has.
@Suite struct MetricCatalogTests {
    static let docs: String = {
        let root = URL(fileURLWithPath: DemoTestSupport.samplesRoot).deletingLastPathComponent()
        return (try? String(contentsOf: root.appendingPathComponent("docs/metrics.md"), encoding: .utf8)) ?? ""
    }()

    /// The families docs/metrics.md has a table row for.
    static var documented: Set<String> {
        var names: Set<String> = []
        for line in docs.split(separator: "\n") where line.hasPrefix("| `") {
            let name = line.dropFirst(3).prefix { $0 != "`" }
            names.insert(String(name))
        }
        return names
    }

    @Test("Every family of the catalog has help text and a row in docs/metrics.md, and the docs name no other")
    func catalogAndDocsAgree() {
        let catalog = Set(SeamMetricCatalog.all.map(\.name))
        #expect(catalog.count == SeamMetricCatalog.all.count, "a family listed twice")
        #expect(SeamMetricCatalog.all.allSatisfy { $0.help.count > 20 })
        #expect(catalog.subtracting(Self.documented).isEmpty, "not in docs: \(catalog.subtracting(Self.documented))")
        #expect(Self.documented.subtracting(catalog).isEmpty, "not exposed: \(Self.documented.subtracting(catalog))")
    }

    @Test(
        "A counter made again through the factory counts into the same series; one destroyed and made again starts a new series that is exported"
    )
    func countersMadeOnce() {
        let metrics = SeamMetrics()
        let series = #"seam_ads_inserted_total{kind="live"}"#
        func value() -> String? {
            String(decoding: metrics.exposition(), as: UTF8.self).split(separator: "\n")
                .first { $0.hasPrefix(series + " ") }.map { String($0.dropFirst(series.count + 1)) }
        }
        let first = Counter(
            label: AdDeliveryMetrics.adsInsertedName, dimensions: [("kind", "live")], factory: metrics.factory)
        first.increment(by: 2)
        Counter(label: AdDeliveryMetrics.adsInsertedName, dimensions: [("kind", "live")], factory: metrics.factory)
            .increment(by: 3)
        // Another label value is another series.
        Counter(label: AdDeliveryMetrics.adsInsertedName, dimensions: [("kind", "vod")], factory: metrics.factory)
            .increment()
        #expect(value() == "5")
        first.destroy()
        #expect(value() == nil)
        Counter(label: AdDeliveryMetrics.adsInsertedName, dimensions: [("kind", "live")], factory: metrics.factory)
            .increment(by: 7)
        #expect(value() == "7")
    }

    @Test("A metric recorded through the factory carries its catalog help; one the catalog lacks, the library line")
    func helpLines() {
        let metrics = SeamMetrics()
        Counter(label: AdDeliveryMetrics.adsInsertedName, dimensions: [("kind", "vod")], factory: metrics.factory)
            .increment()
        Counter(label: "somelib_things_total", factory: metrics.factory).increment()
        let page = String(decoding: metrics.exposition(), as: UTF8.self)
        let help = SeamMetricCatalog.help(for: AdDeliveryMetrics.adsInsertedName)
        #expect(page.contains("# HELP seam_ads_inserted_total \(help)"))
        #expect(page.contains("# HELP somelib_things_total \(SeamMetricCatalog.libraryHelp)"))
        #expect(page.contains(#"seam_build_info{version="\#(SeamRelease.version)"} 1"#), "\(page)")
        let parsed = PrometheusText(page)
        #expect(parsed.typed.subtracting(parsed.helped).isEmpty)
    }
}
