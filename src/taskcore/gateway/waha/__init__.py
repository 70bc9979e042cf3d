"""The WAHA adapter's pure part (../shared/gateway/waha/CONTRACT.md; SPEC section 36): ``decode`` (its webhook
events into ``gateway.events``, ``CODEC``), ``webhook`` (the HMAC of a delivery and its de-duplication keys),
``encode`` (the requests the bot makes), ``answers`` (the answers it reads) and ``errors`` (failed calls classified).
No I/O, no clock: the HTTP client is ``tasksvc_run.gateways.waha``."""
