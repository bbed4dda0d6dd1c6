"""``manage.py account_create`` (issue 35): a plain account from the command line (staff only with
``--staff``), the password prompted twice or read from a named environment variable, never an argument;
sign-up's rules hold, and every refusal is a sentence and a non-zero exit."""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from people.management.commands import account_create

pytestmark = pytest.mark.django_db
User = get_user_model()
GOOD = "lantern-quarry-91"


def run(*args, **options) -> str:
    out = io.StringIO()
    call_command("account_create", *args, stdout=out, **options)
    return out.getvalue()


def prompts(monkeypatch, *answers: str) -> list[str]:
    """Answer getpass with ``answers`` in turn; the prompts it was given."""
    asked, given = [], iter(answers)

    def fake_getpass(prompt=""):
        asked.append(prompt)
        return next(given)

    monkeypatch.setattr(account_create.getpass, "getpass", fake_getpass)
    return asked


def test_a_plain_account_from_a_password_in_the_environment(monkeypatch):
    monkeypatch.setenv("MUSTER_NEW_PASSWORD", GOOD)
    out = run("olga", "Olga the Owner", password_from_env="MUSTER_NEW_PASSWORD")
    user = User.objects.get(username="olga")
    assert user.first_name == "Olga the Owner" and user.check_password(GOOD)
    assert not (user.is_staff or user.is_superuser) and user.is_active
    assert "olga" in out and GOOD not in out


def test_staff_only_with_staff(monkeypatch):
    monkeypatch.setenv("PW", GOOD)
    run("olga", "Olga", "--staff", "--password-from-env", "PW")
    user = User.objects.get(username="olga")
    assert user.is_staff and user.is_superuser


def test_the_password_is_prompted_twice(monkeypatch):
    asked = prompts(monkeypatch, GOOD, GOOD)
    run("olga", "Olga")
    assert len(asked) == 2 and User.objects.get(username="olga").check_password(GOOD)


def test_two_different_passwords_are_refused(monkeypatch):
    prompts(monkeypatch, GOOD, GOOD + "x")
    with pytest.raises(CommandError, match="differ"):
        run("olga", "Olga")
    assert not User.objects.filter(username="olga").exists()


def test_there_is_no_password_argument():
    with pytest.raises(CommandError):
        run("olga", "Olga", "--password", GOOD)
    assert not User.objects.filter(username="olga").exists()


def test_an_unset_environment_variable_is_refused(monkeypatch):
    monkeypatch.delenv("NOT_SET_HERE", raising=False)
    with pytest.raises(CommandError, match="NOT_SET_HERE"):
        run("olga", "Olga", password_from_env="NOT_SET_HERE")
    assert not User.objects.exists()


@pytest.mark.parametrize(("username", "password", "match"), [
    ("ann", GOOD, "taken"),
    ("ANN", GOOD, "taken"),
    ("ann.", GOOD, "looks too much like"),
    ("olga", "password123", "too common"),
    ("olga", "short", "too short"),
    ("ol ga", GOOD, "no spaces"),
])
def test_sign_up_rules_hold(monkeypatch, world, username, password, match):
    monkeypatch.setenv("PW", password)
    with pytest.raises(CommandError, match=match):
        run(username, "Olga", password_from_env="PW")
    assert User.objects.count() == 5  # the world's five

