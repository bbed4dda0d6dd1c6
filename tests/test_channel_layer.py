"""make run's in-process channel layer (muster/channel_layer.py): the expiry sweep at most once a second,
messages still expiring."""

from __future__ import annotations

import asyncio

from channels.layers import InMemoryChannelLayer

from muster.channel_layer import InMemoryLayer


def test_the_expiry_sweep_runs_at_most_once_a_second_however_many_sends(monkeypatch):
    sweeps = []
    monkeypatch.setattr(InMemoryChannelLayer, "_clean_expired", lambda layer: sweeps.append(layer))
    layer = InMemoryLayer()

    async def scenario():
        channel = await layer.new_channel()
        await layer.group_add("table.1.seat.0.x", channel)
        for _ in range(50):
            await layer.group_send("table.1.seat.0.x", {"type": "live.moved", "key": "1"})
            await layer.receive(channel)

    asyncio.run(scenario())
    assert len(sweeps) == 1  # a hundred sends and receives within the second: one sweep


def test_a_message_nobody_reads_still_expires(monkeypatch):
    layer = InMemoryLayer(expiry=0)  # every message is already old
    monkeypatch.setattr(InMemoryLayer, "SWEEP_EVERY_S", 0.0)

    async def scenario():
        gone, kept = await layer.new_channel(), await layer.new_channel()
        await layer.group_add("group", gone)
        await layer.send(gone, {"type": "live.moved", "key": "1"})
        await layer.send(kept, {"type": "live.moved", "key": "2"})  # the sweep on this send's receive drops it
        layer._clean_expired()
        return gone, layer.channels, layer.groups.get("group", {})

    gone, channels, members = asyncio.run(scenario())
    assert gone not in channels and gone not in members
