from django import forms

from campaign.submissions import OnceForm

from .upload import MAX_UPLOAD_BYTES


class ArchiveUploadForm(OnceForm):
    archive = forms.FileField(
        label="Archive file",
        help_text=f"A .muster.jsonl.gz file another Muster wrote (at most {MAX_UPLOAD_BYTES // (1024 * 1024)} MB).",
        widget=forms.ClearableFileInput(attrs={"accept": ".gz,application/gzip"}),
    )

    def clean_archive(self):
        upload = self.cleaned_data["archive"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(
                f"The file is {upload.size // (1024 * 1024)} MB; an archive uploaded here may be at most "
                f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB (a bigger one: manage.py campaign_import)."
            )
        return upload
