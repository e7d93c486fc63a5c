import Testing
import XMLSyntax

/// The tokenizer VAST responses and MPDs are read with, token by token.
@Suite("XML tokenizer")
struct XMLTokenizerTests {
    /// Each token as one line of text, so a whole document's reading compares as a table.
    private func tokens(_ text: String, maxDepth: Int = 64) -> Result<[String], XMLSyntaxError> {
        var tokenizer = XMLTokenizer(bytes: Array(text.utf8), maxDepth: maxDepth, documentName: "a test")
        var lines: [String] = []
        do {
            while let token = try tokenizer.next() {
                switch token {
                case .declaration(let encoding): lines.append("declaration \(encoding ?? "-")")
                case .startElement(let name, let attributes, let isEmpty, let line):
                    let written = attributes.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
                    lines.append("start \(name) [\(written)]\(isEmpty ? " empty" : "") line \(line)")
                case .endElement(let name): lines.append("end \(name)")
                case .text(let text): lines.append("text \(text.debugDescription)")
                case .cdata(let text): lines.append("cdata \(text)")
                case .comment(let text): lines.append("comment \(text)")
                case .processingInstruction(let text): lines.append("pi \(text)")
                }
            }
            return .success(lines)
        } catch {
            return .failure(error)
        }
    }

    @Test func aDocumentReadsAsItsTokensInOrderWithEachStartTagsLine() {
        let document = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- before -->
            <VAST b="2" a='1 &amp; &#x41;'>
              <Ad id="x"/><![CDATA[ <not markup> ]]><?pi data?>
            </VAST>
            """
        #expect(
            tokens(document)
                == .success([
                    "declaration utf-8", "comment  before ", "start VAST [b=2 a=1 & A] line 3", "text \"\\n  \"",
                    "start Ad [id=x] empty line 4", "cdata  <not markup> ", "pi pi data", "text \"\\n\"", "end VAST",
                ]))
    }

    /// The error reading `text` ends with, nil when it reads to the end.
    private func refusal(_ text: String, maxDepth: Int = 64) -> XMLSyntaxError? {
        if case .failure(let error) = tokens(text, maxDepth: maxDepth) { return error }
        return nil
    }

    @Test func refusalsSayWhatAndWhere() {
        #expect(refusal(" \n ")?.kind == .emptyInput)
        #expect(refusal("<a><b><c/></b></a>", maxDepth: 2)?.kind == .tooDeep(element: "c"))
        let mismatch = refusal("<a>\n<b></a>")
        #expect(mismatch.map { "\($0.line):\($0.column) \($0.reason)" } == "2:7 </a> closes <b>")
        #expect(refusal("<a>&nbsp;</a>")?.kind == .malformed)
        #expect(refusal("<a>&#xFFFE;</a>")?.reason == "&#xFFFE; is not a character XML allows")
        #expect(refusal("<!DOCTYPE a><a/>")?.kind == .forbiddenDeclaration("DOCTYPE"))
        #expect(refusal("<a/><b/>")?.reason == "a second root element; a test has one")
        #expect(tokens("<a>\u{E9}</a>") == .success(["start a [] line 1", "text \"é\"", "end a"]))
        let invalid = [UInt8]([0x3C, 0x61, 0x3E, 0xC3, 0x28, 0x3C, 0x2F, 0x61, 0x3E])
        #expect(
            refusal(String(decoding: invalid, as: UTF8.self)) == nil,
            "the same text once repaired as a Swift string reads")
        var tokenizer = XMLTokenizer(bytes: invalid, maxDepth: 4, documentName: "a test")
        #expect(throws: XMLSyntaxError(kind: .malformed, reason: "bytes that are not UTF-8", line: 1, column: 4)) {
            while try tokenizer.next() != nil {}
        }
    }
}
