import Foundation
import Logging

/// A swift-log handler writing one JSON object per line to standard output, for log shippers
/// (`server.logFormat: json`): `{"timestamp":…,"level":…,"label":…,"message":…,"metadata":{…}}`.
package struct JSONLogHandler: LogHandler {
    package var logLevel: Logger.Level
    package var metadata: Logger.Metadata = [:]
    /// Metadata added to every line from the task it is written in: `trace_id` and `span_id`
    /// when tracing is on (`SeamTracer.logMetadataProvider`).
    package var metadataProvider: Logger.MetadataProvider?
    package let label: String

    package init(label: String, level: Logger.Level = .info, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.logLevel = level
        self.metadataProvider = metadataProvider
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get(), !provided.isEmpty { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        var line = "{\"timestamp\":\(Self.quote(Self.timestamp()))"
        line += ",\"level\":\(Self.quote(event.level.rawValue))"
        line += ",\"label\":\(Self.quote(label))"
        line += ",\"message\":\(Self.quote(event.message.description))"
        if !merged.isEmpty {
            line += ",\"metadata\":{"
            line += merged.sorted { $0.key < $1.key }
                .map { "\(Self.quote($0.key)):\(Self.quote(Self.flatten($0.value)))" }
                .joined(separator: ",")
            line += "}"
        }
        line += "}\n"
        // One write(2) per line, so lines from concurrent tasks do not interleave.
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    static func flatten(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let text): return text
        case .stringConvertible(let convertible): return convertible.description
        case .array(let items): return "[" + items.map(flatten).joined(separator: ", ") + "]"
        case .dictionary(let entries):
            return "{"
                + entries.sorted { $0.key < $1.key }.map { "\($0.key): \(flatten($0.value))" }.joined(separator: ", ")
                + "}"
        }
    }

    static func quote(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case let control where control.value < 0x20:
                let hex = String(control.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    static func timestamp() -> String {
        Date().formatted(
            .iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}
