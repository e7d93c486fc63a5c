import ArgumentParser
import Foundation

/// A command that cannot run as given. The message names the fix (the flag, the setting, the
/// value to use), so no usage text follows it, as ArgumentParser would print after a
/// `ValidationError`; the exit status is the same 64.
func refuse(_ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
    return ExitCode.validationFailure
}
