from django.urls import path

from muster.http import private_pages

from . import views

app_name = "archive"

urlpatterns = [
    path("campaigns/import/", views.archive_import, name="import"),
    path("campaigns/import/<int:job_id>/", views.archive_import_job, name="job"),
    path("c/<slug:slug>/archive/", views.archive_page, name="page"),
    path("c/<slug:slug>/archive/download/", views.archive_download, name="download"),
]

# an archive holds every hidden card of every table: nothing here is kept by a cache
urlpatterns = private_pages(urlpatterns)
