"""The one-time submission token: each token applies its write once (campaign/submissions.py)."""

import pytest
from django.template import Context, Template

from campaign.models import Account, Submission
from campaign.submissions import AlreadyDone, OnceForm, SubmissionMissing, applied_once, new_token, run_once

pytestmark = pytest.mark.django_db


def make_account(world, name="Purse"):
    return Account.objects.create(campaign=world.campaign, name=name)


def test_a_repeated_token_answers_with_the_first_result_and_writes_nothing(world):
    token, calls = new_token(), []

    def write():
        calls.append(1)
        return make_account(world, f"Purse {len(calls)}")

    first = run_once(token=token, kind="account", write=write)
    with pytest.raises(AlreadyDone) as repeated:
        run_once(token=token, kind="account", write=write)
    assert repeated.value.result == first and repeated.value.result.name == "Purse 1"
    assert calls == [1] and Account.objects.count() == 1


def test_a_refused_write_leaves_the_token_unused_so_the_corrected_form_can_be_sent_again(world):
    token = new_token()

    def refused():
        make_account(world, "Half-made")
        raise ValueError("No.")

    with pytest.raises(ValueError):
        run_once(token=token, kind="account", write=refused)
    assert not Submission.objects.exists() and not Account.objects.exists()
    assert run_once(token=token, kind="account", write=lambda: make_account(world)).name == "Purse"


@pytest.mark.parametrize("token", ["", "short", "x" * 65, "has spaces in it here", None])
def test_a_missing_or_damaged_token_is_refused_with_a_sentence(world, token):
    with pytest.raises(SubmissionMissing, match="reload the page"):
        run_once(token=token, kind="account", write=lambda: make_account(world))
    assert not Account.objects.exists()


def test_a_token_used_for_one_thing_cannot_do_another(world):
    token = new_token()
    run_once(token=token, kind="account", write=lambda: make_account(world))
    with pytest.raises(SubmissionMissing, match="already used for something else"):
        run_once(token=token, kind="other", write=lambda: make_account(world, "Other"))
    assert Account.objects.count() == 1


def test_a_decorated_service_without_a_token_behaves_as_before(world):
    @applied_once("account")
    def account_open(*, name):
        return make_account(world, name)

    account_open(name="A")
    account_open(name="B")
    token = new_token()
    account_open(name="C", submission=token)
    with pytest.raises(AlreadyDone):
        account_open(name="D", submission=token)
    assert sorted(Account.objects.values_list("name", flat=True)) == ["A", "B", "C"]


def test_a_form_posted_without_its_token_says_to_reload_the_page():
    form = OnceForm(data={})
    assert not form.is_valid()
    assert "reload the page" in " ".join(form.non_field_errors())


def test_each_rendered_form_gets_a_fresh_token():
    first, second = OnceForm(), OnceForm()
    assert first["submission"].value() != second["submission"].value()
    rendered = Template("{% load submissions %}{% submission_field %}{% submission_field %}").render(Context())
    values = [part.split('"')[0] for part in rendered.split('value="')[1:]]
    assert len(set(values)) == 2 and all(len(value) >= 16 for value in values)
