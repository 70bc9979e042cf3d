"""The web interface: sign-in by link, the JSON API and the pages (issue 4)."""

from tasksvc_run.web.app import make_web_app

__all__ = ["make_web_app"]
