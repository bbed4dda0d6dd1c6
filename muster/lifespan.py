"""The server's start and stop (ASGI lifespan): as it stops, the computer's processes stop with it.

uvicorn answers SIGTERM and Ctrl-C by closing its sockets, finishing the running requests and then
sending ``lifespan.shutdown``; after that it raises the signal again, and SIGTERM's default action
ends the process on the spot, with no ``atexit`` run. So the computer's pool (tabletop/computer/pool.py)
is shut down here, before that, where it ends its processes; ``multiprocessing``'s resource tracker
then ends too, its last holder gone (issue 34). ``scripts/serve.py`` turns the lifespan on; a server
started without it (``--lifespan off``) still loses its pool's processes within a second of dying
(tabletop/computer/lifeline.py).
"""

from __future__ import annotations

import asyncio

from tabletop.computer import pool


async def lifespan(scope, receive, send) -> None:
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await asyncio.to_thread(pool.shutdown)  # it waits up to a second for a busy process
            await send({"type": "lifespan.shutdown.complete"})
            return
