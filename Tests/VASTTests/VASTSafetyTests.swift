import Testing
@testable import VAST

@Suite("Hostile and broken input")
struct VASTSafetyTests {
    private func parse(
        _ text: String, options: VASTParsingOptions = VASTParsingOptions()
    ) -> Result<VASTDocument, VASTParseError> {
        Result { () throws(VASTParseError) in try VASTParser(options: options).parse(text) }
    }

    @Test("billion laughs is refused before any expansion")
    func billionLaughs() {
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE lolz [
              <!ENTITY lol "lol">
              <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
              <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
              <!ENTITY lol9 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
            ]>
            <VAST version="4.0"><Error>&lol9;</Error></VAST>
            """
        #expect(parse(xml) == .failure(.forbiddenDeclaration("DOCTYPE", line: 2)))
        #expect(VASTParseError.forbiddenDeclaration("DOCTYPE", line: 2).vastErrorCode == .xmlParsingError)
    }

    @Test("external entity (XXE) is refused")
    func externalEntity() {
        let xml = """
            <?xml version="1.0"?><!doctype VAST [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><VAST version="4.0"><Error>&xxe;</Error></VAST>
            """
        #expect(parse(xml) == .failure(.forbiddenDeclaration("DOCTYPE", line: 1)))
    }

    @Test("a stray ENTITY declaration is refused; the words inside CDATA or comments are fine")
    func entityOutsideDoctype() throws {
        #expect(
            parse("<VAST version=\"4.0\">\n\n<!ENTITY x \"y\"></VAST>")
                == .failure(.forbiddenDeclaration("ENTITY", line: 3)))
        let harmless = """
            <VAST version="4.0"><!-- <!DOCTYPE is mentioned here --><Ad><InLine><Creatives><Creative><CompanionAds><Companion>
              <HTMLResource><![CDATA[<!DOCTYPE html><html><body>ad</body></html>]]></HTMLResource>
            </Companion></CompanionAds></Creative></Creatives></InLine></Ad></VAST>
            """
        let document = try VASTParser().parse(harmless)
        #expect(document.ads.first?.creatives.first?.companionCount == 1)
    }

    @Test("undeclared entity reference is a typed XML error with its line")
    func undeclaredEntity() {
        let result = parse("<VAST version=\"4.0\">\n<Error>&nbsp;</Error></VAST>")
        guard case .failure(.malformedXML(let reason, let line, _)) = result else {
            Issue.record("expected malformedXML, got \(result)")
            return
        }
        #expect(reason.contains("undeclared entity"))
        #expect(line == 2)
    }

    @Test("input over the size limit is refused with both numbers")
    func oversized() {
        let padding = String(repeating: " ", count: 2048)
        let xml = "<VAST version=\"4.0\">\(padding)</VAST>"
        let result = parse(xml, options: VASTParsingOptions(maxInputBytes: 1024))
        #expect(result == .failure(.inputTooLarge(size: xml.utf8.count, limit: 1024)))
        if case .failure(let error) = result {
            #expect(error.description.contains("\(xml.utf8.count) bytes"))
        }
        #expect(VASTParsingOptions().maxInputBytes == 1_048_576)
        // The default limit accepts it.
        #expect((try? parse(xml).get())?.ads.isEmpty == true)
    }

    @Test("nesting deeper than the limit is refused, naming element and line")
    func deepNesting() {
        let depth = 100
        let xml =
            "<VAST version=\"4.0\">" + String(repeating: "<x>\n", count: depth)
            + String(repeating: "</x>", count: depth) + "</VAST>"
        #expect(parse(xml) == .failure(.tooDeep(limit: 64, element: "x", line: 64)))
        #expect(parse(xml, options: VASTParsingOptions(maxElementDepth: 200)).map(\.ads.count) == .success(0))
    }

    @Test("a raised depth limit is still capped at the ceiling")
    func veryDeepNesting() {
        let depth = 10_000
        let xml =
            "<VAST version=\"4.0\">" + String(repeating: "<x>", count: depth) + String(repeating: "</x>", count: depth)
            + "</VAST>"
        #expect(
            parse(xml, options: VASTParsingOptions(maxElementDepth: 1_000_000))
                == .failure(.tooDeep(limit: 256, element: "x", line: 1)))
    }

    @Test("malformed XML: mismatched tag reports the line")
    func mismatchedTag() {
        let result = parse("<VAST version=\"4.0\">\n<Ad>\n<InLine>\n</Ad>\n</VAST>")
        guard case .failure(.malformedXML(_, let line, _)) = result else {
            Issue.record("expected malformedXML, got \(result)")
            return
        }
        #expect(line == 4)
    }

    @Test("malformed XML: truncated document")
    func truncated() {
        let result = parse("<VAST version=\"4.0\"><Ad><InLine><AdTitle>cut")
        guard case .failure(.malformedXML) = result else {
            Issue.record("expected malformedXML, got \(result)")
            return
        }
    }

    @Test("not XML at all: the vast-client-js invalid file")
    func notXML() throws {
        let bytes = try Fixtures.vastClient("invalid-xmlfile.xml")
        let result = Result { () throws(VASTParseError) in try VASTParser().parse(bytes) }
        guard case .failure(.malformedXML(let reason, let line, _)) = result else {
            Issue.record("expected malformedXML, got \(result)")
            return
        }
        #expect(reason.contains("does not start with '<'"))
        #expect(line == 1)
    }

    @Test("empty and whitespace-only input")
    func empty() {
        #expect(parse("") == .failure(.emptyInput))
        #expect(parse(" \n\t ") == .failure(.emptyInput))
    }

    @Test("UTF-16 and declared encodings that are not one byte per ASCII character are refused")
    func encodings() throws {
        let utf16 = [UInt8]([0xFF, 0xFE]) + Array("<VAST/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(
            Result { () throws(VASTParseError) in try VASTParser().parse(utf16) }
                == .failure(.unsupportedEncoding("UTF-16 byte order mark")))
        let utf7 = "<?xml version=\"1.0\" encoding=\"UTF-7\"?><VAST version=\"4.0\"/>"
        #expect(parse(utf7) == .failure(.unsupportedEncoding("declared encoding \"UTF-7\"")))
        let latin1 = "<?xml version='1.0' encoding='ISO-8859-1'?><VAST version=\"4.0\"/>"
        #expect(parse(latin1).map(\.version) == .success("4.0"))
    }

    @Test("wrong root element, VAST 1 and unknown versions are typed errors with IAB codes")
    func rootAndVersion() throws {
        #expect(
            parse("<html><body/></html>") == .failure(.unexpectedRootElement(found: "html", expected: "VAST", line: 1)))
        #expect(
            VASTParseError.unexpectedRootElement(found: "html", expected: "VAST", line: 1).vastErrorCode
                == .schemaValidationError)
        let outdatedBytes = try Fixtures.vastClient("outdated-vast.xml")
        let outdated = Result { () throws(VASTParseError) in try VASTParser().parse(outdatedBytes) }
        #expect(outdated == .failure(.unsupportedVersion("1.0 (VideoAdServingTemplate)", line: 1)))
        #expect(parse("<VAST version=\"5.0\"/>") == .failure(.unsupportedVersion("5.0", line: 1)))
        #expect(parse("<VAST version=\"1.0\"/>") == .failure(.unsupportedVersion("1.0", line: 1)))
        #expect(VASTParseError.unsupportedVersion("1.0", line: 1).vastErrorCode == .versionNotSupported)
        #expect(parse("<VAST version=\"4.3\"/>").map(\.version) == .success("4.3"))
        #expect(parse("<VAST/>").map(\.diagnostics.count) == .success(1))
    }

    @Test(
        "harmless quirks of real responses are accepted",
        arguments: [
            "<VAST xmlns=\"relative-namespace\" version=\"4.0\"><Error>https://e</Error></VAST>",
            "<?xml version=\"1.1\"?><VAST version=\"4.0\"><Error>https://e</Error></VAST>",
            "<VAST version=\"4.0\" xsi:noNamespaceSchemaLocation=\"vast.xsd\"><Error>https://e</Error></VAST>",
            "\u{FEFF}<?xml version=\"1.0\" standalone=\"yes\"?>\n<VAST version=\"4.0\"><Error>https://&#x65;</Error></VAST><!-- end -->\n",
        ])
    func quirks(xml: String) {
        #expect(parse(xml).map(\.errorURLs) == .success(["https://e"]))
    }

    @Test("undeclared Latin-1 bytes are read as ISO-8859-1; declared encodings are honoured")
    func latin1() throws {
        let undeclared =
            Array("<VAST version=\"4.0\"><Ad><InLine><AdTitle>caf".utf8) + [0xE9]
            + Array("</AdTitle></InLine></Ad></VAST>".utf8)
        #expect(try VASTParser().parse(undeclared).ads.first?.adTitle == "café")
        let declared =
            Array("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?><VAST version=\"4.0\"><Ad><InLine><AdTitle>".utf8) + [
                0xC9, 0x74, 0xE9,
            ]
            + Array("</AdTitle></InLine></Ad></VAST>".utf8)
        #expect(try VASTParser().parse(declared).ads.first?.adTitle == "Été")
        let lying =
            Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><VAST version=\"4.0\"><Error>".utf8) + [0xE9]
            + Array("</Error></VAST>".utf8)
        #expect(throws: VASTParseError.self) { try VASTParser().parse(lying) }
    }

    @Test("declared single-byte encodings are transcoded, each with its own table")
    func declaredEncodings() throws {
        func title(_ encoding: String, _ bytes: [UInt8]) throws -> String? {
            let head = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?><VAST version=\"4.0\"><Ad><InLine><AdTitle>"
            let document = try VASTParser().parse(
                Array(head.utf8) + bytes + Array("</AdTitle></InLine></Ad></VAST>".utf8))
            return document.ads.first?.adTitle
        }
        #expect(try title("ISO-8859-15", [0xA4, 0x20, 0xBD]) == "€ œ")  // Latin-9 differs from Latin-1 here
        #expect(try title("iso-8859-1", [0xA4]) == "¤")
        #expect(try title("windows-1252", [0x80, 0x93, 0x94]) == "€\u{201C}\u{201D}")
        #expect(try title("windows-1251", [0xCF, 0xF0, 0xE8]) == "При")
        #expect(try title("ISO-8859-2", [0xB1]) == "ą")
        #expect(try title("us-ascii", Array("plain".utf8)) == "plain")
    }

    @Test("line breaks read as XML says: CR LF and a lone CR are one LF in text and CDATA")
    func lineBreaks() throws {
        let document = try VASTParser().parse(
            "<VAST version=\"4.0\">\r\n<Ad><InLine><AdTitle>a\r\nb\rc</AdTitle><Description><![CDATA[d\r\ne]]></Description>"
                + "</InLine></Ad></VAST>")
        #expect(document.ads.first?.adTitle == "a\nb\nc")
        #expect(document.ads.first?.inline?.description == "d\ne")
    }

    @Test("control characters XML forbids are refused with where they are; a UTF-8 BOM wins over a declaration")
    func controlCharactersAndByteOrderMark() throws {
        let result = parse("<VAST version=\"4.0\">\n<Error>https://e/\u{1}</Error></VAST>")
        guard case .failure(.malformedXML(let reason, let line, _)) = result else {
            Issue.record("expected malformedXML, got \(result)")
            return
        }
        #expect(reason.contains("control character 0x1"))
        #expect(line == 2)
        guard
            case .failure(.malformedXML(let signed, _, _)) = parse("<VAST version=\"4.0\"><Error>&#+65;</Error></VAST>")
        else {
            Issue.record("a signed character reference must be refused")
            return
        }
        #expect(signed.contains("not a character XML allows"))
        let bom =
            [UInt8]([0xEF, 0xBB, 0xBF])
            + Array(
                "<?xml version=\"1.0\" encoding=\"windows-1252\"?><VAST version=\"4.0\"><Ad><InLine><AdTitle>é</AdTitle></InLine></Ad></VAST>"
                    .utf8)
        #expect(try VASTParser().parse(bom).ads.first?.adTitle == "é")
    }

    @Test("an attribute named without a prefix wins over a prefixed one of the same local name, wherever each is")
    func unprefixedAttributeFirst() throws {
        let document = try VASTParser().parse(
            "<VAST version=\"4.0\"><Ad><InLine><Extensions><Extension xsi:type=\"ns:X\" type=\"Pricing\"/></Extensions></InLine></Ad></VAST>"
        )
        #expect(document.ads.first?.inline?.extensions.map(\.type) == ["Pricing"])
    }

    @Test("a start tag of 50,000 attributes is read (a set finds repeats past 16); a repeat among them is refused")
    func manyAttributes() {
        let attributes = (0..<50_000).map { " a\($0)=\"\"" }.joined()
        #expect(parse("<VAST version=\"4.0\"\(attributes)/>").map(\.version) == .success("4.0"))
        guard case .failure(.malformedXML(let reason, _, _)) = parse("<VAST version=\"4.0\"\(attributes) a49999=\"\"/>")
        else {
            Issue.record("expected malformedXML")
            return
        }
        #expect(reason.contains("appears twice"))
    }

    @Test("a processing instruction without data is well-formed XML and is read (it once crashed FoundationXML)")
    func processingInstructionWithoutData() {
        #expect(
            parse("<?x?>\n<VAST version=\"4.0\"><?y?><Error>https://e</Error></VAST>").map(\.errorURLs)
                == .success(["https://e"]))
    }

    @Test("a DOCTYPE or ENTITY in any letter case, anywhere, is refused with its line")
    func declarationsInAnyCase() {
        #expect(
            parse("<!DocType VAST>\n<VAST version=\"4.0\"/>") == .failure(.forbiddenDeclaration("DOCTYPE", line: 1)))
        #expect(
            parse("<VAST version=\"4.0\">\n<!doctype x></VAST>") == .failure(.forbiddenDeclaration("DOCTYPE", line: 2)))
        #expect(
            parse("<VAST version=\"4.0\">\n<Ad>\n<!Entity x \"y\"></Ad></VAST>")
                == .failure(.forbiddenDeclaration("ENTITY", line: 3)))
    }

    @Test("two root elements, content after the root")
    func trailingContent() {
        guard case .failure(.malformedXML) = parse("<VAST version=\"4.0\"/><VAST version=\"4.0\"/>") else {
            Issue.record("expected malformedXML")
            return
        }
        guard case .failure(.malformedXML) = parse("<VAST version=\"4.0\"/>garbage") else {
            Issue.record("expected malformedXML")
            return
        }
    }

    @Test("garbage bytes never crash: every prefix of a real file and random bytes")
    func fuzzish() throws {
        let sample = try Fixtures.vastClient("sample.xml")
        var accepted = 0
        for length in stride(from: 0, through: sample.count, by: 97) {
            switch Result(catching: { () throws(VASTParseError) in try VASTParser().parse(Array(sample.prefix(length)))
            })
            {
            case .success: accepted += 1
            case .failure(let error): #expect(!error.description.isEmpty)
            }
        }
        #expect(accepted == 0)  // no strict prefix of the file is a complete document
        var generator = SplitMix64(seed: 42)
        for _ in 0..<200 {
            let bytes = (0..<Int(generator.next() % 300)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            let withMarkup = Array("<VAST version=\"4.0\">".utf8) + bytes
            _ = try? VASTParser().parse(bytes)
            _ = try? VASTParser().parse(withMarkup)
            _ = try? VMAPParser().parse(withMarkup)
        }
        // Mutations of a real file: flipped bytes and inserted markup characters.
        let specials = Array("<>&;]\"'/=![CDATA%:#\n".utf8)
        var parsedMutants = 0
        for _ in 0..<300 {
            var mutant = sample
            for _ in 0..<(1 + Int(generator.next() % 4)) {
                let position = Int(generator.next() % UInt64(mutant.count))
                let byte =
                    generator.next() % 2 == 0
                    ? specials[Int(generator.next() % UInt64(specials.count))]
                    : UInt8(truncatingIfNeeded: generator.next())
                if generator.next() % 2 == 0 { mutant[position] = byte } else { mutant.insert(byte, at: position) }
            }
            if let document = try? VASTParser().parse(mutant) {
                parsedMutants += 1
                _ = document.podAds.flatMap(\.linears).map { $0.hlsMediaFiles.count + $0.trackingEvents.count }
            }
        }
        #expect(parsedMutants > 0)  // some mutations land in text and stay well-formed
    }
}

/// A tiny deterministic generator, so the garbage is the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
