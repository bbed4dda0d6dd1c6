"""Every app's refusals have one base, ``muster.refusals.Refusal`` (issue 39): a sentence and a status,
409 for a page that is out of date, 429 for a quota; the view helper answers each with its status."""

import pytest
from django.http import HttpResponse

from archive.format import ArchiveRefused
from armies.services import ArmyError, StaleForm
from armies.services.commander_edits import StaleEdit
from campaign.bounds import OutOfBounds
from campaign.quotas import QuotaExceeded
from campaign.services import SettingsRefused
from campaign.submissions import AlreadyDone, SubmissionMissing
from muster.answers import answer, status_of
from muster.refusals import Refusal, Stale
from people.services import PeopleError
from people.services.members import StaleMember
from tabletop.catalog import CatalogImportError
from tabletop.engines.kernel import IllegalAction
from tabletop.services.abandon import AlreadyAbandoned
from tabletop.services.tables import MoveNotSaved, StaleVersion

REFUSALS = [
    ArmyError,
    SettingsRefused,
    OutOfBounds,
    SubmissionMissing,
    QuotaExceeded,
    PeopleError,
    ArchiveRefused,
    MoveNotSaved,
    AlreadyAbandoned,
    StaleVersion,
    CatalogImportError,
]


@pytest.mark.parametrize("refusal", REFUSALS, ids=lambda cls: cls.__name__)
def test_every_apps_refusal_derives_from_the_one_base_and_is_no_plain_value_error(refusal):
    assert issubclass(refusal, Refusal)
    assert not issubclass(refusal, ValueError)  # a caller's ``except ValueError`` no longer hides a bug


@pytest.mark.parametrize("stale", [StaleForm, StaleEdit, StaleMember, StaleVersion], ids=lambda cls: cls.__name__)
def test_a_page_out_of_date_is_stale_and_answered_409(stale):
    assert issubclass(stale, Stale) and stale.status == 409


def test_a_quota_is_answered_429_and_a_refusal_400():
    assert (QuotaExceeded.status, ArmyError.status, status_of(IllegalAction("No.")), status_of(ArmyError("No."))) == (
        429,
        400,
        400,
        400,
    )


def _answered(error: Exception, **kwargs) -> str:
    def change():
        raise error

    return answer(
        change,
        done=lambda _result: HttpResponse("done"),
        already=lambda repeat: HttpResponse(f"already {repeat.kind}"),
        refused=lambda refusal: HttpResponse(f"refused {refusal}", status=status_of(refusal)),
        **kwargs,
    )


def test_the_helper_answers_a_refusal_with_its_sentence_and_status_and_a_repeat_as_already_done():
    stale = _answered(StaleForm("The offer changed meanwhile."))
    assert (stale.status_code, stale.content) == (409, b"refused The offer changed meanwhile.")
    assert _answered(AlreadyDone("offer", None)).content == b"already offer"
    assert _answered(IllegalAction("Not your turn."), refusing=(IllegalAction,)).status_code == 400


@pytest.mark.parametrize("bug", [ValueError("slip"), TypeError("slip"), IllegalAction("not named")])
def test_the_helper_lets_anything_else_go_up_as_the_error_it_is(bug):
    with pytest.raises(type(bug)):
        _answered(bug)
