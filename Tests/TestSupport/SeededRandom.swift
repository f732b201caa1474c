// Random numbers that repeat from a seed, for fuzz tests whose failures must be reproducible.

/// SplitMix64 (Steele, Lea, Flood 2014): tiny, seedable, good enough to pick mutations.
public struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    /// The sequence of `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15  // 2^64 / φ, SplitMix64's increment
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
