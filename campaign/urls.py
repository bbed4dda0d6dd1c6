from django.urls import path

from muster.http import private_pages

from . import views

app_name = "campaign"

urlpatterns = [
    path("", views.home, name="home"),
    path("campaigns/new/", views.campaign_new, name="new"),
    path("c/<slug:slug>/", views.campaign_detail, name="detail"),
    path("c/<slug:slug>/activity/", views.activity, name="activity"),
    path("c/<slug:slug>/settings/", views.campaign_settings, name="settings"),
]

# Every page here shows a member's campaign, money or roster: Cache-Control: private, no-store.
urlpatterns = private_pages(urlpatterns)
