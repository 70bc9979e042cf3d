"""The messaging gateway (Evolution API v2): wire format and client."""
