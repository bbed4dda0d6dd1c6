from django.contrib import admin
from django.urls import include, path

from .views import health

admin.site.site_header = "Muster administration"
admin.site.site_title = "Muster admin"

urlpatterns = [
    path("healthz", health, name="health"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("campaign.urls")),
    path("", include("tabletop.urls")),
    path("", include("armies.urls")),
    path("", include("people.urls")),
]
