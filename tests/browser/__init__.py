"""Browser tests: headless Chromium from Debian, driven by playwright."""
