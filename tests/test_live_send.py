"""muster.live.send_all from every kind of thread: a push is sent, and never fails the write that caused it.

A write can commit in a thread that runs an event loop of its own (a test driving Chromium through
Playwright's sync API calls a service between two clicks): ``async_to_sync`` refuses to run there, and
the push once raised out of the commit hook, failing a day end that had committed (CI, issue 26).
"""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from muster import live


def _receive_one(channel: str) -> dict:
    async def receive():
        return await asyncio.wait_for(get_channel_layer().receive(channel), 5)

    return async_to_sync(receive)()


def _listener(group: str) -> str:
    layer = get_channel_layer()
    channel = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(group, channel)
    return channel


def test_a_push_from_a_thread_running_its_own_event_loop_is_sent(settings):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    channel = _listener("send-test")

    async def a_browser_test_calling_a_service():  # the sync call runs while this loop is running
        live.announce("send-test", "7")

    asyncio.run(a_browser_test_calling_a_service())
    assert _receive_one(channel)["key"] == "7"


def test_a_push_that_fails_is_logged_and_the_caller_goes_on(settings, caplog, monkeypatch):
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

    def broken():
        raise RuntimeError("the layer is gone")

    monkeypatch.setattr(live, "get_channel_layer", broken)
    with caplog.at_level(logging.ERROR, logger="muster.live"):
        live.announce("send-test", "8")  # returns: the write that caused it stands
    assert "live push" in caplog.text
