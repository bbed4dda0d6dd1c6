from django.apps import AppConfig


class PeopleConfig(AppConfig):
    """People without the admin (issue 23): sign-up, one's own account, password resets made by the
    GM, invites to a campaign, and the GM's members page. It sits above ``armies`` (an invite may name
    the commander the newcomer will run; removing a member hands their commanders to the GM)."""

    name = "people"
    verbose_name = "People and invites"
