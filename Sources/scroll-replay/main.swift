print("scroll-replay")
