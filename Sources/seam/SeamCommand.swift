import ArgumentParser
import SeamServer

@main
struct SeamCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seam",
        abstract: "Seam: a server-side ad insertion proxy for HLS.",
        version: SeamRelease.version,
        subcommands: [
            ServeCommand.self, DemoCommand.self, ValidateCommand.self, WatchCommand.self, AnalyticsCommand.self,
            SCTE35Command.self, VASTCommand.self, SessionCommand.self,
        ]
    )
}
