"""What both fakes share (``devgateway.fake``, Evolution API's; ``devgateway.waha_fake``, WAHA's): an aiohttp server
on 127.0.0.1 that records every accepted call and plays scripted failures, so that one suite drives either.

Scripts: ``fail_next`` (an error answer), ``hang_next`` (a wait before the call is carried out: a caller that went
away meanwhile is dropped, never served), ``answer_late`` (carried out at once, its answer held back: a caller that
timed out never learns that it went through), ``hold``/``release`` (sends wait for a release). Anything off the
contract's routes is answered 404 and makes ``close()`` raise. Each fake says how a call is admitted (its key and
instance checks), carried out, and what its errors look like.

What happens in a chat (``devgateway.acts``) each fake plays in its own wire, to the webhook the bot set: ``write``
(a person's message), ``react``, ``join`` (the bot is in a new group), each answering the status the bot's webhook
gave; ``bot_sent`` reads what the bot sent back into the port's words.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Generic, Protocol, Self, TypeVar

from aiohttp import web

from tasksvc_run.devgateway.acts import BOT_JID, BotSent, Group, Member, Reacted, Written

LISTEN_WITHIN = 10.0  # seconds a person's message waits for the bot to set its webhook (``tasksvc dev`` starting)
ANSWER_WITHIN = 10.0  # seconds a person's message waits for the webhook's answer


class Recorded(Protocol):
    """A call a fake keeps: its route's name (``sendText``...) and JSON body (None for none)."""

    @property
    def route(self) -> str: ...

    @property
    def body(self) -> Any: ...


CallT = TypeVar("CallT", bound=Recorded)


class Answered(Protocol):
    """A webhook post a fake made, and the status it got (None: no answer)."""

    @property
    def status(self) -> int | None: ...


PostT = TypeVar("PostT", bound=Answered)


async def answered(posts: Sequence[PostT], wanted: Callable[[PostT], bool],
                   within: float = ANSWER_WITHIN) -> int | None:
    """The status the webhook gave the first post that is ``wanted``, once it is made (waited for, bounded by
    ``within``: polled, as the posts go out in background tasks); None when none came."""
    try:
        async with asyncio.timeout(within):
            while True:
                found = next((post for post in posts if wanted(post)), None)
                if found is not None:
                    return found.status
                await asyncio.sleep(0.01)
    except TimeoutError:
        return None


@dataclass
class Script:
    """The next ``times`` calls of ``route`` (any, when None): answered ``status`` with ``body``, or carried out
    after ``delay`` s, their answer sent ``late`` s after."""

    route: str | None
    times: int
    status: int | None = None
    body: Any = None
    delay: float = 0.0
    late: float = 0.0


@dataclass
class LoopbackFake(Generic[CallT]):
    """The server; ``async with`` starts it and ``url`` is its base URL."""

    label: ClassVar[str] = "fake gateway"
    send_routes: ClassVar[frozenset[str]] = frozenset()

    api_key: str = "test-api-key"
    instance: str = "taskbot"
    send_delay: float = 0.0
    port: int = 0
    owner_jid: str | None = BOT_JID  # the number of the gateway's own account, the bot (None: never paired)
    calls: list[CallT] = field(default_factory=list, init=False)
    failed: list[tuple[str, int]] = field(default_factory=list, init=False)
    dropped: list[CallT] = field(default_factory=list, init=False)
    unexpected: list[str] = field(default_factory=list, init=False)
    held: int = field(default=0, init=False)
    url: str = field(default="", init=False)
    _scripts: list[Script] = field(default_factory=list, init=False)
    _open: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _changed: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    _runner: web.AppRunner | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        """Hook for subclasses: what they set up once their fields are."""

    def routes(self, app: web.Application) -> None:
        """The gateway's own routes."""
        raise NotImplementedError

    def add_routes(self, app: web.Application) -> None:
        """Hook for subclasses: routes served beside the gateway's own (the simulator's)."""

    async def admit(self, route: str, request: web.Request) -> CallT | web.StreamResponse:
        """The call, or the answer refusing it (a wrong key, an unknown instance)."""
        raise NotImplementedError

    def carry_out(self, call: CallT) -> web.StreamResponse:
        """Carry out an admitted call; its answer."""
        raise NotImplementedError

    def failure_body(self) -> Any:
        """The body of a scripted failure when the script gives none."""
        raise NotImplementedError

    def off_route(self, said: str) -> Any:
        """The body of the 404 of a route the contract does not have."""
        raise NotImplementedError

    async def stop_posting(self) -> None:
        """Let the webhook posts under way end (bounded)."""

    def new_id(self) -> str:
        """A fresh id for a person's message, in the form the gateway gives them."""
        raise NotImplementedError

    async def write(self, written: Written) -> int | None:
        """A person writes; what the bot's webhook answered (None: nothing, or no webhook set)."""
        raise NotImplementedError

    async def react(self, reacted: Reacted) -> int | None:
        """A person reacts; what the bot's webhook answered (None: nothing, or no webhook set)."""
        raise NotImplementedError

    async def join(self, group: Group) -> int | None:
        """The bot is added to ``group`` (listed from now on); what the bot's webhook answered."""
        raise NotImplementedError

    async def change(self, group: Group, action: str, member: Member) -> int | None:
        """In ``group`` (as it is after the change, listed from now on), ``member`` was added (``action`` ``add``)
        or made an admin (``promote``); what the bot's webhook answered."""
        raise NotImplementedError

    def read_send(self, call: CallT) -> BotSent | None:
        """A call of the bot's in the port's words when it is a send (a text or a reaction), else None."""
        raise NotImplementedError

    def bot_sent(self) -> list[BotSent]:
        """What the bot sent (accepted sends), in order, in the port's words."""
        return [sent for sent in map(self.read_send, self.calls) if sent is not None]

    async def listening(self, ready: Callable[[Self], bool]) -> bool:
        """Whether the bot's webhook is set (``ready``), waiting for it a while (bounded)."""
        try:
            await self.wait_for(ready, LISTEN_WITHIN)
        except AssertionError:
            return False
        return True

    async def start(self) -> str:
        """Listen on 127.0.0.1 (``port``, or a free one); return the base URL."""
        self._open.set()
        app = web.Application()
        self.routes(app)
        self.add_routes(app)
        app.router.add_route("*", "/{tail:.*}", self._unexpected)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}"  # type: ignore[union-attr]
        return self.url

    async def close(self) -> None:
        """Stop serving; raise AssertionError when a request went to a route the contract does not have."""
        self._open.set()
        await self.stop_posting()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.unexpected:
            raise AssertionError(f"{self.label} got requests off the contract: {self.unexpected}")

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    def fail_next(self, times: int = 1, *, status: int = 500, body: Any = None, route: str | None = None) -> None:
        """The next ``times`` calls (of ``route``, or any) answer ``status`` with ``body`` (default: the gateway's
        error body)."""
        self._scripts.append(Script(route, times, status, body if body is not None else self.failure_body()))

    def hang_next(self, times: int = 1, *, seconds: float, route: str | None = None) -> None:
        """The next ``times`` calls wait ``seconds`` before being carried out (if their caller is still there)."""
        self._scripts.append(Script(route, times, delay=seconds))

    def answer_late(self, times: int = 1, *, seconds: float, route: str | None = None) -> None:
        """The next ``times`` calls are carried out at once and answered ``seconds`` later: a caller that gives up
        before then does not learn that its call went through."""
        self._scripts.append(Script(route, times, late=seconds))

    def hold(self) -> None:
        """Sends wait from now on until ``release()``."""
        self._open.clear()

    def release(self) -> None:
        """Let held sends go on (those whose caller went away are dropped)."""
        self._open.set()

    def calls_to(self, route: str) -> list[CallT]:
        """Accepted calls of one route, in order."""
        return [call for call in self.calls if call.route == route]

    def sent_texts(self) -> list[str]:
        """The ``text`` of every accepted sendText, in order."""
        return [call.body["text"] for call in self.calls_to("sendText")]

    async def wait_for(self, predicate: Callable[[Self], bool], within: float = 5.0) -> None:
        """Wait until ``predicate(self)`` holds after some call was answered; AssertionError after ``within`` s."""
        try:
            async with asyncio.timeout(within):
                while not predicate(self):
                    self._changed.clear()
                    await self._changed.wait()
        except TimeoutError:
            raise AssertionError(f"{self.label}: condition not met within {within} s; calls={self.calls}") from None

    def record(self, call: CallT) -> None:
        """Keep an accepted call."""
        self.calls.append(call)
        self._changed.set()

    def refused(self, route: str, status: int) -> None:
        """Note a call answered with an error."""
        self.failed.append((route, status))
        self._changed.set()

    def endpoint(self, route: str) -> Callable[[web.Request], Awaitable[web.StreamResponse]]:
        """The handler of one route."""
        async def handle(request: web.Request) -> web.StreamResponse:
            return await self._serve(route, request)

        return handle

    async def _serve(self, route: str, request: web.Request) -> web.StreamResponse:
        call = await self.admit(route, request)
        if isinstance(call, web.StreamResponse):
            return call
        script = self._next_script(route)
        if script is not None and script.status is not None:
            self.refused(route, script.status)
            return web.json_response(script.body, status=script.status)
        await self._wait(route, script)
        if request.transport is None or request.transport.is_closing():
            self.dropped.append(call)
            self._changed.set()
            return web.Response(status=499)
        answer = self.carry_out(call)
        if script is not None and script.late:
            await asyncio.sleep(script.late)
        return answer

    def _next_script(self, route: str) -> Script | None:
        for script in self._scripts:
            if script.route in (None, route):
                script.times -= 1
                if script.times <= 0:
                    self._scripts.remove(script)
                return script
        return None

    async def _wait(self, route: str, script: Script | None) -> None:
        delay = (script.delay if script else 0.0) + (self.send_delay if route in self.send_routes else 0.0)
        if delay:
            await asyncio.sleep(delay)
        if route in self.send_routes and not self._open.is_set():
            self.held += 1
            self._changed.set()
            try:
                await self._open.wait()
            finally:
                self.held -= 1

    async def _unexpected(self, request: web.Request) -> web.Response:
        self.unexpected.append(f"{request.method} {request.path}")
        return web.json_response(self.off_route(f"Cannot {request.method} {request.path}"), status=404)
