"""``tasksvc forget <number>`` (SPEC section 32): an operator erases a person who asked to be forgotten."""

from __future__ import annotations

import logging
import sys

from taskcore.identity import mask_phone_numbers
from taskcore.services.own_data import forget_number
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run import exits, units
from tasksvc_run.clock import SystemClock

log = logging.getLogger("tasksvc")




def run_forget(settings: Settings, number: str) -> int:
    """Erase the person; 0 when erased, 1 when nobody is stored with that number, 2 when it has no digit."""
    db = Database.from_url(settings.sqlalchemy_url)
    try:
        erased = units.run(db, forget_number, number=number, now=SystemClock().now())
    except ValueError:
        print("tasksvc forget: give the person's phone number or LID (digits)", file=sys.stderr)
        return 2
    finally:
        db.dispose()
    shown = mask_phone_numbers(number)
    if not erased:
        print(f"tasksvc forget: nobody is stored with the number {shown}", file=sys.stderr)
        return 1
    log.info("person forgotten", extra={"number": shown})
    print(f"tasksvc forget: {shown} erased")
    return exits.OK
