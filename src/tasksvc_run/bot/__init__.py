"""The bot process: webhook, chat commands, outbound queue worker and schedulers."""
