"""The gateways' HTTP clients (SPEC section 36): each implements ``taskcore.gateway.port.Gateway`` over one aiohttp
ClientSession; the composition root picks one by GATEWAY_KIND."""
