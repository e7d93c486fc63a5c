/// Compares the `LANGUAGE` values (BCP 47 tags) of a content rendition and an ad's: ad servers
/// write `en` where the content says `en-US`, and case is not significant in tags.
enum LanguageTag {
    /// 0: the same tag; 1: the same primary language (`en` and `en-GB`); 2: another language,
    /// or only one side declares one. Two undeclared languages are the same.
    static func distance(_ content: String?, _ ad: String?) -> Int {
        switch (content, ad) {
        case (nil, nil): return 0
        case (nil, _), (_, nil): return 2
        case let (content?, ad?):
            let a = content.lowercased(), b = ad.lowercased()
            if a == b { return 0 }
            return primary(a) == primary(b) && !primary(a).isEmpty ? 1 : 2
        }
    }

    private static func primary(_ tag: String) -> Substring {
        tag.prefix { $0 != "-" && $0 != "_" }
    }
}
