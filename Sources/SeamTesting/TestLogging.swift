import Logging

/// A logger that drops everything: the suites' servers would otherwise bury a failure's
/// report under their request logs.
package let quietLogger = Logger(label: "seam.tests") { _ in SwiftLogNoOpLogHandler() }

/// A loopback test server came up without a port to reach it on.
package enum LiveServerError: Error { case noPort }
