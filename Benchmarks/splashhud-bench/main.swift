print("splashhud-bench: under construction")
