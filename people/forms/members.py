"""The members page's forms: a member's role, removing a member, handing a commander on.

Each carries its one-time token and a digest of what its row showed (``PinnedForm``, CONVENTIONS 14b);
the service compares the digest with the locked rows and refuses a changed one (``StaleMember``).
The page renders them by hand, one per row (``templates/people/_member_row.html``), so building the page
costs no query per form.
"""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from campaign.models import Membership
from campaign.submissions import OnceForm
from muster.forms import PinnedForm, ShownDigest

OLD_PAGE = _("This form comes from an older members page: nothing was done. Reload the page and try again.")


def _pin() -> ShownDigest:
    return ShownDigest(max_length=40, old_page=OLD_PAGE)


class MemberRoleForm(PinnedForm, OnceForm):
    role = forms.ChoiceField(
        choices=Membership.Role.choices,
        label=_("Role"),
        error_messages={"invalid_choice": _("A member is a GM or a player."), "required": _("Choose GM or player.")},
    )
    based_on = _pin()


class MemberRemoveForm(PinnedForm, OnceForm):
    based_on = _pin()


class CommanderHandForm(PinnedForm, OnceForm):
    to = forms.TypedChoiceField(
        coerce=int,
        label=_("Hand to"),
        error_messages={
            "invalid_choice": _("Choose a member of the campaign to hand the commander to."),
            "required": _("Choose a member of the campaign to hand the commander to."),
        },
    )
    based_on = _pin()

    def __init__(self, *args, campaign, **kwargs):
        super().__init__(*args, **kwargs)
        members = Membership.objects.filter(campaign=campaign).values_list("pk", flat=True)
        self.fields["to"].choices = [(str(pk), str(pk)) for pk in members]
