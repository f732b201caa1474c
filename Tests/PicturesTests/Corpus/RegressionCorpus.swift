// Inputs kept from fuzzing and from hand-crafted attacks on the container parsers, as
// base64 so SwiftPM needs no resource declarations.
import Foundation

/// Regression inputs for the decoders.
enum RegressionCorpus {
    /// One stored input and whether it must decode (true) or be refused (false).
    struct Case {
        let name: String
        let base64: String
        let decodes: Bool
    }

    /// Real zlib-compressed PNGs (all five filter types) made by Scripts/make-assets.py,
    /// used as fuzzing seeds because the test-side writer only emits stored deflate.
    static let seeds: [[UInt8]] = seedBase64.compactMap { Data(base64Encoded: $0).map(Array.init) }

    /// Output of `python3 Scripts/make-assets.py --fuzz-seeds`: RGB, RGBA, 16-bit gray,
    /// gray+alpha and palette+tRNS, 13×10, filters cycling None/Sub/Up/Average/Paeth.
    private static let seedBase64 = [
        "iVBORw0KGgoAAAANSUhEUgAAAA0AAAAKCAIAAADgjEOTAAAApUlEQVR42mNgSNERbItXWjHJ+NRRlzc/Qvm00wziyoMmdpQcmTnt+6odWrtvxZ75M4FRflGnoJIxQcQkbxdLDGK2W3dBwsADCZ2AMjZAuTPAXBagWiTzYWw7KFceJsUwe9bfNXsM9t5LPscw7b7SyQ8ufxjT9IU6kpRXTTU5c8L13e8wAb10o0TGXTeiqOqPHs+dcMeiewWJC/KHPIoVsTBPoPgMAAGTZ4sFuJk2AAAAAElFTkSuQmCC",
        "iVBORw0KGgoAAAANSUhEUgAAAA0AAAAKCAYAAABv7tTEAAAA4UlEQVR42mNgSNGJEGyLn6O0YtID41NHVVze/MgI5dNek2YQ96E8aKJJR8mRipnTvu9ZtUOLYfetWJczfyZ0MMov6rwiqGTsQgpmkreLrSEVM9utu7BEwsAjAYgfQGkgPoHgb4CLPZgBlWcB6QRaWYOwPvYAnG8HFgPygTYgnHeAYfasv0fW7DHg2Hsv2eccw7QJ95VOXvng8keCMU0/RqgjaYHyqqlPTM6c0HB99zsnTEBvQ7pR4hfGXTeiHOgTED2eO2+BPD4DHgiwADmRgCuAwAGB5ElogMSCAuEArgACALTMoQWc69c7AAAAAElFTkSuQmCC",
        "iVBORw0KGgoAAAANSUhEUgAAAA0AAAAKEAAAAAAaFVdbAAAAdUlEQVR42mNgSBFsU1phfMrlTShfmkF5UEfJzGmrduy+deYPo/wiQSXskEneDhdktlsnYYACN4DIGUDMIm+HYgyYJw9mM8yetWbP3nvnGO4rfXBhTBPqUF5lcsb1XZhAuhHjrhvkOKPHE2IpJgQ6Qx7NETAIABBIOVK1sEW1AAAAAElFTkSuQmCC",
        "iVBORw0KGgoAAAANSUhEUgAAAA0AAAAKCAQAAADF5xxPAAAAdUlEQVR42mNgSBFsU1phfMrlTShfmkF5UEfJzGmrduy+deYPo/wiQSXskEneDhdktlsnYYACN4DIGUDMIm+HYgyYJw9mM8yetWbP3nvnGO4rfXBhTBPqUF5lcsb1XZhAuhHjrhvkOKPHE2IpJgQ6Qx7NETAIABBIOVK1sEW1AAAAAElFTkSuQmCC",
        "iVBORw0KGgoAAAANSUhEUgAAAA0AAAAKCAMAAABYMCT2AAAAJ1BMVEUA/wAU600o15o8w+dQrzRkm4F4h86McxugX2i0S7XINwLcI0/wD5wo/DtQAAAAA3RSTlP/gAB/bWh4AAAAPElEQVR42k3MWQrAIBAE0alZjJrc/6Q5QMAgdv89GsoMj6x29THvB93rCsIFpALbgVWjnQdcQZTgr2zwASuWCLtfOmnxAAAAAElFTkSuQmCC",
    ]

    static let cases: [Case] = []
}
