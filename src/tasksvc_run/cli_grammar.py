"""The ``tasksvc`` command line's grammar: its commands in the order an operator meets them, their help lines and
arguments (``cli`` runs them). It imports nothing heavy: `run` and `dev` parse their arguments before anything else
loads."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Mapping

from tasksvc_run import export_cli

TEMPLATE = "_template"  # hidden too: the template process of `run` and `dev` (template.py)


class _Version(argparse.Action):
    """``--version``: the installed package's version and commit, looked up only when asked."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        """Print ``tasksvc <version> (commit <id>)`` and exit."""
        from tasksvc_run.version import describe

        sys.stdout.write(describe() + "\n")
        parser.exit()


def parser(helps: Mapping[str, str], *, hidden: Iterable[str]) -> argparse.ArgumentParser:
    """The argument parser: the commands an operator uses (``helps``: each one's line), in the order of use; the
    internal ones (``hidden``, the template) without help."""
    parser = argparse.ArgumentParser(prog="tasksvc", description="Task tracker for WhatsApp groups.")
    parser.add_argument("--version", action=_Version, nargs=0, help="print the version and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="<command>")
    for name in ORDER:
        text = helps.get(name) or MAINTENANCE_HELPS[name]
        command = sub.add_parser(name, help=text, description=text[0].upper() + text[1:] + ".")
        if name == "backup":
            command.add_argument("destination", help="file to write, e.g. /backups/tasks-2026-11-22.db")
            command.add_argument("--force", action="store_true", help="replace the file if it exists")
        if name == "restore":
            command.add_argument("backup", help="the backup to restore, e.g. /backups/tasks-2026-11-26T030000Z.db")
        if name == "forget":
            command.add_argument("number", help="the person's phone number or LID, e.g. +34 600 11 22 33")
    export_cli.add_arguments(sub.choices["export"])
    for name in hidden:  # no help: argparse leaves them out of the list
        sub.add_parser(name)
    sub.add_parser(TEMPLATE).add_argument("pipes", type=int, nargs=2)  # its commands' and answers' (forks.py)
    sub.choices["failed"].add_argument("--limit", type=int, default=50, help="show at most this many (default 50)")
    sub.choices["retry"].add_argument("ids", nargs="*", metavar="id", help="a failure's id: inbox:<n> or send:<n>")
    sub.choices["retry"].add_argument("--all", action="store_true", dest="every", help="every failure")
    from taskcore.words import LANGUAGES  # the lexicons' registry: the languages the bot speaks

    sub.choices["commands-sheet"].add_argument("--lang", choices=LANGUAGES, default=LANGUAGES[0],
                                               help=f"the sheet's language: {', '.join(LANGUAGES)} "
                                                    f"(default {LANGUAGES[0]})")
    sub.choices["dev"].add_argument("--gateway", choices=GATEWAY_KINDS, help="the gateway whose wire the local "
                                    "fake speaks (sets GATEWAY_KIND; default: GATEWAY_KIND, else evolution)")
    sub.choices["doctor"].add_argument("--probe", action="store_true",
                                       help="also send a probe to the bot's own number and wait for its echo (15 s)")
    return parser


GATEWAY_KINDS = ("evolution", "waha")  # taskcore.settings.Settings.gateway_kind (not imported: pydantic is heavy)
FORGET_HELP = "erase a person (phone number or LID): identity, preferences, sessions, tokens, assignments"
BACKUP_HELP = "copy the live SQLite database to a file (online backup, checked for integrity)"
MAINTENANCE_HELPS = {
    "backup": BACKUP_HELP,
    "restore": "put a backup in place of the database (checked first; the unit stopped; the old file kept beside)",
    "failed": "list the webhook events and outbound sends that failed for good: when, what, the error",
    "retry": "queue failed webhook events and sends again: tasksvc retry <id>... | --all",
    "forget": FORGET_HELP,
    "export": export_cli.HELP,
}
# In the order an operator meets them: start, check, maintain, one process at a time, references.
ORDER = ("run", "dev", "doctor", "migrate", "backup", "restore", "failed", "retry", "forget", "export", "bot", "web",
         "proxy", "config-reference", "commands-sheet")
