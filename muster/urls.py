from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from people.views.resets import MailedResetConfirm

from .views import health, javascript_catalog

admin.site.site_header = _("Muster administration")
admin.site.site_title = _("Muster admin")

urlpatterns = [
    path("healthz", health, name="health"),
    path("admin/translations/", include("rosetta.urls")),  # staff translate in the browser (issue 41)
    path("admin/", admin.site.urls),
    # the strings of static/js/ in the request's language (issue 41): a browser asks again only when a catalog changed
    path("jsi18n/", javascript_catalog, name="javascript-catalog"),
    # Django's mailed reset link, counted by the login throttle like Muster's own (people/views/resets.py)
    path("accounts/reset/<uidb64>/<token>/", MailedResetConfirm.as_view(), name="password_reset_confirm"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaign.urls")),
    path("", include("tabletop.urls")),
    path("", include("armies.urls")),
    path("", include("people.urls")),
    path("", include("archive.urls")),
]
