import HLS
import SCTE35

/// The SCTE-35 target: a splice_info_section as bytes, as the hex and base64 text cue tags carry,
/// re-encoded, and the cue tags of every dialect built around the input.
enum SCTE35Fuzzing {
    static func run(_ bytes: [UInt8]) {
        for options in [SCTE35DecodingOptions.strict, .lenient] {
            if let section = try? SpliceInfoSection(bytes: bytes, options: options) {
                read(section)
            }
        }
        let text = String(decoding: bytes, as: UTF8.self)
        _ = try? SpliceInfoSection(text, options: .lenient)
        _ = try? SCTE35Text.decode(text)
        // The same bytes as the payload of every dialect, and as a dialect's own text.
        let hex = "0x" + SCTE35Text.hex(bytes)
        let base64 = SCTE35Text.base64(bytes)
        let cues: [CueTag] = [
            CueTag(.cueOut, value: text), CueTag(.cueOutCont, value: text), CueTag(.cueIn, value: text),
            CueTag(.oatclsSCTE35, value: base64), CueTag(.splicepointSCTE35, value: base64),
            CueTag(.scte35, value: "CUE=\"\(base64)\",\(text)"), CueTag(.adobeCue, value: text),
            CueTag(.cueOutCont, value: "ElapsedTime=5,Duration=30,SCTE35=\(base64)"),
        ]
        for cue in cues {
            _ = CueDialect.signal(from: cue, options: .lenient)?.remaining
            _ = CueDialect.signal(from: cue, options: .strict)
        }
        var range = DateRange(attributes: AttributeList(parsing: text))
        range.scte35Out = hex
        _ = CueDialect.signals(from: range, options: .lenient)
        range.scte35Command = hex
        range.scte35In = hex
        _ = CueDialect.signals(from: range, options: .strict)
    }

    static func read(_ section: SpliceInfoSection) {
        _ = section.description
        _ = (
            section.breakDurationSeconds, section.spliceTimeSeconds, section.eventID, section.isAdStart,
            section.isAdEnd,
            section.isCancellation
        )
        for descriptor in section.segmentationDescriptors {
            _ = (descriptor.durationSeconds, descriptor.segmentationType)
        }
        // What decoded re-encodes, and the result decodes again.
        if let encoded = try? SpliceInfoSectionEncoder(header: section).encode(
            section.command, descriptors: section.descriptors)
        {
            invariant(
                (try? SpliceInfoSection(bytes: encoded, options: .lenient)) != nil, "an encoded section does not decode"
            )
        }
    }
}
