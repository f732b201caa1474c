print("wl-inject")
