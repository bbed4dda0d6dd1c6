"""Failed logins are throttled (django-axes): per user name whatever the address, per address
whatever the user name, for a bounded cool-off, with a sentence on the login page."""

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.conf import settings
from django.urls import reverse
from django.utils import timezone

from .factories import PASSWORD, UserFactory

LOCKED_SENTENCE = "Too many failed logins for this user name or from this address"


def log_in(client, username, password, address="10.0.0.1"):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def fail(client, username, times, address="10.0.0.1"):
    return [log_in(client, username, "wrong-guess", address) for _ in range(times)]


@pytest.fixture
def ann(db):
    return UserFactory(username="ann")


def test_the_limit_is_a_handful_with_a_bounded_cool_off():
    assert settings.AXES_FAILURE_LIMIT == 5
    assert settings.AXES_COOLOFF_TIME == timedelta(minutes=15)


def test_failures_up_to_the_limit_are_told_the_password_did_not_match(client, ann):
    replies = fail(client, "ann", settings.AXES_FAILURE_LIMIT - 1)
    assert [reply.status_code for reply in replies] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert "didn't match" in replies[-1].content.decode()


def test_repeated_failures_lock_the_user_name_out_with_a_sentence(client, ann):
    locked = fail(client, "ann", settings.AXES_FAILURE_LIMIT)[-1]
    page = locked.content.decode()
    assert locked.status_code == 429
    assert LOCKED_SENTENCE in page and "try again in 15 minutes" in page
    assert "didn't match" not in page
    assert 'name="username"' in page  # still the styled login page, form and all


def test_the_right_password_is_refused_during_the_lock_out_from_any_address(client, ann):
    fail(client, "ann", settings.AXES_FAILURE_LIMIT, address="10.0.0.1")
    reply = log_in(client, "ann", PASSWORD, address="10.0.0.99")
    assert reply.status_code == 429
    assert LOCKED_SENTENCE in reply.content.decode()
    assert "_auth_user_id" not in client.session


def test_the_lock_out_ends_after_the_cool_off(client, ann):
    fail(client, "ann", settings.AXES_FAILURE_LIMIT)
    assert log_in(client, "ann", PASSWORD).status_code == 429
    AccessAttempt.objects.update(attempt_time=timezone.now() - settings.AXES_COOLOFF_TIME - timedelta(seconds=1))
    reply = log_in(client, "ann", PASSWORD)
    assert reply.status_code == 302
    assert client.session["_auth_user_id"] == str(ann.pk)


def test_failures_during_the_lock_out_do_not_extend_it(client, ann):
    """An attacker who keeps guessing cannot keep the only GM out for good."""
    fail(client, "ann", settings.AXES_FAILURE_LIMIT)
    locked_at = timezone.now() - settings.AXES_COOLOFF_TIME + timedelta(minutes=1)  # a minute of lock-out left
    AccessAttempt.objects.update(attempt_time=locked_at)
    assert {reply.status_code for reply in fail(client, "ann", 3, address="10.0.0.2")} == {429}
    assert list(AccessAttempt.objects.values_list("attempt_time", "failures_since_start")) == [
        (locked_at, settings.AXES_FAILURE_LIMIT)
    ]  # refused, neither counted nor restarting the cool-off


def test_one_address_is_locked_out_across_user_names(client, ann):
    UserFactory(username="ben")
    for index in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, f"guess{index}", "wrong-guess", address="10.0.0.7")
    reply = log_in(client, "ben", PASSWORD, address="10.0.0.7")
    assert reply.status_code == 429
    assert LOCKED_SENTENCE in reply.content.decode()
    assert log_in(client, "ben", PASSWORD, address="10.0.0.8").status_code == 302  # ben himself elsewhere


def test_a_successful_login_resets_the_count(client, ann):
    fail(client, "ann", settings.AXES_FAILURE_LIMIT - 1)
    assert log_in(client, "ann", PASSWORD).status_code == 302
    client.logout()
    replies = fail(client, "ann", settings.AXES_FAILURE_LIMIT - 1)
    assert {reply.status_code for reply in replies} == {200}


def test_someone_elses_success_from_the_same_address_forgets_none_of_the_victims_failures(client, ann):
    """Issue 34: 40 guesses at ann's password from one address, the guesser logging in to their own
    account after every 4. Their success clears their own failures only: the 5th guess locks the
    address and ann's user name out, and ann's password stays refused until the cool-off ends."""
    mallory = UserFactory(username="mallory")
    limit = settings.AXES_FAILURE_LIMIT
    replies = []
    for _round in range(10):
        replies += fail(client, "ann", 4, address="10.6.6.6")
        log_in(client, "mallory", PASSWORD, address="10.6.6.6")
        client.logout()
    statuses = [reply.status_code for reply in replies]
    assert statuses[: limit - 1] == [200] * (limit - 1)
    assert set(statuses[limit - 1:]) == {429}  # from the 5th on, locked out: none of the rest is checked
    assert log_in(client, "ann", PASSWORD, address="10.0.0.50").status_code == 429  # ann's name is locked
    assert log_in(client, "mallory", PASSWORD, address="10.6.6.6").status_code == 429  # so is the address
    assert mallory.pk  # mallory's own account is not locked from elsewhere
    assert log_in(client, "mallory", PASSWORD, address="10.0.0.51").status_code == 302


def test_a_users_own_success_clears_only_their_own_failures_from_that_address(client, ann):
    UserFactory(username="ben")
    fail(client, "ben", 2, address="10.0.0.1")
    fail(client, "ann", 2, address="10.0.0.1")
    assert log_in(client, "ann", PASSWORD, address="10.0.0.1").status_code == 302
    client.logout()
    assert AccessAttempt.objects.filter(username="ann").count() == 0
    assert AccessAttempt.objects.get(username="ben").failures_since_start == 2  # ben's stay counted
    replies = fail(client, "ann", settings.AXES_FAILURE_LIMIT - 1 - 2, address="10.0.0.1")
    assert {reply.status_code for reply in replies} == {200}
    assert fail(client, "ann", 1, address="10.0.0.1")[0].status_code == 429  # 2 of ben's + 3 of ann's + 1
