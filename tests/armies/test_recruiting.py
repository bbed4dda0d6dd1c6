"""armies/services/recruiting.py: offers, purchases, quest grants; and selectors/offers.py."""

import pytest
from django.core.exceptions import PermissionDenied

from armies import selectors
from armies.models import ArmyUnit, RecruitOffer
from armies.services import ArmyError
from armies.services.recruiting import offer_post, quest_grant, recruit_buy
from campaign.ledger import InsufficientFunds, balance_of
from campaign.models import LedgerEntry

from tests.armies.factories import CommanderFactory, RecruitOfferFactory, UnitCardFactory
from tests.concurrency import race
from tests.factories import CampaignFactory, MembershipFactory


@pytest.fixture
def spearmen(db):
    return UnitCardFactory(code="spearmen", name="Spearmen", price=20)


@pytest.fixture
def vey(world):
    return CommanderFactory(membership=world.ann, name="Lady Vey", balance=100)


@pytest.fixture
def offer(world, spearmen):
    return RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=30, quantity=3)


def buy(offer, commander, *, day=1, by=None):
    return recruit_buy(offer=offer, commander=commander, day=day, bought_by=by or commander.membership.user)


# --- posting offers -------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_gm_posts_an_offer(world, spearmen):
    posted = offer_post(campaign=world.campaign, card=spearmen, price=25, quantity=2, until_day=4)
    assert (posted.price, posted.quantity, posted.sold, posted.until_day, posted.quest) == (25, 2, 0, 4, "")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"quantity": 0}, "An offer holds at least one unit, not 0."),
        ({"price": -1}, "A price cannot be negative (got -1)."),
        ({"quest": "Slay the wyrm"}, "A quest unit is granted, not sold: leave its price at 0."),
        ({"until_day": 2}, "This offer would end on day 2, before today (day 3)."),
    ],
)
def test_bad_offers_are_refused(world, spearmen, arguments, message):
    world.campaign.current_day = 3
    world.campaign.save()
    with pytest.raises(ArmyError) as refused:
        offer_post(**{"campaign": world.campaign, "card": spearmen, "price": 10, "quantity": 1, **arguments})
    assert str(refused.value) == message
    assert not RecruitOffer.objects.exists()


@pytest.mark.django_db
def test_a_retired_card_cannot_be_offered(world):
    retired = UnitCardFactory(name="Old Guard", active=False)
    with pytest.raises(ArmyError, match="Old Guard is retired from the catalog and cannot be offered."):
        offer_post(campaign=world.campaign, card=retired, price=10, quantity=1)


# --- buying ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_buying_counts_the_unit_debits_the_treasury_and_adds_the_unit(world, vey, offer):
    unit = buy(offer, vey, day=2)

    offer.refresh_from_db()
    assert offer.sold == 1
    assert (unit.commander, unit.card.code, unit.joined_day) == (vey, "spearmen", 2)
    [joined] = unit.history.all()
    assert (joined.kind, joined.cause, joined.cause_type, joined.cause_id) == (
        "joined",
        f"Recruited from offer #{offer.pk} for 30 coins",
        "offer",
        offer.pk,
    )
    debit = LedgerEntry.objects.get(account=vey.account, kind=LedgerEntry.Kind.RECRUITMENT)
    assert (debit.amount, debit.day, debit.reason, debit.cause_type, debit.cause_id, debit.created_by) == (
        -30,
        2,
        "Recruited Spearmen",
        "offer",
        offer.pk,
        world.ann.user,
    )
    assert balance_of(vey.account) == 70


@pytest.mark.django_db
def test_a_sold_out_offer_is_refused(vey, offer):
    RecruitOffer.objects.filter(pk=offer.pk).update(sold=3)
    with pytest.raises(ArmyError) as refused:
        buy(offer, vey)
    assert str(refused.value) == "All 3 Spearmen have been recruited."
    assert not ArmyUnit.objects.exists()


@pytest.mark.django_db
def test_the_last_unit_of_an_offer_goes_once(vey, offer):
    for _ in range(3):
        buy(offer, vey)
    with pytest.raises(ArmyError, match="All 3 Spearmen have been recruited."):
        buy(offer, vey)
    assert ArmyUnit.objects.filter(commander=vey).count() == 3
    assert balance_of(vey.account) == 10


@pytest.mark.django_db
def test_an_expired_offer_is_refused(vey, offer):
    RecruitOffer.objects.filter(pk=offer.pk).update(until_day=4)
    buy(offer, vey, day=4)  # the last day still counts
    with pytest.raises(ArmyError) as refused:
        buy(offer, vey, day=5)
    assert str(refused.value) == "This offer ended on day 4."


@pytest.mark.django_db
def test_a_quest_offer_cannot_be_bought(world, vey, spearmen):
    quest = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=0, quest="Free the miners")
    expected = r"Spearmen cannot be bought: the GM grants it for a quest \(Free the miners\)."
    with pytest.raises(ArmyError, match=expected):
        buy(quest, vey)


@pytest.mark.django_db
def test_a_commander_who_cannot_pay_changes_nothing(world, offer):
    poor = CommanderFactory(membership=world.ann, name="Lady Vey", balance=25)

    with pytest.raises(InsufficientFunds) as refused:
        buy(offer, poor)

    assert str(refused.value) == "Lady Vey has 25 coins and this needs 30."
    offer.refresh_from_db()
    assert offer.sold == 0
    assert not ArmyUnit.objects.exists()
    assert LedgerEntry.objects.filter(account=poor.account).count() == 1  # the opening entry only


@pytest.mark.django_db
def test_with_credit_allowed_a_treasury_may_go_below_zero(world, offer):
    world.campaign.allow_credit = True
    world.campaign.save()
    broke = CommanderFactory(membership=world.ann)
    buy(offer, broke)
    assert balance_of(broke.account) == -30


@pytest.mark.django_db
def test_a_free_offer_adds_the_unit_without_a_ledger_entry(world, vey, spearmen):
    gift = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=0, quantity=1)
    buy(gift, vey)
    assert not LedgerEntry.objects.filter(kind=LedgerEntry.Kind.RECRUITMENT).exists()
    assert ArmyUnit.objects.filter(commander=vey).count() == 1


@pytest.mark.django_db
def test_players_buy_only_for_their_own_commanders_the_gm_for_anyone(world, vey, offer):
    with pytest.raises(PermissionDenied, match="You can recruit only for your own commanders."):
        buy(offer, vey, by=world.ben.user)
    buy(offer, vey, by=world.gm.user)
    offer.refresh_from_db()
    assert offer.sold == 1


@pytest.mark.django_db
def test_an_offer_of_another_campaign_is_refused(world, vey, spearmen):
    elsewhere = RecruitOfferFactory(campaign=CampaignFactory(), card=spearmen)
    with pytest.raises(ArmyError, match="Lady Vey is not in the campaign of this offer."):
        buy(elsewhere, vey)


# --- quests ---------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_gm_grants_a_quest_unit_free_and_it_counts(world, vey, spearmen):
    quest = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=0, quantity=1, quest="Free the miners")

    unit = quest_grant(offer=quest, commander=vey, day=3, gm=world.gm.user)

    quest.refresh_from_db()
    assert quest.sold == 1
    assert unit.history.get().cause == "Granted for the quest: Free the miners"
    assert balance_of(vey.account) == 100
    with pytest.raises(ArmyError, match="The only Spearmen on offer has been recruited."):
        quest_grant(offer=quest, commander=vey, day=3, gm=world.gm.user)


@pytest.mark.django_db
def test_only_the_gm_grants_and_only_quest_offers(world, vey, offer, spearmen):
    quest = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=0, quest="Free the miners")
    with pytest.raises(PermissionDenied, match="Only the GM can grant quest units."):
        quest_grant(offer=quest, commander=vey, day=1, gm=world.ann.user)
    with pytest.raises(ArmyError, match="Spearmen is for sale, not a quest reward: recruit it instead."):
        quest_grant(offer=offer, commander=vey, day=1, gm=world.gm.user)
    assert not ArmyUnit.objects.exists()


# --- what a commander can afford ------------------------------------------------------------------


@pytest.mark.django_db
def test_offers_affordable_are_open_sale_offers_within_the_balance(world, vey):
    cheap = RecruitOfferFactory(campaign=world.campaign, price=40)
    exact = RecruitOfferFactory(campaign=world.campaign, price=100)
    RecruitOfferFactory(campaign=world.campaign, price=101)  # too dear
    RecruitOfferFactory(campaign=world.campaign, price=0, quest="A quest")  # granted, not bought
    RecruitOfferFactory(campaign=world.campaign, price=10, quantity=2, sold=2)  # sold out
    RecruitOfferFactory(campaign=world.campaign, price=10, until_day=1)  # ended: the campaign is on day 2
    RecruitOfferFactory(price=10)  # another campaign
    world.campaign.current_day = 2
    world.campaign.save()
    vey.campaign.refresh_from_db()

    assert selectors.offers_affordable(vey) == [cheap, exact]

    world.campaign.allow_credit = True
    world.campaign.save()
    vey.campaign.refresh_from_db()
    assert len(selectors.offers_affordable(vey)) == 3


# --- the race -------------------------------------------------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_buyers_at_the_same_moment_cannot_oversell_an_offer(world, spearmen):
    last_one = RecruitOfferFactory(campaign=world.campaign, card=spearmen, price=30, quantity=1)
    players = [world.ann, world.ben, *MembershipFactory.create_batch(2, campaign=world.campaign)]
    buyers = [CommanderFactory(membership=player, balance=100) for player in players]

    results = race([lambda buyer=buyer: buy(last_one, buyer) for buyer in buyers])

    units = [result for result in results if isinstance(result, ArmyUnit)]
    refusals = [str(result) for result in results if not isinstance(result, ArmyUnit)]
    assert len(units) == 1
    assert refusals == ["The only Spearmen on offer has been recruited."] * 3
    last_one.refresh_from_db()
    assert last_one.sold == 1
    assert ArmyUnit.objects.count() == 1
    assert LedgerEntry.objects.filter(kind=LedgerEntry.Kind.RECRUITMENT).count() == 1
    assert sum(balance_of(buyer.account) for buyer in buyers) == 370
