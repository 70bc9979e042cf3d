"""The local gateway of development mode and its chat simulator (SPEC section 12)."""
