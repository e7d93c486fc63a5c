import SeamFuzzing

/// libFuzzer's entry point for the `hls` target (FuzzTarget.hls).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.hls.run(bytes)
    return 0
}
