/// SCTE-35 splice_info_section decoding and the cue dialects found in HLS playlists.
///
/// - `SpliceInfoSection(_:)`, `init(hex:)`, `init(base64:)`, `init(bytes:)` decode a section
///   (CRC_32 checked; `SCTE35DecodingOptions.lenient` accepts a bad CRC with a warning) into
///   `SpliceCommand` and `SpliceDescriptor` values; errors are `SCTE35Error` with a byte offset.
/// - `CueDialect.signal(from:)` / `signals(from:)` / `signals(in:)` read `HLS.CueTag`,
///   `HLS.DateRange` and whole segments into `AdOpportunitySignal` (out / continue / in).
///
/// Pure Swift, no Foundation, no I/O; every type is a Sendable value.
enum SCTE35Module {}
