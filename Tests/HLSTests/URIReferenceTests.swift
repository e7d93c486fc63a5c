import Testing
import HLS

/// RFC 3986 section 5.4: the specification's own examples.
@Suite struct URIReferenceTests {
    let base = "http://a/b/c/d;p?q"

    @Test(arguments: [
        ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"),
        ("/g", "http://a/g"), ("//g", "http://g"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
        ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"), ("g?y#s", "http://a/b/c/g?y#s"),
        (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
        ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"), ("..", "http://a/b/"),
        ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"), ("../../", "http://a/"),
        ("../../g", "http://a/g"),
    ])
    func normalExamples(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: base) == expected)
    }

    @Test(arguments: [
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"),
        ("/../g", "http://a/g"), ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."),
        ("..g", "http://a/b/c/..g"), ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
        ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"), ("g;x=1/./y", "http://a/b/c/g;x=1/y"),
        ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
        ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
    ])
    func abnormalExamples(reference: String, expected: String) {
        #expect(URIReference.resolve(reference, against: base) == expected)
    }

    @Test func opaqueAndAbsoluteURIsStay() {
        #expect(URIReference.resolve("data:text/plain;base64,AAAA", against: base) == "data:text/plain;base64,AAAA")
        #expect(URIReference.resolve("skd://key-id", against: base) == "skd://key-id")
        #expect(URIReference.resolve("https://cdn/x/../y.ts", against: base) == "https://cdn/y.ts")
        #expect(URIReference.isAbsolute("https://x/y"))
        #expect(!URIReference.isAbsolute("seg/1.ts"))
    }
}
