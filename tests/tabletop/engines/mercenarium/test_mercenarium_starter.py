"""The Mercenarium STARTER DATA against the rulebook's words (rulings MC1 and MC2, the amended "Aura dots")."""

from tabletop.engines.mercenarium import cards as m

STRONG = {"B": 1, "C": 2, "S": 3, "G": 0}  # Blades east (right), Claws south (bottom), Souls west (left), Gears north


def by_suit(suit):
    return sorted((c for c in m.STARTER_CARDS if c["suit"] == suit and c["value"] != 15), key=lambda c: c["value"])


def test_higher_face_value_means_a_greater_number_of_aura_dots():
    """"higher face value means a greater number of aura dots distributed across a card's edges" -- over the whole
    starter catalog, every suit, 2 to Ace: the total rises with each value (the old data had a 2 with 5 dots and a 3
    with 4, a Queen with 16 and a King with 15)."""
    for suit in m.SUITS:
        totals = [sum(card["aura"]) for card in by_suit(suit)]
        assert len(totals) == 13
        assert all(lower < higher for lower, higher in zip(totals[:-1], totals[1:], strict=True)), (suit, totals)
        edges = [card["aura"] for card in by_suit(suit)]
        steps = zip(edges[:-1], edges[1:], strict=True)
        assert all(a <= b for lower, higher in steps for a, b in zip(lower, higher, strict=True)), (
            f"{suit}: no edge loses a dot as the value rises")


def test_the_starter_dots_keep_every_constraint_of_the_rulebook():
    assert len(m.STARTER_CARDS) == 56
    for card in m.STARTER_CARDS:
        aura = card["aura"]
        assert len(aura) == 4 and all(0 <= dots <= 5 for dots in aura), card["id"]
        if card["value"] == 15:
            assert aura == [0, 0, 0, 0], "Lords have no aura dots"
            continue
        strong = STRONG[card["suit"]]
        assert all(aura[strong] > dots for edge, dots in enumerate(aura) if edge != strong), (
            f"{card['id']}: the suit's strong edge has the most dots")
    mercenaries = [sum(c["aura"]) for c in m.STARTER_CARDS if 11 <= c["value"] <= 14]
    others = [sum(c["aura"]) for c in m.STARTER_CARDS if c["value"] <= 10]
    assert min(mercenaries) > max(others), "Mercenaries have the strongest auras in the Deck"


def test_primarys_normal_effect_is_labelled_starter_data():
    """The rulebook gives VII. Primary only its Singularity text; the normal effect is Muster's own."""
    primary = next(h for h in m.STARTER_HYMNS if h["number"] == 7)
    normal, singularity = primary["text"].split("In Singularity:")
    assert "STARTER DATA" in normal and "STARTER DATA" not in singularity
    fireyes = next(h for h in m.STARTER_HYMNS if h["number"] == 1)
    assert "STARTER DATA" in fireyes["text"].split("In Singularity:")[0]
    assert "Primary" in m.__doc__ and "Primary's normal effects included" in " ".join(m.__doc__.split())
