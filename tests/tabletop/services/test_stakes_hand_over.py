"""Issue 25, stakes: a staked member's seat handed to the computer, and one member against the computer.

Rulings S8 (who can be staked: one check, ``stakes_refusals``, for the form, its preview and the service)
and S9 (a staked seat handed to the computer keeps its stake) in docs/rulings.md.
"""

import re

import pytest
from django.urls import reverse

from campaign.models import Activity, LedgerEntry
from tabletop.engines.gridaris.starter import STARTER_CARDS
from tabletop.models import Stake, Table
from tabletop.services.stakes import StakeTerms, stakes_refusals, table_open_with_stakes
from tabletop.services.tables import SeatSpec, SetupRefused

from tests.forms import once
from tests.tabletop._stakes import purse

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}
ALONE = "Stakes need at least two seated members, and only Ann the Bold is"


def text(html: str) -> str:
    return " ".join(re.sub(r"<[^>]+>", " ", html).replace("&#x27;", "'").split())


def preview(html: str) -> str:
    return re.search(r"<section class=\"table-preview\".*?</section>", html, re.S).group(0)


def staked_table(world, fee=10):
    ann, ben = purse(world.ann, 50), purse(world.ben, 50)
    return table_open_with_stakes(
        campaign=world.campaign, game="gridaris", title="Gridaris at the Inn",
        seats=[SeatSpec(membership=world.ann), SeatSpec(membership=world.ben)],
        config={"mode": "standard", "cards": STARTER_CARDS},
        stakes=StakeTerms(entry_fee=fee, payout=Stake.Payout.WINNER_TAKES_ALL, accounts={
            world.ann.pk: ann, world.ben.pk: ben}),
        created_by=world.gm.user, seed=7,
    )


# --- S9: a staked seat handed to the computer -------------------------------------------------------


def test_the_gms_seat_control_says_what_happens_to_the_stake_before_the_hand_over(client, world):
    table = staked_table(world)
    client.force_login(world.gm.user)
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    control = re.search(r'<form[^>]*class="computer-control".*?seat-bot-0.*?</form>', page, re.S).group(0)
    assert 'aria-describedby="seat-bot-0-stake"' in control
    assert ("Handed to the computer: Ann the Bold's stake of 10 coins stays in the pot and the computer plays "
            "for it: Ann the Bold wins or loses it as the seat does") in text(control)


def test_the_activity_line_names_the_stake_and_the_stake_stays_with_the_seat(client, world):
    table = staked_table(world)
    client.force_login(world.gm.user)
    url = reverse("tabletop:gm_seat_bot", args=[world.campaign.slug, table.pk])
    assert client.post(url, {"seat": 0, "bot": "quick", "version": table.version}).status_code in (200, 302)
    line = Activity.objects.filter(kind=Activity.Kind.OVERRIDE).latest("id").summary
    assert "seat 1 (Ann the Bold) is now played by the computer (quick)" in line
    assert "Ann the Bold's stake of 10 coins stays in the pot and the computer plays for it" in line
    table.refresh_from_db()
    assert table.seats.get(index=0).stake_account is not None  # the fee is still the seat's: S9
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert "Back to a person: Ann the Bold plays for their own stake of 10 coins again." in text(page)


def test_a_seat_without_a_stake_gets_no_warning(client, world, table):
    client.force_login(world.gm.user)
    page = client.get(reverse("tabletop:gm_table", args=[world.campaign.slug, table.pk])).content.decode()
    assert "computer-stake-warning" not in page


# --- S8: one member against the computer cannot be staked, and the preview says so at the top ---------


def new_table(world, game="gridaris"):
    return reverse("tabletop:table_new", args=[world.campaign.slug, game])


def alone_against_the_computer(world, **extra):
    return {"title": "Practice", "members": [world.ann.pk], "computers": 1, "computer_strength": "quick",
            "mode": "standard", "entry_fee": 5, **once(), **extra}


def test_the_form_and_the_service_refuse_one_member_against_the_computer_with_one_sentence(client, world):
    ann = purse(world.ann, 50)
    (sentence,) = stakes_refusals(members=["Ann the Bold"])
    assert sentence.startswith(ALONE)
    client.force_login(world.gm.user)
    response = client.post(new_table(world), alone_against_the_computer(world))
    assert response.status_code == 200 and not Table.objects.exists()
    shown = text(preview(response.content.decode()))
    assert shown.startswith(f"Your table Not ready to open: {sentence}")
    assert "ready to open." not in shown.replace("Not ready to open:", "")
    assert "1 seat" not in shown and "2 seats, but not ready to open: see above." in shown
    with pytest.raises(SetupRefused) as refused:
        table_open_with_stakes(
            campaign=world.campaign, game="gridaris", title="Practice",
            seats=[SeatSpec(membership=world.ann), SeatSpec(guest_name="Computer", bot="quick")],
            config={"mode": "standard", "cards": STARTER_CARDS},
            stakes=StakeTerms(entry_fee=5, payout=Stake.Payout.WINNER_TAKES_ALL, accounts={world.ann.pk: ann}),
        )
    assert str(refused.value) == sentence
    assert not Table.objects.exists() and not LedgerEntry.objects.filter(kind="stake").exists()


def test_the_htmx_preview_runs_the_forms_clean_and_opens_nothing(client, world):
    purse(world.ann, 50)
    purse(world.ben, 50)
    client.force_login(world.gm.user)
    refused = client.post(new_table(world), {**alone_against_the_computer(world), "preview": "1"}, **HX)
    html = refused.content.decode()
    assert refused.status_code == 200
    assert "<form" not in html and ALONE in text(html) and "not ready to open" in text(html)
    ready = client.post(new_table(world), {**alone_against_the_computer(world), "members": [world.ann.pk, world.ben.pk],
                                           "computers": 0, "preview": "1"}, **HX)
    shown = text(ready.content.decode())
    assert "2 seats: ready to open." in shown and "Not ready" not in shown
    untitled = client.post(new_table(world), {**alone_against_the_computer(world), "title": "", "computers": 0,
                                              "members": [world.ann.pk, world.ben.pk], "preview": "1"}, **HX)
    assert "2 seats: ready to open." in text(untitled.content.decode())  # the title is the browser's to ask for
    assert not Table.objects.exists()


def test_a_member_without_an_account_is_named_at_the_top_of_the_preview(client, world):
    purse(world.ann, 50)
    client.force_login(world.gm.user)
    both = [world.ann.pk, world.ben.pk]
    response = client.post(new_table(world), {**alone_against_the_computer(world), "members": both, "computers": 0})
    assert "Not ready to open: Ben the Sly has no account to stake from." in text(preview(response.content.decode()))
