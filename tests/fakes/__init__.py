"""Hand-written fakes that serve on real loopback and fail loudly on anything unexpected (STYLE habit 8)."""
