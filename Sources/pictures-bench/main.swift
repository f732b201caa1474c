// pictures-bench: prints the huge-JPEG figures (first frame against a full libjpeg-turbo
// decode of the same file, and peak memory), measured side by side in one run.
import Pictures

print(try PictureBenchmark.run())
