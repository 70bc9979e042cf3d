"""Lease owners name the host, the process and its start, so a restarted bot tells dead predecessors from live
instances (SPEC section 17)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import pytest

from taskcore.owners import UNKNOWN_START, LeaseOwner, dead_predecessors, parse_owner
from tasksvc_run import owner as owner_module
from tasksvc_run.owner import dead_owners, process_owner, process_start


def test_an_owner_is_read_back_from_its_text() -> None:
    owner = LeaseOwner("bot-host", 42, "17000000", "ab12cd34")
    assert parse_owner(str(owner)) == owner
    assert parse_owner("host-with:colons:42:17000000:ab12cd34") == LeaseOwner("host-with:colons", 42, "17000000",
                                                                              "ab12cd34")


def test_text_in_another_shape_is_no_owner() -> None:
    for text in ("local", "host:abc:1:n", "host:12:ab12cd34", ":12:1:n", "host:12::n", "host:١٢:1:n"):
        assert parse_owner(text) is None, text


def test_only_owners_of_this_host_whose_process_is_gone_or_another_are_dead() -> None:
    starts = {10: "500", 11: "999", 12: UNKNOWN_START}
    owners = ["here:10:500:a",  # runs, same start: alive
              "here:11:500:b",  # the pid now belongs to a later process: dead
              "here:13:500:c",  # no such process: dead
              "here:12:500:d",  # runs, start unknown (no /proc): alive
              "there:13:500:e",  # another host: left alone
              "local"]  # unreadable: left alone
    assert dead_predecessors(owners, host="here", start_of=starts.get) == {"here:11:500:b", "here:13:500:c"}


def test_this_process_is_alive_and_its_owner_carries_its_start() -> None:
    owner = parse_owner(process_owner())
    assert owner is not None
    assert (owner.host, owner.pid, owner.start) == (socket.gethostname(), os.getpid(), process_start(os.getpid()))
    assert dead_owners([str(owner)]) == set()


def test_a_process_that_exited_is_a_dead_owner() -> None:
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True,
                           text=True)
    pid = int(child.stdout)
    assert process_start(pid) is None
    gone = str(LeaseOwner(socket.gethostname(), pid, "12345", "n"))
    reused = str(LeaseOwner(socket.gethostname(), os.getpid(), "1", "n"))  # this pid, an earlier process
    assert dead_owners([gone, reused, process_owner()]) == {gone, reused}


def test_without_proc_this_process_starts_at_import_and_any_running_pid_is_alive(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(owner_module, "_boot_ticks", lambda: None)
    assert owner_module.process_start(os.getpid()) == owner_module._IMPORTED_AT
    assert owner_module.process_start(1) == UNKNOWN_START  # it runs; when it started is unknown
    child = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True,
                           text=True)
    assert owner_module.process_start(int(child.stdout)) is None
    assert dead_owners([str(LeaseOwner(socket.gethostname(), 1, "500", "n"))]) == set()
