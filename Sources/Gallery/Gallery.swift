// Gallery module: the image viewer scenes (placeholder until its first file lands).
