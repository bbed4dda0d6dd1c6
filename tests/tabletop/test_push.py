"""Render once, push to each viewer (tabletop/push.py, issue 26), caught at the one place that sends:
every watched viewer gets its own region once per change, no region names a card hidden from its
viewer, a region is what that viewer's poll answers, and a viewer nobody watches costs nothing."""

from __future__ import annotations

import json
import random
import re

import pytest
from django.conf import settings
from django.db import connection
from django.urls import reverse
from django.utils import translation

from muster import presence
from tabletop import push, viewers
from tabletop.engines import ENGINES, get_engine
from tabletop.engines.kernel import GM, PUBLIC, SeededRng
from tabletop.models import Table
from tabletop.services.projector import projector_issue
from tabletop.services.tables import SeatSpec, table_create

from tests.cards import names_a_secret
from tests.tables import next_move, play_random

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pushed(monkeypatch) -> list[tuple[str, str, str | None]]:
    """What the pusher sends: (group, key, html), or (group, "close", None)."""
    said = []

    def send_all(messages):
        said.extend((group, m.get("key", "close"), json.loads(m["text"])["html"] if "text" in m else None)
                    for group, m in messages)

    monkeypatch.setattr(push, "send_all", send_all)
    return said


@pytest.fixture
def renders(monkeypatch) -> list[str]:
    """The template of every region the pusher renders."""
    done, render = [], push.shared_render

    def counted(template, context):
        done.append(template)
        return render(template, context)

    monkeypatch.setattr(push, "shared_render", counted)
    return done


def watch(table: Table, viewer: str, devices: int = 1) -> str:
    for _ in range(devices):
        presence.started(viewers.table_space(table.pk), viewer)
    return viewers.viewer_group(table.pk, viewer)


def watch_every_viewer(table: Table, world, devices: int = 1, language: str = "") -> dict[str, object]:
    """Every seat, the GM, Ben's public view and the projector link watched (in ``language``, else the site's):
    {group: the engine's viewer}."""
    link = projector_issue(table_id=table.pk, replacing="")
    seen_as = {viewers.seat_viewer(seat.index, seat.token): seat.index for seat in table.seats.all()}
    seen_as[viewers.gm_viewer(world.gm.pk)] = GM
    seen_as[viewers.public_viewer(world.ben.pk)] = PUBLIC
    seen_as[viewers.projector_viewer(link.token)] = PUBLIC
    spoken = language or settings.LANGUAGE_CODE
    return {watch(table, viewers.in_language(viewer, spoken), devices): who for viewer, who in seen_as.items()}


def guest_table(world, game: str, seed: int = 26) -> Table:
    config = get_engine(game).random_config(SeededRng(seed))
    specs = [SeatSpec(guest_name=f"Guest {n}") for n in range(len(config["players"]))]
    return table_create(campaign=world.campaign, game=game, title="Pushed", config=config, seats=specs, seed=seed)


@pytest.mark.parametrize("language", ["", "de"])  # the site's language, and German (issue 41)
@pytest.mark.parametrize("game", sorted(ENGINES))
def test_no_pushed_region_names_a_card_hidden_from_its_viewer(
    world, game, language, pushed, django_capture_on_commit_callbacks
):
    table = guest_table(world, game)
    engine = get_engine(game)
    groups = watch_every_viewer(table, world, language=language)
    chooser = random.Random(game)
    steps = 0
    while table.status == Table.Status.ACTIVE and steps < 25:
        pushed.clear()
        with django_capture_on_commit_callbacks(execute=True):
            table = play_random(table, 1, chooser)
        steps += 1
        assert sorted(group for group, _, _ in pushed) == sorted(groups)  # each viewer once
        for group, key, html in pushed:
            assert key == viewers.table_key(table) and f'data-key="{key}"' in html, group
            if groups[group] != GM:  # the GM's tablet shows every hand
                assert names_a_secret(engine, table.state, groups[group], html) is None, (group, table.version)
            if language:  # rendered in the language its sockets read
                assert 'lang="de"' in html or "Zug" in html or "Platz" in html, group
    assert steps >= 5


def as_shared(page: str) -> str:
    """A page's region as the pusher renders it for every device: the placeholders in place of this
    request's CSRF token and client action id."""
    page = re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"',
                  f'name="csrfmiddlewaretoken" value="{push.CSRF_PLACEHOLDER}"', page)
    for action_id in set(re.findall(r'name="client_action_id" value="([0-9a-f]{32})', page)):
        page = page.replace(action_id, push.ACTION_ID_PLACEHOLDER)
    return page


def test_a_pushed_region_is_what_that_viewers_poll_answers(client, world, pushed, django_capture_on_commit_callbacks):
    table = guest_table(world, "gotm")
    watch_every_viewer(table, world)
    slug, token = world.campaign.slug, table.projector.token
    polls = {viewers.viewer_group(table.pk, viewers.seat_viewer(seat.index, seat.token)):
             (None, reverse("tabletop:seat_poll", args=[seat.token])) for seat in table.seats.all()}
    polls[viewers.viewer_group(table.pk, viewers.gm_viewer(world.gm.pk))] = (
        world.gm.user, reverse("tabletop:gm_poll", args=[slug, table.pk]))
    polls[viewers.viewer_group(table.pk, viewers.public_viewer(world.ben.pk))] = (
        world.ben.user, reverse("tabletop:public_poll", args=[slug, table.pk]))
    polls[viewers.viewer_group(table.pk, viewers.projector_viewer(token))] = (
        None, reverse("tabletop:projector_poll", args=[token]))
    chooser = random.Random(26)
    for _ in range(4):
        pushed.clear()
        with django_capture_on_commit_callbacks(execute=True):
            table = play_random(table, 1, chooser)
        assert len(pushed) == len(polls)
        for group, _, html in pushed:
            user, url = polls[group]
            client.logout()
            if user is not None:
                client.force_login(user)
            response = client.get(url, {"v": "x"}, **HX)
            assert response.status_code == 200, group
            assert as_shared(response.content.decode()) == html, group
            assert push.CSRF_PLACEHOLDER not in response.content.decode()


def test_a_viewer_nobody_watches_is_not_rendered(world, table, pushed, renders, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        table = play_random(table, 1, random.Random(1))
    assert pushed == [] and renders == []  # nobody watches: no render, no push
    ann = table.seats.get(index=0)
    group = watch(table, viewers.seat_viewer(0, ann.token), devices=2)  # Ann's phone and tablet
    with django_capture_on_commit_callbacks(execute=True):
        table = play_random(table, 1, random.Random(2))
    assert [(g, key) for g, key, _ in pushed] == [(group, str(table.version))]
    assert renders == [push.TABLE_REGION]  # one render for both of Ann's devices


def test_a_viewer_watched_no_more_is_not_rendered(world, table, pushed, renders, django_capture_on_commit_callbacks):
    space, viewer = viewers.table_space(table.pk), viewers.gm_viewer(world.gm.pk)
    presence.started(space, viewer)
    presence.ended(space, viewer)  # the GM closed the tablet
    with django_capture_on_commit_callbacks(execute=True):
        play_random(table, 1, random.Random(1))
    assert pushed == [] and renders == []


def gm_post(client, table: Table):
    """The GM's tablet enters the next decision (for whichever seat, or the GM's own)."""
    seat, action = next_move(table)
    fields = {"action": json.dumps(action), "version": table.version, "as_seat": seat,
              "client_action_id": f"tap-{table.pk}"}
    return client.post(reverse("tabletop:gm_act", args=[table.campaign.slug, table.pk]), fields, **HX)


# An action's own queries (tests/tabletop/views/test_lean_requests.py pins those; the session and the
# membership with its user included) and its push's four (below), with every viewer watched.
ACTION_WITH_PUSH_QUERIES_MAX = 13


class Queries(list):
    """Every query run, counted by an execute wrapper (across the connection a request closes)."""

    def __call__(self, execute, sql, params, many, context):
        self.append(sql)
        return execute(sql, params, many, context)



@pytest.mark.django_db(transaction=True)  # the push runs when the action's own transaction commits, as served
def test_an_actions_queries_do_not_grow_with_the_devices_watching_and_its_answer_is_pushed_to_its_viewer(
    client, world, pushed, renders
):
    """Counted with an execute wrapper: the request closes its connection, which resets Django's log."""
    client.force_login(world.gm.user)
    counts = []
    for devices in (1, 3):
        table = Table.objects.get(pk=guest_table(world, "gridaris").pk)
        groups = watch_every_viewer(table, world, devices)
        renders.clear()
        queries = Queries()
        with connection.execute_wrapper(queries):
            response = gm_post(client, table)
        answer = response.content.decode()
        assert response.status_code == 200 and 'data-key="1"' in answer
        assert sorted(group for group, _, _ in pushed) == sorted(groups)
        # The GM's other tablets get the region the GM's own answer rendered: no second render of it.
        gm_group = viewers.viewer_group(table.pk, viewers.gm_viewer(world.gm.pk))
        assert [html for group, _, html in pushed if group == gm_group] == [as_shared(answer)]
        poll = client.get(reverse("tabletop:gm_poll", args=[world.campaign.slug, table.pk]), {"v": "x"}, **HX)
        assert as_shared(poll.content.decode()) == as_shared(answer)  # the answer is what the poll shows
        assert len(renders) == len(groups)  # once per viewer, whatever the devices, the answer included
        counts.append(len(queries))
        pushed.clear()
    assert counts[0] == counts[1] <= ACTION_WITH_PUSH_QUERIES_MAX, counts


def test_a_seat_whose_link_changed_or_went_to_the_computer_is_closed_not_rendered(
    world, table, pushed, renders, django_capture_on_commit_callbacks
):
    ann, ben = table.seats.get(index=0), table.seats.get(index=1)
    old = watch(table, viewers.seat_viewer(0, ann.token))
    ben_group = watch(table, viewers.seat_viewer(1, ben.token))
    ann.token = "renewed-" + ann.token[:20]  # a member removed: a new token nobody holds (people/services)
    ann.save(update_fields=["token"])
    with django_capture_on_commit_callbacks(execute=True):
        table = play_random(table, 1, random.Random(3))
    assert [group for group, key, _ in pushed if key == "close"] == [old]
    assert [(group, key) for group, key, _ in pushed if key != "close"] == [(ben_group, str(table.version))]
    assert len(renders) == 1  # Ben's only



@pytest.mark.parametrize("devices", [1, 4])
def test_the_push_of_every_viewer_reads_four_queries_whatever_the_devices(world, devices, pushed,
                                                                           django_assert_num_queries):
    table = guest_table(world, "gridaris")
    groups = watch_every_viewer(table, world, devices)  # two seats, the GM, Ben's public view, the projector
    # the table as its page renders it (with its campaign and stake), the watched seats, the watched
    # members' roles, the projector link (the GM's undo check asks the stake read with the table)
    with django_assert_num_queries(4):
        push.push_table(table.pk)
    assert sorted(group for group, _, _ in pushed) == sorted(groups)
    assert all(key == "0" and 'data-key="0"' in html for _, key, html in pushed)


def test_a_render_that_fails_tells_each_watched_viewer_the_key_alone(
    world, table, pushed, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    groups = watch_every_viewer(table, world)

    def broken(template, context):
        raise RuntimeError("a template error")

    monkeypatch.setattr(push, "shared_render", broken)
    with django_capture_on_commit_callbacks(execute=True):
        table = play_random(table, 1, random.Random(4))  # the action itself succeeds
    assert sorted(pushed) == sorted((group, str(table.version), None) for group in groups)  # they fetch
    assert "rendering the push of table" in caplog.text


def test_a_push_to_the_seats_compiles_no_query_once_warm(world, table, pushed, monkeypatch):
    """The push reads the table and its seats by queries compiled once per process (muster/prepared.py):
    issue 40, where compiling the seats' query at every push was a tenth of the server's CPU an action."""
    from django.db.models.sql.compiler import SQLCompiler

    for seat in table.seats.all():
        watch(table, viewers.seat_viewer(seat.index, seat.token))
    push.push_table(table.pk)  # warm: the prepared queries compile once
    compiled, as_sql = [], SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(self) or as_sql(self, *a, **k))
    pushed.clear()
    push.push_table(table.pk)
    assert len(pushed) == 2 and compiled == []


def test_each_language_a_viewer_is_watched_in_is_rendered_in_it_once(
    world, table, pushed, monkeypatch, django_capture_on_commit_callbacks
):
    """Ann's phone reads German, her tablet English (issue 41): one render each, made in its page's
    language, pushed to that language's sockets only; a second German phone costs no third render."""
    languages_rendered, render = [], push.shared_render

    def recorded(template, context):
        languages_rendered.append(translation.get_language())
        return render(template, context)

    monkeypatch.setattr(push, "shared_render", recorded)
    ann = table.seats.get(index=0)
    viewer = viewers.seat_viewer(0, ann.token)
    german = watch(table, viewers.in_language(viewer, "de"), devices=2)
    english = watch(table, viewers.in_language(viewer, settings.LANGUAGE_CODE))
    assert english == viewers.viewer_group(table.pk, viewer)  # the site's language: the name it always had
    with django_capture_on_commit_callbacks(execute=True):
        table = play_random(table, 1, random.Random(2))
    assert sorted(group for group, _, _ in pushed) == sorted([german, english])
    assert sorted(languages_rendered) == sorted(["de", settings.LANGUAGE_CODE])
    assert viewers.language_of(viewers.in_language(viewer, "de")) == (viewer, "de")
    assert viewers.language_of(viewer) == (viewer, settings.LANGUAGE_CODE)
