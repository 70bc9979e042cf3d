"""Thin process shells around taskcore: bot, web, proxy, schedulers, supervisor and the command line."""
