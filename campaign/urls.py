from django.urls import path

from . import views

app_name = "campaign"

urlpatterns = [
    path("", views.home, name="home"),
    path("c/<slug:slug>/", views.campaign_detail, name="detail"),
    path("c/<slug:slug>/activity/", views.activity, name="activity"),
    path("c/<slug:slug>/settings/", views.campaign_settings, name="settings"),
]
