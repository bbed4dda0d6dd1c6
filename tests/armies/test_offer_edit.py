"""The GM edits, withdraws and restores recruit offers (armies/services/recruiting.py)."""

import threading

import pytest
from django.core.exceptions import PermissionDenied
from django.db import connection

from armies import selectors
from armies.models import RecruitOffer
from armies.services import ArmyError
from armies.services.recruiting import (
    offer_edit,
    offer_post,
    offer_restore,
    offer_withdraw,
    quest_grant,
    recruit_buy,
)
from campaign.ledger import balance_of
from campaign.models import Activity, LedgerEntry
from campaign.submissions import AlreadyDone, new_token

from tests.armies.factories import CommanderFactory, RecruitOfferFactory, UnitCardFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)


@pytest.fixture
def offer(world):
    return RecruitOfferFactory(campaign=world.campaign, card=UnitCardFactory(name="Spearmen"), price=10, quantity=3)


def edit(world, offer, **changes):
    values = {"price": offer.price, "quantity": offer.quantity, "until_day": offer.until_day, "quest": offer.quest}
    return offer_edit(offer=offer, gm=world.gm.user, **{**values, **changes})


def test_the_gm_edits_price_quantity_last_day_and_one_activity_says_so(world, offer):
    edited = edit(world, offer, price=12, quantity=5, until_day=3)

    assert (edited.price, edited.quantity, edited.until_day) == (12, 5, 3)
    [line] = Activity.objects.filter(kind=Activity.Kind.OFFER_EDIT)
    assert line.summary == (
        f"Edited the offer of Spearmen (#{offer.pk}): price 10 → 12; quantity 3 → 5; until day no limit → day 3.")
    assert line.details.pop("said")  # its words (issue 41); the rest as before
    assert line.details == {"before": {"price": 10, "quantity": 3, "until_day": None},
                            "after": {"price": 12, "quantity": 5, "until_day": 3}}


def test_the_quantity_never_goes_below_what_was_sold(world, vey, offer):
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)

    refusal = "2 Spearmen were recruited from this offer already: its quantity cannot go below 2."
    with pytest.raises(ArmyError, match=refusal):
        edit(world, offer, quantity=1)
    assert edit(world, offer, quantity=2).remaining == 0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"until_day": 2}, "This offer would end on day 2, before today (day 3)."),
        ({"price": -1}, "A price cannot be negative (got -1)."),
        ({"price": 1_000_001}, "A price"),
        ({"quantity": 0}, "An offer's quantity"),
        ({"quest": "Slay the wyrm"}, "A quest unit is granted, not sold: leave its price at 0."),
        ({}, "Nothing to change"),
    ],
)
def test_refused_edits_change_nothing(world, offer, changes, message):
    world.campaign.current_day = 3
    world.campaign.save()
    with pytest.raises(ArmyError) as refused:
        edit(world, offer, **changes)
    assert message in str(refused.value)
    offer.refresh_from_db()
    assert (offer.price, offer.quantity, offer.until_day, offer.quest) == (10, 3, None, "")
    assert not Activity.objects.filter(kind=Activity.Kind.OFFER_EDIT).exists()


def test_only_the_gm_edits_withdraws_and_restores(world, offer):
    with pytest.raises(PermissionDenied):
        offer_edit(offer=offer, gm=world.ann.user, price=1, quantity=3, until_day=None)
    with pytest.raises(PermissionDenied):
        offer_withdraw(offer=offer, gm=world.ben.user)
    with pytest.raises(PermissionDenied):
        offer_restore(offer=offer, gm=world.ben.user)


def test_a_withdrawn_offer_is_not_offered_and_buy_or_grant_is_refused(world, vey, offer):
    quest = RecruitOfferFactory(campaign=world.campaign, price=0, quest="Slay the wyrm")
    offer_withdraw(offer=offer, gm=world.gm.user, reason="The mercenaries left town")
    offer_withdraw(offer=quest, gm=world.gm.user)

    assert list(selectors.offers_open(world.campaign.pk, 1)) == []
    assert selectors.offers_affordable(vey) == []
    with pytest.raises(ArmyError, match="^This offer was withdrawn by the GM.$"):
        recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    with pytest.raises(ArmyError, match="^This offer was withdrawn by the GM.$"):
        quest_grant(offer=quest, commander=vey, day=1, gm=world.gm.user)
    assert balance_of(vey.account) == 100
    assert RecruitOffer.objects.get(pk=offer.pk).sold == 0
    lines = list(Activity.objects.filter(kind=Activity.Kind.OFFER_WITHDRAW).order_by("id"))
    assert lines[0].summary == "Withdrew the offer of 3 × Spearmen (10 coins), 0 sold: The mercenaries left town"
    with pytest.raises(ArmyError, match="was withdrawn already"):
        offer_withdraw(offer=offer, gm=world.gm.user)


def test_a_restored_offer_is_offered_again(world, vey, offer):
    with pytest.raises(ArmyError, match="is not withdrawn"):
        offer_restore(offer=offer, gm=world.gm.user)
    offer_withdraw(offer=offer, gm=world.gm.user)
    offer_restore(offer=offer, gm=world.gm.user)

    assert [o.pk for o in selectors.offers_open(world.campaign.pk, 1)] == [offer.pk]
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    assert Activity.objects.filter(kind=Activity.Kind.OFFER_WITHDRAW).order_by("id").last().summary == (
        "Restored the offer of 3 × Spearmen (10 coins).")


def test_tokens_are_applied_once(world, offer):
    token = new_token()
    edit(world, offer, price=11, submission=token)
    with pytest.raises(AlreadyDone):
        edit(world, offer, price=12, submission=token)
    token = new_token()
    offer_withdraw(offer=offer, gm=world.gm.user, submission=token)
    with pytest.raises(AlreadyDone):
        offer_withdraw(offer=offer, gm=world.gm.user, submission=token)
    assert Activity.objects.filter(kind__in=[Activity.Kind.OFFER_EDIT, Activity.Kind.OFFER_WITHDRAW]).count() == 2


def test_posting_granting_and_buying_record_activity(world, vey):
    card = UnitCardFactory(name="Treant")
    posted = offer_post(campaign=world.campaign, card=card, price=0, quantity=1, quest="Find the grove",
                        posted_by=world.gm.user)
    quest_grant(offer=posted, commander=vey, day=1, gm=world.gm.user)
    sale = offer_post(campaign=world.campaign, card=card, price=5, quantity=1)  # the GM is named without posted_by
    recruit_buy(offer=sale, commander=vey, day=1, bought_by=world.ann.user)

    kinds = list(Activity.objects.order_by("id").values_list("kind", "actor", "summary"))
    assert kinds == [
        ("offer_new", world.gm.user.pk, "Posted an offer: 1 × Treant (quest: Find the grove)."),
        ("quest_grant", world.gm.user.pk, "Granted Treant to Lady Vey for the quest: Find the grove"),
        ("offer_new", world.gm.user.pk, "Posted an offer: 1 × Treant (5 coins)."),
        ("recruit", world.ann.user.pk, f"Recruited Treant for Lady Vey from offer #{sale.pk} for 5 coins."),  # L3
    ]
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.RECRUITMENT).count() == 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_edit_racing_a_purchase_never_oversells(world, vey):
    """The purchase holds the offer row; the edit to quantity 1 waits, then sees 2 sold, and is refused."""
    offer = RecruitOfferFactory(campaign=world.campaign, price=1, quantity=2)
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
    from django.db import transaction

    outcome = {}
    bought = threading.Event()
    release = threading.Event()

    def buyer():
        try:
            with transaction.atomic():
                recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
                bought.set()
                release.wait(5)
        finally:
            connection.close()

    thread = threading.Thread(target=buyer)
    thread.start()
    assert bought.wait(5)

    def editor():
        try:
            edit(world, RecruitOffer.objects.get(pk=offer.pk), quantity=1)
        except ArmyError as refusal:
            outcome["refusal"] = str(refusal)
        finally:
            connection.close()

    editing = threading.Thread(target=editor)
    editing.start()
    editing.join(0.5)
    assert editing.is_alive()  # waiting for the buyer's lock
    release.set()
    thread.join(5)
    editing.join(5)
    assert outcome["refusal"].endswith("its quantity cannot go below 2.")
    offer.refresh_from_db()
    assert (offer.sold, offer.quantity) == (2, 2)


def test_a_purchase_from_a_page_of_a_day_that_was_taken_back_is_refused(world, vey, offer):
    """A page made on day 2 posts after the GM took the end of day 1 back: nothing is written on day 2."""
    from armies.models import DayEnd

    DayEnd.objects.create(campaign=world.campaign, day=1, status=DayEnd.Status.REVERTED)
    with pytest.raises(ArmyError, match="Day 2 was taken back: the campaign is on day 1 again. Reload the page."):
        recruit_buy(offer=offer, commander=vey, day=2, bought_by=world.ann.user)
    assert balance_of(vey.account) == 100 and RecruitOffer.objects.get(pk=offer.pk).sold == 0
    recruit_buy(offer=offer, commander=vey, day=1, bought_by=world.ann.user)
