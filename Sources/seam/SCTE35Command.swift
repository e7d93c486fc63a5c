import ArgumentParser
import Foundation
import SCTE35

/// `seam scte35`: SCTE-35 for ad ops, with the decoder Seam itself uses on live cues.
struct SCTE35Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scte35",
        abstract: "SCTE-35 tools: decode a cue as Seam reads it.",
        subcommands: [Decode.self]
    )

    struct Decode: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decode splice_info_sections to JSON.",
            discussion: """
                Each cue is base64 (standard or URL-safe) or hexadecimal (with or without 0x), as \
                #EXT-X-CUE-OUT, #EXT-OATCLS-SCTE35, #EXT-X-DATERANGE SCTE35-OUT and friends carry \
                it. Prints one JSON object per cue and line: every field of the section, its command \
                and its descriptors under the specification's names, 90 kHz times in ticks and \
                seconds, segmentation UPIDs with their type and text. With no cue given, reads one \
                cue per line from standard input. A cue that does not decode is printed as \
                {"input", "error": {"offset", "message"}} (the byte offset in the section, or the \
                character offset in the text). Exit status: 0 all decoded, 1 any failed.
                """)

        @Argument(help: "The cues (none: one per line from standard input).")
        var cues: [String] = []

        @Flag(help: "Decode a section whose CRC_32 does not match (named in its warnings).")
        var ignoreCRC = false

        @Flag(help: "Indent the JSON (one object per cue, no longer one per line).")
        var pretty = false

        mutating func run() throws {
            var inputs = cues
            if inputs.isEmpty {
                while let line = readLine() {
                    let cue = line.trimmingCharacters(in: .whitespaces)
                    if !cue.isEmpty { inputs.append(cue) }
                }
            }
            guard !inputs.isEmpty else { throw refuse("give a cue (base64 or hex), or one per line on standard input") }
            var failed = false
            for input in inputs {
                let object: [String: Any]
                do {
                    let section = try SpliceInfoSection(
                        input, options: SCTE35DecodingOptions(requireValidCRC: !ignoreCRC))
                    object = SpliceInfoJSON.object(section)
                } catch {
                    failed = true
                    var message = error.message
                    if case .crcMismatch = error.kind { message += " (--ignore-crc decodes it anyway)" }
                    object = ["input": input, "error": ["offset": error.offset, "message": message]]
                }
                var options: JSONSerialization.WritingOptions = [.sortedKeys, .withoutEscapingSlashes]
                if pretty { options.insert(.prettyPrinted) }
                let data = try JSONSerialization.data(withJSONObject: object, options: options)
                FileHandle.standardOutput.write(data + Data("\n".utf8))
            }
            if failed { throw ExitCode.failure }
        }
    }
}
