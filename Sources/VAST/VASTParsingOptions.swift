/// Limits that protect the parser from hostile or runaway ad server responses.
///
/// The defaults are far above what real VAST and VMAP responses need (a few KiB, a depth of about
/// 12) and far below what would hurt a server that parses many responses at once.
public struct VASTParsingOptions: Sendable, Equatable {
    /// The largest input accepted, in bytes. Default 1 MiB.
    public var maxInputBytes: Int
    /// The deepest element nesting accepted (the root is depth 1). Default 64; values above
    /// ``depthCeiling`` count as ``depthCeiling``.
    public var maxElementDepth: Int

    /// The hard ceiling on nesting: the element tree is walked recursively, so depth must stay
    /// far below what could exhaust a thread's stack.
    public static let depthCeiling = 256

    public init(maxInputBytes: Int = 1 << 20, maxElementDepth: Int = 64) {
        self.maxInputBytes = maxInputBytes
        self.maxElementDepth = maxElementDepth
    }
}
