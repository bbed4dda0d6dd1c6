"""tests/counted.py: a counted request fails on a wrong status, on a page that does not show what it should,
and on more queries than pinned, each with a sentence saying which."""

import pytest
from django.urls import reverse

from tests.counted import counted_get

pytestmark = pytest.mark.django_db


def test_a_page_within_its_count_with_its_status_and_content_passes_and_says_its_count(client, world):
    client.force_login(world.gm.user)
    page = counted_get(client, reverse("campaign:detail", args=[world.campaign.slug]), queries=50,
                       contains=[world.campaign.name, "Ann the Bold"])
    assert page.response.status_code == 200 and world.campaign.name in page.text
    assert 0 < page.queries <= 50


def test_a_404_fails_the_count_even_within_its_queries(client, world):
    client.force_login(world.gm.user)
    with pytest.raises(AssertionError, match="answered 404, not 200"):
        counted_get(client, reverse("campaign:detail", args=["nowhere"]), queries=50, contains="Not found")


def test_a_redirect_to_the_login_fails_the_count(client, world):
    with pytest.raises(AssertionError, match="answered 302, not 200"):
        counted_get(client, reverse("campaign:detail", args=[world.campaign.slug]), queries=50,
                    contains=world.campaign.name)


def test_a_page_that_does_not_show_the_piece_fails(client, world):
    client.force_login(world.gm.user)
    with pytest.raises(AssertionError, match="does not show 'The Bandit King'"):
        counted_get(client, reverse("campaign:detail", args=[world.campaign.slug]), queries=50,
                    contains=[world.campaign.name, "The Bandit King"])


def test_more_queries_than_pinned_fail_with_the_queries_listed(client, world):
    client.force_login(world.gm.user)
    with pytest.raises(AssertionError, match="more than 1:\n.*SELECT"):
        counted_get(client, reverse("campaign:detail", args=[world.campaign.slug]), queries=1,
                    contains=world.campaign.name)
