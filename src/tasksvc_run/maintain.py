"""The one-off commands on the configured database: `backup`, `restore`, `failed`, `retry`, `forget`, `export`.

Each but `restore` finds its database or says so (SPEC section 40): "no database at <path>", status 1, never a
traceback and never an empty database made by mistake."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from tasksvc_run import exits, export_cli

if TYPE_CHECKING:
    from taskcore.settings import Settings


def no_database(settings: Settings, command: str) -> bool:
    """Say so when the SQLite file the configuration names does not exist (never make an empty one)."""
    if settings.database_url or settings.database_path.is_file():
        return False
    print(f"tasksvc {command}: no database at {settings.database_path} (DB_PATH, or DATA_DIR/tasks.db when DB_PATH "
          "is unset); point DB_PATH at the file, e.g. DB_PATH=tmp/tasks.db for the one of `tasksvc dev`",
          file=sys.stderr)
    return True


def maintain(args: argparse.Namespace, settings: Settings) -> int:
    """`backup`, `restore`, `failed`, `retry`, `forget` and `export`: one-off commands on the database of the
    configuration; each but `restore` says so and stops when there is none (it never makes an empty one)."""
    if args.command == "restore":
        from tasksvc_run.restore import cmd_restore

        return cmd_restore(settings, args.backup)
    if no_database(settings, args.command):
        return exits.FAILED
    if args.command in ("backup", "forget", "export"):
        from tasksvc_run.backup import cmd_backup
        from tasksvc_run.forget import run_forget

        return {"backup": lambda: cmd_backup(settings, args.destination, force=args.force),
                "forget": lambda: run_forget(settings, args.number),
                "export": lambda: export_cli.run_export(settings, args)}[args.command]()
    from tasksvc_run.failures_cli import cmd_failed, cmd_retry

    if args.command == "failed":
        return cmd_failed(settings, limit=max(1, args.limit))
    return cmd_retry(settings, args.ids, every=args.every)
