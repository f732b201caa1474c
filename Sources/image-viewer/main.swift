print("image-viewer")
