/// Kept only for the name `SessionBuilder.Inputs`, which `LiveSession.swift` (being rewritten on
/// another branch) still spells. Sessions are built by `SessionComposition`'s parts; delete this
/// file once nothing names it.
enum SessionBuilder {
    typealias Inputs = SessionInputs
}
