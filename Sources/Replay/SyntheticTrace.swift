// Generates long, busy traces (continuous drags and flings) for the replay benchmark.

/// Trace text made by a program rather than recorded, for benchmarks.
public enum SyntheticTrace {
    /// `seconds` of one finger dragging and flinging without pause on a long list: each
    /// gesture is a 96 ms swipe sampled at 125 Hz (a typical touchscreen report rate), then the
    /// finger lifts and lands again 250 ms later, catching the content while it still
    /// decelerates. Swipes alternate direction in runs so the content stays inside its range
    /// most of the time and also bounces at the ends. Deterministic: same text every call.
    public static func continuousFlings(seconds: Double, frameRate: Double = 60) -> String {
        var lines = [#"{"kind":"setup","viewport":{"width":400,"height":600},"content":{"width":400,"height":20000},"frameRate":"#
                     + ReplayOutput.number(frameRate) + "}"]
        let end = seconds * 1000
        let sampleInterval = 8.0  // ms: 125 Hz touch reports
        let samples = 12  // 96 ms of motion per swipe
        var t = 0.0
        var gesture = 0
        var id = 0
        while t + Double(samples) * sampleInterval <= end {
            // Six swipes up the list, then six down, so the content sweeps back and forth.
            let towardEnd = (gesture / 6) % 2 == 0
            let startY = towardEnd ? 520.0 : 80.0
            let step = (towardEnd ? -1.0 : 1.0) * (30 + Double(gesture % 5) * 4)  // 30–46 pt per sample
            lines.append(#"{"t":\#(ReplayOutput.number(t)),"kind":"touch.down","id":\#(id),"x":200,"y":\#(ReplayOutput.number(startY))}"#)
            for i in 1...samples {
                let y = startY + step * Double(i)
                lines.append(#"{"t":\#(ReplayOutput.number(t + Double(i) * sampleInterval)),"kind":"touch.motion","id":\#(id),"x":200,"y":\#(ReplayOutput.number(y))}"#)
            }
            t += Double(samples) * sampleInterval
            lines.append(#"{"t":\#(ReplayOutput.number(t)),"kind":"touch.up","id":\#(id)}"#)
            t += 250
            gesture += 1
            id = (id + 1) % 10
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
