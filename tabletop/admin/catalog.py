"""The catalog admin every card catalog shares: CSV/JSON import and export, starter data, rows checked.

``CatalogAdmin`` is generic: give a ModelAdmin a ``catalog_spec`` (see ``tabletop.catalog``) and its
changelist gets "Import…", "Export all" and "Export selected" for that catalog. Each catalog's own admin is
in tabletop/admin/cards.py (armies/admin.py gives the unit cards one too).
"""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import CharField, JSONField, QuerySet, TextField
from django.forms.fields import InvalidJSONInput
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.decorators import method_decorator
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_POST

from ..catalog import (
    MAX_JSON_DEPTH,
    MAX_UPLOAD_BYTES,
    CatalogImportError,
    CatalogSpec,
    catalog_import,
    describe_choices,
    export_csv,
    export_json,
    read_upload,
    too_big,
)
from ..catalog.starter import catalog_load_starter
from ..engines.shapes import depth
from ..models import CatalogEntry

STARTER_NOTICE = _(
    "Rows labelled “Starter” are starter data designed by the Muster project: they are not the "
    "official cards of the published game. Edit, deactivate or replace them by import as you like."
)
EXPORTERS = {"csv": (export_csv, "text/csv"), "json": (export_json, "application/json")}
SOURCE_BADGES = {
    CatalogEntry.Source.STARTER: (_("Starter · not official"), "#8a5a00", "#fff3cd"),
    CatalogEntry.Source.IMPORTED: (_("Imported"), "#084298", "#cfe2ff"),
    CatalogEntry.Source.CUSTOM: (_("By hand"), "#41464b", "#e2e3e5"),
}


def invalid_starter(error: CatalogImportError) -> str:
    return gettext("The starter data is invalid: %(problems)s") % {"problems": "; ".join(error.errors)}


class CatalogImportForm(forms.Form):
    file = forms.FileField(
        label=_("File"), help_text=_("A .csv file with a header row, or a .json file as exported here.")
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(too_big(upload.size))
        return upload


class NestingSafeJSONField(forms.JSONField):
    """Django's JSON form field, with deep nesting refused as a form error instead of a RecursionError."""

    def to_python(self, value: Any) -> Any:
        try:
            converted = super().to_python(value)
            too_deep = depth(converted) > MAX_JSON_DEPTH
        except RecursionError:
            too_deep = True
        if too_deep:
            sentence = gettext("This JSON is nested too deeply (at most %(levels)s levels).")
            raise forms.ValidationError(sentence % {"levels": MAX_JSON_DEPTH}, code="invalid")
        return converted

    def bound_data(self, data: Any, initial: Any) -> Any:
        try:
            return super().bound_data(data, initial)
        except RecursionError:
            return InvalidJSONInput(data)


class CatalogRowForm(forms.ModelForm):
    """A catalog row edited by hand passes the same row checks as an imported one (what the engine reads)."""

    catalog_spec: ClassVar[CatalogSpec]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        validator = self.catalog_spec.row_validator
        if validator and not self.errors:
            row = {name: cleaned.get(name, getattr(self.instance, name)) for name in self.catalog_spec.fields}
            for problem in validator(row):
                self.add_error(None, problem)
        return cleaned


class CatalogAdmin(admin.ModelAdmin):
    catalog_spec: ClassVar[CatalogSpec]
    form = CatalogRowForm
    formfield_overrides: ClassVar[dict] = {JSONField: {"form_class": NestingSafeJSONField}}
    change_list_template = "admin/tabletop/catalog_change_list.html"
    actions = ["export_selected_csv", "export_selected_json"]
    readonly_fields = ("source",)
    notice = STARTER_NOTICE
    starter_description = _(
        "Load or refresh the Gridaris starter cards and scenarios (designed by Muster, not official)."
    )
    starter_button = _("Load starter catalog")

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        form = super().get_form(request, obj, change=change, **kwargs)
        form.catalog_spec = self.catalog_spec
        return form

    def import_rows(self, parsed):
        """Apply a parsed upload: all of it or nothing (``CatalogImportError`` lists every bad row)."""
        return catalog_import(spec=self.catalog_spec, rows=parsed.rows, unit=parsed.unit)

    def get_urls(self) -> list[URLPattern]:
        prefix = f"{self.opts.app_label}_{self.opts.model_name}"
        view = self.admin_site.admin_view
        return [
            path("import/", view(self.import_view), name=f"{prefix}_import"),
            path("export/<str:fmt>/", view(self.export_all_view), name=f"{prefix}_export"),
            path("load-starter/", view(self.load_starter_view), name=f"{prefix}_load_starter"),
            *super().get_urls(),
        ]

    def save_model(self, request: HttpRequest, obj: CatalogEntry, form: forms.ModelForm, change: bool) -> None:
        # A starter or imported row edited by hand no longer holds the values it came with.
        if change and form.has_changed():
            obj.source = CatalogEntry.Source.CUSTOM
        super().save_model(request, obj, form, change)

    def changelist_view(self, request: HttpRequest, extra_context: dict | None = None) -> HttpResponse:
        context = {"can_import": self.can_import(request), "starter_notice": self.notice, **(extra_context or {})}
        return super().changelist_view(request, extra_context=context)

    def can_import(self, request: HttpRequest) -> bool:
        # An import both creates and changes rows.
        return self.has_add_permission(request) and self.has_change_permission(request)

    @admin.display(description=_("source"), ordering="source")
    def source_badge(self, entry: CatalogEntry) -> str:
        label, colour, background = SOURCE_BADGES[entry.source]
        return format_html(
            '<span title="{}" style="color: {}; background: {}; padding: 1px 6px; border-radius: 8px; '
            'white-space: nowrap">{}</span>',
            entry.get_source_display(),
            colour,
            background,
            label,
        )

    # export

    def _download(self, queryset: QuerySet, fmt: str) -> HttpResponse:
        exporter, content_type = EXPORTERS[fmt]
        response = HttpResponse(exporter(self.catalog_spec, queryset), content_type=f"{content_type}; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="{self.catalog_spec.slug}.{fmt}"'
        return response

    @admin.action(description=_("Export selected as CSV"), permissions=["view"])
    def export_selected_csv(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        return self._download(queryset, "csv")

    @admin.action(description=_("Export selected as JSON"), permissions=["view"])
    def export_selected_json(self, request: HttpRequest, queryset: QuerySet) -> HttpResponse:
        return self._download(queryset, "json")

    @staticmethod
    def _require(allowed: bool) -> None:
        if not allowed:
            raise PermissionDenied

    @method_decorator(require_GET)
    def export_all_view(self, request: HttpRequest, fmt: str) -> HttpResponse:
        self._require(self.has_view_permission(request))
        if fmt not in EXPORTERS:
            raise Http404(f"Export as csv or json, not {fmt!r}.")
        return self._download(self.model.objects.all(), fmt)

    # import

    def import_view(self, request: HttpRequest) -> HttpResponse:
        self._require(self.can_import(request))
        spec = self.catalog_spec
        form = CatalogImportForm(request.POST, request.FILES) if request.method == "POST" else CatalogImportForm()
        errors: list[str] = []
        if request.method == "POST" and form.is_valid():
            upload = form.cleaned_data["file"]
            try:
                report = self.import_rows(read_upload(spec, upload.name, upload.read()))
            except CatalogImportError as error:
                errors = error.errors
            else:
                self.message_user(request, report.summary(spec.noun), messages.SUCCESS)
                return HttpResponseRedirect(self._changelist_url())
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": gettext("Import %(catalog)s") % {"catalog": spec.noun},
            "form": form,
            "errors": errors,
            "columns": self._column_help(),
            "spec": spec,
            "starter_notice": self.notice,
            "starter_description": self.starter_description,
            "starter_button": self.starter_button,
        }
        status = 400 if request.method == "POST" else 200
        return TemplateResponse(request, "admin/tabletop/catalog_import.html", context, status=status)

    def _column_help(self) -> list[tuple[str, str]]:
        help_rows = []
        for name in self.catalog_spec.fields:
            field = self.model._meta.get_field(name)
            if name in self.catalog_spec.hints:
                text = self.catalog_spec.hints[name]
            elif field.choices:
                text = describe_choices([str(value) for value, _label in field.flatchoices])
            elif field.get_internal_type() == "BooleanField":
                text = gettext("true or false")
            elif field.help_text:
                text = str(field.help_text)
            elif isinstance(field, (CharField, TextField)):
                text = (gettext("text, up to %(max)s characters") % {"max": field.max_length} if field.max_length
                        else gettext("text"))
            else:
                text = field.description % field.__dict__
            if name == self.catalog_spec.key_field:
                text = gettext("%(what)s (key: rows are matched on it)") % {"what": text}
            help_rows.append((name, text))
        return help_rows

    def _changelist_url(self) -> str:
        name = f"admin:{self.opts.app_label}_{self.opts.model_name}_changelist"
        return reverse(name, current_app=self.admin_site.name)

    @method_decorator(require_POST)
    def load_starter_view(self, request: HttpRequest) -> HttpResponse:
        self._require(self.can_import(request))
        try:
            report = catalog_load_starter()
        except CatalogImportError as error:
            self.message_user(request, invalid_starter(error), messages.ERROR)
        else:
            loaded = gettext("Starter catalog loaded. %(report)s") % {"report": " ".join(report.lines())}
            self.message_user(request, loaded, messages.SUCCESS)
        return HttpResponseRedirect(self._changelist_url())
