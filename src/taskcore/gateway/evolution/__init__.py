"""Evolution API v2, one of the gateways the bot speaks (../shared/gateway/CONTRACT.md): its webhook bodies decoded
into the bot's events (``decode``), its requests encoded from the bot's words (``encode``) and its answers read
(``answers``); pure. Its HTTP client is ``tasksvc_run.gateways.evolution``."""
