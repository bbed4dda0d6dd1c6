from django.urls import path

from muster.http import private_pages

from .views import account, invites, languages, members, owner, resets, signup

app_name = "people"

urlpatterns = [
    # --- sign-up (views/signup.py), and make run's owner's link (views/owner.py) ---
    path("signup/", signup.signup_open, name="signup"),
    path("join/<str:token>/signup/", signup.join_signup, name="join_signup"),
    path("owner/<str:token>/", owner.owner_account, name="owner"),
    # --- one's own account (views/account.py) ---
    path("account/", account.account, name="account"),
    path("account/name/", account.account_name, name="account_name"),
    path("account/password/", account.account_password, name="account_password"),
    path("account/language/", languages.account_language, name="account_language"),
    path("languages/", languages.languages_page, name="languages"),
    path("languages/new/", languages.language_new, name="language_new"),
    # --- one-time password reset links (views/resets.py) ---
    path("account/reset/<str:uidb64>/<str:token>/", resets.reset, name="reset"),
    path("account/resets/", resets.staff_reset, name="staff_reset"),
    path("c/<slug:slug>/members/<int:membership_id>/reset/", resets.member_reset, name="member_reset"),
    # --- invites (views/invites.py) ---
    path("join/<str:token>/", invites.join, name="join"),
    path("c/<slug:slug>/invites/", invites.invites, name="invites"),
    path("c/<slug:slug>/invites/sheet/", invites.invite_sheet, name="invite_sheet"),
    path("c/<slug:slug>/invites/<int:pk>/revoke/", invites.invite_revoke_view, name="invite_revoke"),
    path("c/<slug:slug>/invites/<int:pk>/reissue/", invites.invite_reissue_view, name="invite_reissue"),
    # --- members (views/members.py) ---
    path("c/<slug:slug>/members/", members.members, name="members"),
    path("c/<slug:slug>/members/<int:membership_id>/role/", members.member_role, name="member_role"),
    path("c/<slug:slug>/members/<int:membership_id>/remove/", members.member_remove_view, name="member_remove"),
    path("c/<slug:slug>/members/commanders/<int:pk>/hand/", members.commander_hand_view, name="commander_hand"),
]

# Every page here holds a person's account or a campaign's invites: Cache-Control: private, no-store.
urlpatterns = private_pages(urlpatterns)
