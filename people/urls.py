from django.urls import path

from muster.http import private_pages

from .views import account, invites, members, resets, signup

app_name = "people"

urlpatterns = [
    # --- sign-up (views/signup.py) ---
    # --- one's own account (views/account.py) ---
    # --- one-time password reset links (views/resets.py) ---
    # --- invites (views/invites.py) ---
    # --- members (views/members.py) ---
]

# Every page here holds a person's account or a campaign's invites: Cache-Control: private, no-store.
urlpatterns = private_pages(urlpatterns)
