"""An account's language (issue 41): chosen on the account page, kept on this device at once and on every
device at its login; "the browser's" forgets it; a language not offered is refused with nothing kept."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse

from people.models import AccountLanguage
from people.services import PeopleError
from people.services.languages import account_language_set

from tests.catalogs import write_catalog

pytestmark = pytest.mark.django_db
COOKIE = settings.LANGUAGE_COOKIE_NAME


@pytest.fixture
def french(locale_dir):
    write_catalog(locale_dir, "fr", {"Save the language": "Enregistrer la langue"})
    return locale_dir


def test_a_language_chosen_is_kept_and_this_device_reads_it_at_once(client, world, french):
    client.force_login(world.ann.user)
    response = client.post(reverse("people:account_language"), {"language": "fr"})
    assert response.status_code == 302 and response.cookies[COOKIE].value == "fr"
    assert AccountLanguage.objects.get(user=world.ann.user).language == "fr"
    page = client.get(reverse("people:account"))
    assert page.status_code == 200 and page["Content-Language"] == "fr"
    assert "Enregistrer la langue" in page.content.decode()


def test_every_device_takes_the_accounts_language_at_login(client, world, french):
    account_language_set(user=world.ann.user, language="fr")
    world.ann.user.set_password("a long enough password 1")
    world.ann.user.save()
    response = client.post(
        reverse("login"), {"username": "ann", "password": "a long enough password 1"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 302 and response.cookies[COOKIE].value == "fr"


def test_an_account_without_a_choice_leaves_the_devices_language_alone(client, world, french):
    world.ben.user.set_password("a long enough password 2")
    world.ben.user.save()
    response = client.post(reverse("login"), {"username": "ben", "password": "a long enough password 2"})
    assert response.status_code == 302 and COOKIE not in response.cookies


def test_the_browsers_language_again_forgets_the_choice_on_this_device(client, world, french):
    account_language_set(user=world.ann.user, language="fr")
    client.force_login(world.ann.user)
    client.cookies[COOKIE] = "fr"
    response = client.post(reverse("people:account_language"), {"language": ""})
    assert response.status_code == 302 and response.cookies[COOKIE]["max-age"] == 0
    assert not AccountLanguage.objects.filter(user=world.ann.user).exists()


def test_a_language_not_offered_is_refused_and_nothing_is_kept(client, world, french):
    client.force_login(world.ann.user)
    response = client.post(reverse("people:account_language"), {"language": "xx"}, follow=True)
    assert response.status_code == 200 and "Choose a language of the list." in response.content.decode()
    assert not AccountLanguage.objects.exists()
    with pytest.raises(PeopleError, match="does not speak that language"):
        account_language_set(user=world.ann.user, language="es")
    assert not AccountLanguage.objects.exists()


def test_only_a_logged_in_account_chooses(client, french):
    response = client.post(reverse("people:account_language"), {"language": "fr"})
    assert response.status_code == 302 and "/login/" in response["Location"]
    assert not AccountLanguage.objects.exists()
