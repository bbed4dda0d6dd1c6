"""people/throttle.py: a failure counted from any request is stored whole, whatever the request holds."""

import pytest
from axes.models import AccessAttempt
from django.test import RequestFactory

from people.throttle import count_failure

pytestmark = pytest.mark.django_db


def test_a_failure_from_a_request_with_nul_bytes_is_counted_and_stores_none(settings):
    """PostgreSQL refuses a NUL in a text field: a forged link ``/join/%00/`` must not become a 500."""
    request = RequestFactory().post(
        "/c/x/members/1/reset/\x00/", {"field": "a\x00b"}, HTTP_USER_AGENT="phone\x00", REMOTE_ADDR="10.1.2.3"
    )
    count_failure(request)
    attempt = AccessAttempt.objects.get(ip_address="10.1.2.3")
    stored = [attempt.path_info, attempt.user_agent, attempt.post_data, attempt.get_data, attempt.username]
    assert attempt.failures_since_start == 1
    assert not any("\x00" in (value or "") for value in stored)
