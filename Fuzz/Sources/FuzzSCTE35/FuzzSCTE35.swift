import SeamFuzzing

/// libFuzzer's entry point for the `scte35` target (FuzzTarget.scte35).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.scte35.run(bytes)
    return 0
}
