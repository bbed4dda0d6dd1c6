"""Refusals (403, 404, other 4xx) are logged as one line each, with the reason and who asked; a
server error keeps its traceback."""

import logging

import pytest
from django.test import Client
from django.urls import reverse

from muster.request_log import OneLineRefusals, without_secrets

pytestmark = pytest.mark.django_db


def request_lines(caplog) -> list[logging.LogRecord]:
    return [record for record in caplog.records if record.name.startswith(("django.request", "django.security"))]


def test_a_403_is_one_line_with_the_reason_and_the_user(client, world, caplog):
    client.force_login(world.ann.user)
    with caplog.at_level(logging.INFO):
        response = client.get(reverse("armies:treasury", args=[world.campaign.slug]))
    assert response.status_code == 403
    [record] = request_lines(caplog)
    assert record.levelno == logging.WARNING
    assert record.exc_info is None and record.exc_text is None
    assert record.getMessage() == f"403 GET /c/{world.campaign.slug}/treasury/ user=ann: Only the GM can do this."
    assert "Traceback" not in caplog.text and len(caplog.text.strip().splitlines()) == 1


def test_a_404_is_one_line(client, world, caplog):
    client.force_login(world.gm.user)
    with caplog.at_level(logging.INFO):
        assert client.get(reverse("armies:commander", args=[world.campaign.slug, 999999])).status_code == 404
    [record] = request_lines(caplog)
    assert record.exc_info is None
    assert record.getMessage().startswith(f"404 GET /c/{world.campaign.slug}/armies/999999/ user=gm: ")
    assert "Traceback" not in caplog.text


def test_an_anonymous_refusal_says_so_and_a_path_cannot_forge_a_line(client, caplog):
    with caplog.at_level(logging.INFO):
        assert client.get("/nowhere/\n403 GET /forged user=gm: x").status_code == 404
    [record] = request_lines(caplog)
    message = record.getMessage()
    assert "\n" not in message and " user=anonymous: " in message


def test_a_server_error_keeps_its_traceback(rf):
    request = rf.get("/boom/")
    try:
        raise RuntimeError("boom")
    except RuntimeError as error:
        record = logging.LogRecord(
            "django.request",
            logging.ERROR,
            __file__,
            1,
            "Internal Server Error: %s",
            ("/boom/",),
            (type(error), error, error.__traceback__),
        )
    record.status_code, record.request = 500, request
    assert OneLineRefusals().filter(record)
    assert record.exc_info is not None and record.getMessage() == "Internal Server Error: /boom/"


@pytest.mark.parametrize("path, logged", [("/play/s3cr3t-seat-token/act/", "/play/***/act/"),
                                          ("/owner/s3cr3t-owner-token/", "/owner/***/")])
def test_a_server_error_on_a_secret_link_keeps_its_traceback_but_not_its_secret(rf, path, logged):
    request = rf.get(path)
    try:
        raise RuntimeError("boom")
    except RuntimeError as error:  # as django.utils.log.log_response writes a 500
        record = logging.LogRecord("django.request", logging.ERROR, __file__, 1, "%s: %s",
                                   ("Internal Server Error", path), (type(error), error, error.__traceback__))
    record.status_code, record.request = 500, request
    assert OneLineRefusals().filter(record)
    assert record.exc_info is not None and record.getMessage() == f"Internal Server Error: {logged}"


@pytest.mark.parametrize(
    "path, logged",
    [
        ("/play/s3cr3t-seat-token/", "/play/***/"),
        ("/play/s3cr3t-seat-token/act/", "/play/***/act/"),
        ("/join/s3cr3t-invite-token/", "/join/***/"),
        ("/account/reset/MQ/s3cr3t-reset-token/", "/account/reset/***/***/"),
    ],
)
def test_a_refused_secret_link_is_logged_without_its_secret(client, caplog, path, logged):
    with caplog.at_level(logging.INFO):
        status = client.get(path).status_code
    assert 400 <= status < 500
    [record] = request_lines(caplog)
    assert "s3cr3t" not in caplog.text
    assert f" {logged} " in record.getMessage()


# --- a CSRF refusal says why (issue 37): Django's reason, not the bare "Forbidden" -----------------


def test_a_csrf_refusal_logs_djangos_reason(caplog):
    """Behind a proxy that drops the port, every form fails the origin check: the log must say so."""
    client = Client(enforce_csrf_checks=True)
    with caplog.at_level(logging.INFO):
        response = client.post("/accounts/login/", {"username": "ann"}, HTTP_ORIGIN="https://testserver:8443")
    assert response.status_code == 403
    [record] = request_lines(caplog)
    assert record.getMessage() == (
        "403 POST /accounts/login/ user=anonymous: "
        "Origin checking failed - https://testserver:8443 does not match any trusted origins."
    )


def test_a_csrf_refusal_names_the_referer_without_its_secret(caplog):
    """An HTTPS form without Origin is checked by its Referer, a whole address: a seat's link in it stays ***."""
    client = Client(enforce_csrf_checks=True)
    with caplog.at_level(logging.INFO):
        response = client.post("/play/s3cr3t-seat-token/act/", {}, secure=True,
                               HTTP_REFERER="https://elsewhere.example/play/s3cr3t-seat-token/?next=/join/s3cr3t-2/")
    assert response.status_code == 403
    [record] = request_lines(caplog)
    assert "s3cr3t" not in caplog.text
    assert record.getMessage() == (
        "403 POST /play/***/act/ user=anonymous: "
        "Referer checking failed - https://elsewhere.example/play/***/?*** does not match any trusted origins."
    )


@pytest.mark.parametrize("path, logged", [
    ("/ws/play/s3cr3t-seat-token/", "/ws/play/***/"),
    ("/ws/projector/s3cr3t-projector-token/", "/ws/projector/***/"),
    ("/ws/c/a-campaign/tables/3/", "/ws/c/a-campaign/tables/3/"),
    ("/c/play/s3cr3t/", "/c/play/s3cr3t/"),  # only at the start of a path
])
def test_a_websockets_secret_is_masked_as_its_pages(path, logged):
    assert without_secrets(path) == logged
