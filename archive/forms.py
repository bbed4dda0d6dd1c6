from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from campaign.submissions import OnceForm

from .upload import MAX_UPLOAD_BYTES


def _megabytes(size: int) -> int:
    return size // (1024 * 1024)


class ArchiveUploadForm(OnceForm):
    archive = forms.FileField(
        label=_("Archive file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".gz,application/gzip"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # made with the form, in the request's language (the bound in megabytes is a number of the upload's)
        self.fields["archive"].help_text = gettext(
            "A .muster.jsonl.gz file another Muster wrote (at most %(megabytes)d MB)."
        ) % {"megabytes": _megabytes(MAX_UPLOAD_BYTES)}

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                gettext(
                    "The file is %(size)d MB; an archive uploaded here may be at most %(megabytes)d MB "
                    "(a bigger one: manage.py campaign_import)."
                )
                % {"size": _megabytes(upload.size), "megabytes": _megabytes(MAX_UPLOAD_BYTES)}
            )
        return upload
