import CLibFuzzer
import SeamFuzzing

/// The `scte35` target (FuzzTarget.scte35) as a libFuzzer executable. SwiftPM makes `main` an alias of
/// `FuzzSCTE35_main`, so that is where libFuzzer's driver starts.
@_cdecl("FuzzSCTE35_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.scte35.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
}
