import Foundation
import Testing
@testable import DASH

/// The XML under every MPD: what is read is written back with the same meaning — elements,
/// attributes in their order, namespaces, text, comments — and hostile or broken input is refused
/// with where and why.
@Suite struct XMLRoundTripTests {
    static let fixtures = ["static-timeline-drm", "dynamic-scte35", "prefixed-segmentbase"]

    static func bytes(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: "mpd", subdirectory: "Resources"))
        return Array(try Data(contentsOf: url))
    }

    @Test(arguments: fixtures)
    func everyFixtureSurvivesARoundTrip(_ name: String) throws {
        let mpd = try MPD(parsing: try Self.bytes(name))
        let written = mpd.serialized()
        let again = try MPD(parsing: written)
        #expect(again.document == mpd.document, "\(name): the tree changed through write and read")
        #expect(again.serialized() == written, "\(name): writing is not stable")
    }

    @Test func attributesKeepTheirOrderAndUnknownMarkupPassesThrough() throws {
        let mpd = try MPD(parsing: try Self.bytes("static-timeline-drm"))
        let written = mpd.serialized()
        #expect(written.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"#))
        #expect(
            written.contains(
                #"<MPD xmlns="urn:mpeg:dash:schema:mpd:2011" xmlns:cenc="urn:mpeg:cenc:2013" xmlns:ext="urn:example:packager:1" profiles="#
            ))
        #expect(written.contains(#"<ext:Packager version="3.1" build="a&amp;b"/>"#))
        #expect(
            written.contains(
                "<cenc:pssh>AAAANHBzc2gAAAAA7e+LqXnWSs6jyCfc1R0h7QAAABQIARIQDx4tPEtaaXiHlqW0w9Lh8A==</cenc:pssh>"))
        #expect(written.contains("<!-- Written for Seam's tests"))
        let set = try #require(mpd.periods.first?.adaptationSets.first?.element)
        #expect(
            set.attributes.map(\.name) == [
                "id", "contentType", "mimeType", "codecs", "segmentAlignment", "startWithSAP",
            ])
    }

    @Test func valuesAreEscapedSoTheyReadBackTheSame() throws {
        var root = XMLElement(name: "MPD")
        root[attribute: "note"] = "a \"quoted\" <tag> & a\ttab\nand line"
        root.children = [.text("1 < 2 & 3 > 2"), .cdata("raw ]]> inside"), .element(XMLElement(name: "Period"))]
        let document = XMLDocument(root: root)
        let written = XMLWriter.write(document)
        let read = try XMLReader().read(written)
        #expect(read.root[attribute: "note"] == "a \"quoted\" <tag> & a\ttab\nand line")
        #expect(read.root.text == "1 < 2 & 3 > 2raw ]]> inside")
        #expect(XMLWriter.write(read) == written)
    }

    /// The writer works on bytes: characters beyond ASCII pass as their UTF-8, and only the
    /// ASCII characters XML reserves are escaped, in attributes and text alike.
    @Test func theWrittenBytesEscapeOnlyWhatXMLReserves() throws {
        var root = XMLElement(name: "MPD")
        root[attribute: "title"] = "Café «été» — 日本\r\"&\""
        root.children = [.text("naïve < 🎬 &\r\n"), .comment(" é "), .element(XMLElement(name: "Période"))]
        let document = XMLDocument(root: root)
        let bytes = XMLWriter.bytes(document)
        #expect(
            String(decoding: bytes, as: UTF8.self)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<MPD title=\"Café «été» — 日本&#13;&quot;&amp;&quot;\">naïve &lt; 🎬 &amp;&#13;\n<!-- é --><Période/></MPD>\n"
        )
        #expect(Array(XMLWriter.write(document).utf8) == bytes)
        let read = try XMLReader().read(bytes)
        #expect(read.root[attribute: "title"] == "Café «été» — 日本\r\"&\"")
    }

    @Test func carriageReturnsReadAsXMLSaysAndSurviveAWrite() throws {
        // Raw CR LF and a lone CR are one LF; a CR from a character reference stays, and is
        // written back as a reference (written raw, it would read as a line feed: found by fuzzing).
        let document = try XMLReader().read("<a>x&#13;y\r\nz\rw<![CDATA[1\r\n2]]><!-- 3\r4 --></a>")
        #expect(document.root.text == "x\ry\nz\nw1\n2")
        #expect(document.root.children.last == .comment(" 3\n4 "))
        #expect(try XMLReader().read(XMLWriter.bytes(document)) == document)
    }

    @Test func referencesAndAttributeWhitespaceReadAsXMLSays() throws {
        let document = try XMLReader().read("<a v='x&#x41;&#66;&lt;\ny'>&quot;&apos;&amp;&#233;</a>")
        #expect(document.root[attribute: "v"] == "xAB< y")
        #expect(document.root.text == "\"'&é")
        #expect(!document.hasDeclaration)
    }

    @Test(arguments: [
        ("<!DOCTYPE MPD [<!ENTITY x \"boom\">]><MPD/>", "document type declaration"),
        ("<MPD>&x;</MPD>", "entity &x;"),
        ("<MPD v=\"&#0;\"/>", "not a character"),
        ("<MPD><Period></MPD>", "</MPD> closes <Period>"),
        ("<MPD>", "never closed"),
        ("<MPD a=\"1\" a=\"2\"/>", "appears twice"),
        ("<MPD a=1/>", "not quoted"),
        ("<MPD/><MPD/>", "second root"),
        ("hello", "text outside"),
        ("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><MPD/>", "UTF-8"),
        ("<MPD><!ELEMENT x ANY></MPD>", "declaration"),
        ("<MPD><!-- never closed </MPD>", "comment"),
        ("<MPD a=\"<\"/>", "'<' in the value"),
        ("<1MPD/>", "may not start"),
    ])
    func brokenOrHostileXMLIsRefusedWithWhereAndWhy(_ text: String, _ reason: String) {
        #expect {
            try XMLReader().read(text)
        } throws: { error in
            guard case .malformedXML(let why, let line, let column) = error as? DASHParseError else { return false }
            return why.contains(reason) && line >= 1 && column >= 1
        }
    }

    @Test func limitsOnSizeAndDepth() {
        let deep = String(repeating: "<a>", count: 70) + String(repeating: "</a>", count: 70)
        #expect(throws: DASHParseError.tooDeep(limit: 64, line: 1)) { try XMLReader().read(deep) }
        #expect(throws: DASHParseError.inputTooLarge(size: 20, limit: 10)) {
            try XMLReader(maxBytes: 10).read("<MPD>0123456789</MPD>".dropLast() + "")
        }
        #expect(throws: DASHParseError.emptyInput) { try XMLReader().read("  \n") }
        #expect { try XMLReader().read([0xFF, 0xFE, 0x3C, 0x00]) } throws: { "\($0)".contains("UTF-16") }
        #expect { try XMLReader().read([0x3C, 0x61, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x61, 0x3E]) } throws: {
            "\($0)".contains("not UTF-8")
        }
    }

    @Test func errorsReadAsSentences() {
        #expect(
            DASHParseError.malformedXML(reason: "x", line: 3, column: 7).description
                == "the MPD is not well-formed XML at line 3, column 7: x")
        #expect(
            DASHParseError.invalidMPD(path: "MPD/Period[1]", reason: "no <AdaptationSet>").description
                == "MPD/Period[1]: no <AdaptationSet>")
    }
}
