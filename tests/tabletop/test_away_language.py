"""The sentence that a phone is not connected (issue 38) reaches each socket in the language its page is read in
(issue 41): ``away.tell`` says it once per watched viewer, under that viewer's language."""

import json

import pytest
from django.utils import translation

from tabletop import away, viewers

from tests.factories import gridaris_table

pytestmark = pytest.mark.django_db


def test_each_socket_hears_the_sentence_in_its_pages_language(monkeypatch, world):
    table = gridaris_table(world.campaign, [world.ann, world.ben], title="Inn")
    watched = [viewers.in_language(f"gm.{world.gm.pk}", "de"), "seat.1.abc", viewers.in_language("seat.0.def", "de")]
    monkeypatch.setattr(away.presence, "watched", lambda space: watched)
    monkeypatch.setattr(away, "note", lambda table, own_seat=None: f"{own_seat}:{translation.get_language()}")
    sent = []
    monkeypatch.setattr(away, "send_all", sent.extend)
    away.tell(table.pk)
    said = {group: json.loads(message["text"])["away"] for group, message in sent}
    assert said == {
        viewers.viewer_group(table.pk, watched[0]): "None:de",
        viewers.viewer_group(table.pk, watched[1]): "1:en-gb",
        viewers.viewer_group(table.pk, watched[2]): "0:de",
    }
