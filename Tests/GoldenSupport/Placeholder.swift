// golden harness (being written)
