"""Benchmarks of SPEC section 14: figures and ratios from one run, on loopback, bounded in time."""
