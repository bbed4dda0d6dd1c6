"""The seat pages' service worker and its offline page (tabletop/views/offline.py, issue 38): served to anyone,
the same for everyone, holding nothing of a table; the worker at /play/sw.js (its default scope the seat pages),
starting with one line of plain data naming what it keeps under a version."""

import json

import pytest
from django.urls import resolve, reverse

from tabletop.views import offline

pytestmark = pytest.mark.django_db


def directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",")}


def worker_config(response) -> dict:
    first, _, _rest = response.content.decode().partition("\n")
    return json.loads(first.removeprefix("const OFFLINE = ").removesuffix(";"))


def test_the_worker_is_served_from_the_seat_pages_folder_and_asked_for_each_time(client):
    url = reverse("tabletop:offline_worker")
    assert url == "/play/sw.js"  # a worker controls the folder it is served from: /play/, every seat page
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/javascript")
    assert directives(response) == {"no-cache"}
    config = worker_config(response)
    assert config["page"] == reverse("tabletop:offline_page")
    assert [url.split("/static/")[1].split(".")[0] for url in config["assets"]] == ["css/muster", "js/offline_page"]
    assert len(config["version"]) == 16


def test_the_offline_page_is_not_taken_for_a_seat_and_holds_no_secret(client):
    assert resolve("/play/offline/").func is offline.offline_page  # not the seat whose token would be "offline"
    response = client.get(reverse("tabletop:offline_page"))
    assert response.status_code == 200
    assert directives(response) == {"no-cache"}  # no seat's page: a cache may keep it
    html = response.content.decode()
    assert "You are offline" in html
    assert "csrf" not in html.lower()
    assert not response.cookies  # no session, no CSRF cookie: the same page for everyone


def test_a_changed_offline_page_is_a_new_version(client, settings, tmp_path):
    before = worker_config(client.get("/play/sw.js"))["version"]
    changed = tmp_path / "tabletop"
    changed.mkdir()
    (changed / "offline.html").write_text("<!doctype html><title>Another release</title>")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [tmp_path, *settings.TEMPLATES[0]["DIRS"]]}]
    assert worker_config(client.get("/play/sw.js"))["version"] != before


def test_the_worker_and_the_page_answer_only_get(client):
    assert client.post("/play/sw.js").status_code == 405
    assert client.post("/play/offline/").status_code == 405
