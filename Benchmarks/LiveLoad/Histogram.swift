/// A fixed-bucket, HDR-style latency histogram over microseconds.
///
/// Values below 256 µs have their own bucket; above that, every power of two is split into 128
/// equal sub-buckets, so a recorded value is known to within 1/128 (< 0.8%) of itself, from 1 µs
/// to about 12 days, in a fixed array of 5,248 counters (recording is one index computation and an
/// increment). Percentiles report the upper bound of the bucket the rank falls in (never
/// optimistic); the exact minimum and maximum are kept too.
struct Histogram {
    private static let subBucketBits = 7                       // 128 sub-buckets per power of two
    private static let linearLimit: UInt64 = 1 << (subBucketBits + 1)   // 256: one bucket per µs below
    private static let maxShift = 40
    private var counts = [UInt64](repeating: 0, count: Int(linearLimit) + maxShift * (1 << subBucketBits))

    private(set) var count: UInt64 = 0
    private(set) var sumMicros: Double = 0
    private(set) var minMicros: UInt64 = .max
    private(set) var maxMicros: UInt64 = 0

    mutating func record(micros value: UInt64) {
        counts[Self.index(of: value)] += 1
        count += 1
        sumMicros += Double(value)
        if value < minMicros { minMicros = value }
        if value > maxMicros { maxMicros = value }
    }

    mutating func record(nanoseconds: Int64) {
        record(micros: UInt64(max(0, nanoseconds)) / 1000)
    }

    mutating func merge(_ other: Histogram) {
        for i in counts.indices { counts[i] += other.counts[i] }
        count += other.count
        sumMicros += other.sumMicros
        minMicros = min(minMicros, other.minMicros)
        maxMicros = max(maxMicros, other.maxMicros)
    }

    static func index(of value: UInt64) -> Int {
        if value < linearLimit { return Int(value) }
        let msb = 63 - value.leadingZeroBitCount               // >= 8
        let shift = min(msb - subBucketBits, maxShift)         // >= 1
        let sub = Int(min(value >> UInt64(shift), (1 << (subBucketBits + 1)) - 1)) - (1 << subBucketBits)
        return Int(linearLimit) + (shift - 1) * (1 << subBucketBits) + sub
    }

    /// The largest value that falls in bucket `index`.
    static func upperBound(of index: Int) -> UInt64 {
        if index < Int(linearLimit) { return UInt64(index) }
        let rest = index - Int(linearLimit)
        let shift = rest / (1 << subBucketBits) + 1
        let sub = UInt64(rest % (1 << subBucketBits) + (1 << subBucketBits))
        return ((sub + 1) << UInt64(shift)) - 1
    }

    /// The value at percentile `p` (0...100), in microseconds: the upper bound of the bucket holding
    /// the ceil(p% × count)-th smallest value, capped at the exact maximum.
    func percentileMicros(_ p: Double) -> UInt64 {
        guard count > 0 else { return 0 }
        let rank = max(1, UInt64((p / 100 * Double(count)).rounded(.up)))
        var seen: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 {
            seen += c
            if seen >= rank { return min(Self.upperBound(of: i), maxMicros) }
        }
        return maxMicros
    }

    /// Count of recorded values strictly above `micros` (to bucket precision).
    func countAbove(micros: UInt64) -> UInt64 {
        var above: UInt64 = 0
        for (i, c) in counts.enumerated() where c > 0 && Self.upperBound(of: i) > micros { above += c }
        return above
    }

    func summary() -> LatencySummary {
        func ms(_ micros: UInt64) -> Double { (Double(micros) / 1000 * 1000).rounded() / 1000 }
        guard count > 0 else {
            return LatencySummary(count: 0, meanMs: 0, minMs: 0, p50Ms: 0, p90Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0)
        }
        return LatencySummary(
            count: count, meanMs: ((sumMicros / Double(count)) / 1000 * 1000).rounded() / 1000,
            minMs: ms(minMicros), p50Ms: ms(percentileMicros(50)), p90Ms: ms(percentileMicros(90)),
            p99Ms: ms(percentileMicros(99)), p999Ms: ms(percentileMicros(99.9)), maxMs: ms(maxMicros))
    }
}

struct LatencySummary: Codable {
    var count: UInt64
    var meanMs: Double
    var minMs: Double
    var p50Ms: Double
    var p90Ms: Double
    var p99Ms: Double
    var p999Ms: Double
    var maxMs: Double
}
