"""The archive's pages: a GM downloads a campaign's archive; whoever may start campaigns uploads one, and
watches its import's job (archive/jobs.py) until it shows the new campaign or the refusal."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from campaign.activity import Line, activity_record
from campaign.models import Activity, Campaign
from campaign.permissions import membership_for, require_campaign_creator
from muster.answers import answer, flash, status_of

from .export import export_chunks
from .forms import ArchiveUploadForm
from .jobs import import_job_for, import_job_start
from .names import archive_file_name
from .upload import MAX_UPLOAD_BYTES


def _too_big() -> str:
    return _(
        "The file is larger than the %(megabytes)d MB an archive uploaded here may be "
        "(a bigger one: manage.py campaign_import). Nothing was imported."
    ) % {"megabytes": MAX_UPLOAD_BYTES // (1024 * 1024)}


def _archive_campaign(request: HttpRequest, slug: str) -> Campaign:
    """The campaign whose archive ``request.user`` may download: its GM's, or any for staff. Anyone else:
    404 outside the campaign (slugs do not leak), 403 for its players."""
    user = request.user
    if user.is_staff and user.is_active:
        campaign = Campaign.objects.filter(slug=slug, importing_at__isnull=True).first()  # not half-imported
        if campaign is None:
            raise Http404(_("No such campaign."))
        return campaign
    membership = membership_for(user, slug)
    if not membership.is_gm:
        raise PermissionDenied(_("Only the GM can download the campaign's archive."))
    return membership.campaign


@require_GET
@login_required
def archive_page(request: HttpRequest, slug: str) -> HttpResponse:
    campaign = _archive_campaign(request, slug)
    return render(request, "archive/download.html", {"campaign": campaign})


DOWNLOADED = gettext_noop("Downloaded the campaign's archive (every hidden card of every table)")


@require_POST
@login_required
def archive_download(request: HttpRequest, slug: str) -> StreamingHttpResponse:
    """The archive, made as it is sent (bounded memory, one consistent read of the database); the
    activity log says who downloaded it."""
    campaign = _archive_campaign(request, slug)
    with transaction.atomic():
        activity_record(campaign=campaign, actor=request.user, kind=Activity.Kind.ARCHIVE_EXPORT,
                        summary=Line(DOWNLOADED), target=campaign)
    response = StreamingHttpResponse(export_chunks(campaign), content_type="application/gzip")
    response["Content-Disposition"] = f'attachment; filename="{archive_file_name(campaign)}"'
    return response


@require_http_methods(["GET", "POST"])
@login_required
def archive_import(request: HttpRequest) -> HttpResponse:
    require_campaign_creator(request.user)
    if request.method == "GET":
        return render(request, "archive/import.html", {"form": ArchiveUploadForm()})
    if int(request.META.get("CONTENT_LENGTH") or 0) > MAX_UPLOAD_BYTES + 64 * 1024:
        # refused before Django reads the body into a temporary file
        return render(request, "archive/import.html", {"form": ArchiveUploadForm(), "refusal": _too_big()}, status=413)
    form = ArchiveUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "archive/import.html", {"form": form}, status=400)
    upload = form.cleaned_data["archive"]
    uploaded = _("Already done: this archive was uploaded by this form before.")
    return answer(
        lambda: import_job_start(importer=request.user, data=upload.read(), file_name=upload.name or "",
                                 submission=form.cleaned_data["submission"]),
        done=lambda job: redirect("archive:job", job.pk),
        already=lambda repeat: flash(request, messages.INFO, uploaded, "campaign:home") if repeat.result is None
        else flash(request, messages.INFO, uploaded, "archive:job", repeat.result.pk),
        # a form without its token (400) or too many imports lately (429): the form again, with the sentence
        refused=lambda refusal: render(
            request, "archive/import.html", {"form": ArchiveUploadForm(), "refusal": str(refusal)},
            status=status_of(refusal),
        ),
    )


@require_GET
@login_required
def archive_import_job(request: HttpRequest, job_id: int) -> HttpResponse:
    """The import's progress (the region polls itself while the job runs), then its result."""
    job = import_job_for(request.user, job_id)
    if job is None:
        raise Http404(_("No such import."))
    template = "archive/import_job.html#job" if request.htmx else "archive/import_job.html"
    return render(request, template, {"job": job, "claims_waiting": _claims_waiting(job.claims)})


def _claims_waiting(claims: list) -> str:
    if not claims:
        return ""
    return ngettext(
        "%(count)d member has an invite to claim their place, waiting on the invites page.",
        "%(count)d members have invites to claim their place, waiting on the invites page.",
        len(claims),
    ) % {"count": len(claims)}
