import CLibFuzzer
import SeamFuzzing

/// The `dash` target (FuzzTarget.dash) as a libFuzzer executable. SwiftPM makes `main` an alias of
/// `FuzzDASH_main`, so that is where libFuzzer's driver starts.
@_cdecl("FuzzDASH_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        FuzzTarget.dash.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
        return 0
    }
}
