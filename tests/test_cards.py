"""tests/cards.py: a card id inside a link token is not a card shown; a card id on its own is."""

from tests.cards import names_card


def test_a_card_id_inside_a_link_token_is_not_named():
    page = '<a href="/projector/Jx2-4S-kq_9/">Projector</a> <meta content="4S_a">'
    assert not names_card(page, "4S")


def test_a_card_id_standing_alone_is_named():
    for page in ("<li>4S</li>", "Ann plays 4S.", '<span data-card="4S">', "4S"):
        assert names_card(page, "4S"), page
