"""The demo's logins (issue 34): generated per account, kept in a 0600 file, never the published one."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from armies.demo_logins import LEGACY_PASSWORD, read_logins
from armies.management.commands.load_demo import USERNAMES
from campaign.models import Campaign

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent.parent


def load_demo(path: Path, *args: str) -> str:
    out = io.StringIO()
    call_command("load_demo", *args, logins_file=str(path), stdout=out)
    return out.getvalue()


def demo_users() -> dict:
    return get_user_model().objects.in_bulk(USERNAMES, field_name="username")


def test_each_demo_account_gets_a_generated_password_of_its_own_shown_on_the_terminal(tmp_path):
    path = tmp_path / "logins"
    output = load_demo(path)

    logins = read_logins(path)
    assert sorted(logins) == sorted(USERNAMES)
    assert path.stat().st_mode & 0o777 == 0o600
    assert len(set(logins.values())) == len(USERNAMES)  # one each: a player's login opens no other
    assert LEGACY_PASSWORD not in logins.values() and LEGACY_PASSWORD not in output
    users = demo_users()
    for username, password in logins.items():
        assert users[username].check_password(password)
        assert not users[username].check_password(LEGACY_PASSWORD)
        assert f"{username:<7} {password}" in output
    assert users["admin"].is_staff and users["admin"].is_superuser  # staff, but on a password nobody else knows


def test_another_logins_file_gets_other_passwords(tmp_path):
    first = tmp_path / "first"
    load_demo(first)
    for user in demo_users().values():  # back on the published password, so the second run takes them over
        user.set_password(LEGACY_PASSWORD)
        user.save()
    second = tmp_path / "second"
    load_demo(second)
    assert sorted(read_logins(second)) == sorted(USERNAMES)
    assert set(read_logins(first).values()).isdisjoint(read_logins(second).values())


def test_rerunning_keeps_the_same_passwords(tmp_path):
    path = tmp_path / "logins"
    first_output = load_demo(path)
    first = read_logins(path)

    second_output = load_demo(path)

    assert read_logins(path) == first
    users = demo_users()
    assert all(users[username].check_password(password) for username, password in first.items())
    assert [line for line in second_output.splitlines() if "  " in line] == [
        line for line in first_output.splitlines() if "  " in line
    ]


def test_a_database_still_on_the_published_password_gets_new_ones(tmp_path):
    path = tmp_path / "logins"
    load_demo(path)
    path.unlink()  # a database from before issue 34: no file, the README's password
    for user in demo_users().values():
        user.set_password(LEGACY_PASSWORD)
        user.save()

    output = load_demo(path)

    logins = read_logins(path)
    users = demo_users()
    assert sorted(logins) == sorted(USERNAMES)
    for username, password in logins.items():
        assert not users[username].check_password(LEGACY_PASSWORD)
        assert users[username].check_password(password) and password in output
    assert "New passwords for gm, ann, ben, cara, admin" in output


def test_a_password_its_owner_chose_is_never_overwritten_nor_shown(tmp_path):
    path = tmp_path / "logins"
    load_demo(path)
    gm = demo_users()["gm"]
    gm.set_password("greta-chose-this")
    gm.save()

    output = load_demo(path)

    assert demo_users()["gm"].check_password("greta-chose-this")
    assert "greta-chose-this" not in output and read_logins(path)["gm"] not in output
    assert "gm      (changed on the site since: not shown)" in output


def test_passwords_only_loads_nothing_and_rotates_only_the_published_password(tmp_path):
    """make run DEMO=0: a real account named like a demo one keeps its password; one on the README's is rotated."""
    User = get_user_model()
    User.objects.create_user("gm", password="a-real-gms-own")
    User.objects.create_user("admin", password=LEGACY_PASSWORD, is_staff=True, is_superuser=True)
    path = tmp_path / "logins"

    output = load_demo(path, "--passwords-only")

    assert not Campaign.objects.exists() and User.objects.count() == 2
    assert list(read_logins(path)) == ["admin"]
    admin = demo_users()["admin"]
    assert admin.check_password(read_logins(path)["admin"]) and not admin.check_password(LEGACY_PASSWORD)
    assert demo_users()["gm"].check_password("a-real-gms-own")
    assert "New passwords for admin" in output and "gm " not in output


def test_passwords_only_on_a_database_without_the_demo_writes_no_file(tmp_path):
    path = tmp_path / "logins"
    assert load_demo(path, "--passwords-only") == ""
    assert not path.exists()


def test_the_logins_file_is_ignored_by_git():
    assert ".demo_logins" in (ROOT / ".gitignore").read_text().split()
