"""``tasksvc export --group <id> [--output file]`` (SPEC section 35): an operator writes a group's tasks, open and
completed, as the same CSV file ``GET /api/groups/{id}/tasks.csv`` answers (UTF-8 with a byte-order mark, names
never numbers, the recurrence in the group's language); to standard output without ``--output``.

This module is loaded by ``cli`` at its start, so it imports the database and the use cases only when it runs."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from tasksvc_run import exits

if TYPE_CHECKING:
    from taskcore.settings import Settings

HELP = "write a group's tasks, open and completed, as a CSV file: --group <id> [--output <file>]"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The command's options."""
    parser.add_argument("--group", required=True, help="the group's id, e.g. 120363000000000000@g.us")
    parser.add_argument("--output", help="the file to write (default: standard output)")


def run_export(settings: Settings, args: argparse.Namespace) -> int:
    """Write the file; 0 when written, 1 for no database, a group the bot never saw or a file that cannot be
    written, 2 for a malformed group id."""
    from taskcore.errors import NotFound  # noqa: PLC0415 - see the module docstring
    from taskcore.identity import normalize_group_id  # noqa: PLC0415
    from taskcore.services import Database  # noqa: PLC0415
    from taskcore.services.task_export import operator_group_csv  # noqa: PLC0415
    from tasksvc_run import units  # noqa: PLC0415

    try:
        group_id = normalize_group_id(args.group)
    except ValueError:
        print("tasksvc export: give the group's id as <digits>@g.us", file=sys.stderr)
        return exits.CONFIG
    if not settings.database_url and not settings.database_path.is_file():
        print(f"tasksvc export: no database at {settings.database_path} (DB_PATH, or DATA_DIR/tasks.db when "
              "DB_PATH is unset)", file=sys.stderr)
        return exits.FAILED
    db = Database.from_url(settings.sqlalchemy_url)
    try:
        body = units.look(db, operator_group_csv, group_id=group_id, default_lang=settings.default_language,
                          fallback=settings.zone)
    except NotFound:
        print(f"tasksvc export: the bot knows no group {group_id}", file=sys.stderr)
        return exits.FAILED
    finally:
        db.dispose()
    if args.output is None:
        sys.stdout.buffer.write(body)
        sys.stdout.buffer.flush()
        return exits.OK
    try:
        Path(args.output).write_bytes(body)
    except OSError as exc:
        print(f"tasksvc export: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return exits.FAILED
    print(f"tasksvc export: {args.output} written", file=sys.stderr)
    return exits.OK
