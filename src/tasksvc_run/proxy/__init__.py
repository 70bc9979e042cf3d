"""The internal reverse proxy that exposes bot and web on one port (seed R1-R7, SPEC section 8)."""
