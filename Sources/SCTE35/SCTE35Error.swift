/// Why a splice_info_section (or its text form) could not be decoded, and where.
///
/// `offset` is a byte offset into the decoded section for binary problems, or a character
/// offset into the text for hex/base64 problems.
public struct SCTE35Error: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The input text is empty (after trimming whitespace and a `0x` prefix).
        case emptyInput
        /// A character that is not valid in hexadecimal or base64.
        case invalidCharacter
        /// Hexadecimal text with an odd number of digits, or base64 with an impossible length.
        case invalidLength
        /// The section ended before a field could be read.
        case truncated
        /// `table_id` is not 0xFC.
        case invalidTableID
        /// `section_length` does not agree with the data.
        case invalidSectionLength
        /// `splice_command_length` does not agree with the command or the section.
        case invalidCommandLength
        /// `descriptor_loop_length` or a `descriptor_length` overruns its container.
        case invalidDescriptorLength
        /// The CRC_32 stored in the section is not the CRC computed over it.
        case crcMismatch(stored: UInt32, computed: UInt32)
        /// A field value that cannot be interpreted.
        case invalidValue
    }

    public var kind: Kind
    /// Byte offset in the section (or character offset in the text) where the problem was found.
    public var offset: Int
    /// Human readable description naming the field.
    public var message: String

    public init(_ kind: Kind, at offset: Int, _ message: String) {
        self.kind = kind
        self.offset = offset
        self.message = message
    }

    public var description: String { "SCTE-35 error at byte \(offset): \(message)" }
}

/// Non-fatal problems noticed while decoding with lenient options.
public struct SCTE35Warning: Sendable, Hashable, CustomStringConvertible {
    public var offset: Int
    public var message: String

    public init(at offset: Int, _ message: String) {
        self.offset = offset
        self.message = message
    }

    public var description: String { "byte \(offset): \(message)" }
}
