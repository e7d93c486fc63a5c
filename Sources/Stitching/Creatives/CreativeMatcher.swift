import HLS

/// Picks, for one content variant, the ad rendition a player can switch to without a hiccup:
/// same codecs first, then the highest bandwidth not above the variant's, then the closest
/// resolution. Ad servers transcode ladders that rarely line up with the content's.
public enum CreativeMatcher {
    /// The codec families (`avc1`, `mp4a`, `hvc1`, ...) of a CODECS list.
    static func families(_ codecs: [String]) -> Set<String> {
        Set(
            codecs.map { codec in
                let trimmed = codec.drop { $0 == " " }
                return String(trimmed.prefix { $0 != "." }).lowercased()
            })
    }

    /// The index in `candidates` of the best match for `variant`, or nil when none shares
    /// its codecs (when either side declares codecs; undeclared codecs match anything).
    public static func bestMatch(for variant: VariantStream, among candidates: [VariantStream]) -> Int? {
        guard !candidates.isEmpty else { return nil }
        let wanted = families(variant.codecs)
        var pool = Array(candidates.indices)
        if !wanted.isEmpty {
            let exact = pool.filter {
                Set(candidates[$0].codecs.map { $0.lowercased() }) == Set(variant.codecs.map { $0.lowercased() })
            }
            let compatible = pool.filter { i in
                let have = families(candidates[i].codecs)
                return have.isEmpty || have == wanted
            }
            if !exact.isEmpty {
                pool = exact
            } else if !compatible.isEmpty {
                pool = compatible
            } else {
                return nil
            }
        }
        let limit = variant.bandwidth
        let affordable = pool.filter { candidates[$0].bandwidth <= limit || limit == 0 }
        if !affordable.isEmpty {
            let best = affordable.map { candidates[$0].bandwidth }.max() ?? 0
            pool = affordable.filter { candidates[$0].bandwidth == best }
        } else {
            let lowest = pool.map { candidates[$0].bandwidth }.min() ?? 0
            pool = pool.filter { candidates[$0].bandwidth == lowest }
        }
        guard let target = variant.resolution else { return pool.first }
        return pool.min { a, b in
            distance(candidates[a].resolution, target) < distance(candidates[b].resolution, target)
        }
    }

    private static func distance(_ resolution: Resolution?, _ target: Resolution) -> Int {
        guard let resolution else { return Int.max / 2 }
        return abs(resolution.pixels - target.pixels)
    }
}
