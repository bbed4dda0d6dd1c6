"""Which language each person reads (issue 41), and the catalogs a running process serves.

The languages Muster offers are English, the source, and every language with a compiled catalog in
``settings.LOCALE_PATHS`` (``locale/<code>/LC_MESSAGES/django.mo``): German ships with it; a language staff add
in the browser (``people``' language page, then rosetta) is offered as soon as its catalog is saved. Nothing
is listed by hand: ``settings.LANGUAGES`` is Django's list of every language it knows, and ``offered`` is read
from the disk again at most once a second. A phrase not translated yet reads in English (gettext's fallback).

Who reads which language, first match wins (``choose``):

1. the device's own choice, the language cookie: set when an account chooses its language on the account
   page, and again at each login from the account's choice (``remember``);
2. the campaign's language, on the pages a campaign shows people who have no account choice to go by (a
   guest's seat: its view and socket pass it); the projector and the printed sheets, which a campaign shows
   everyone, take the campaign's language even before the device's (``use_campaign_language``,
   ``campaign_first``);
3. the browser's ``Accept-Language``;
4. ``settings.LANGUAGE_CODE``.

A table's push renders each watched viewer in the language its socket was opened in (``of_scope`` decides
it as the page's request was decided: tabletop/push.py), so a push never changes a page's language.
Words are made where they are shown: no table's state, log, digest or archive holds a translated word.
"""

from __future__ import annotations

import gettext as gettext_module
import re
import threading
import time
from http.cookies import SimpleCookie
from pathlib import Path

import django
import polib
from django.conf import settings
from django.conf.locale import LANG_INFO
from django.utils import translation
from django.utils.cache import patch_vary_headers
from django.utils.translation import trans_real

SOURCE = "en-gb"  # the language the code is written in: no catalog
SHIPPED = Path(__file__).resolve().parent.parent / "locale"  # the catalogs Muster ships (German)
RECHECK_S = 1.0  # how often a process looks for catalogs saved meanwhile
COOKIE_DAYS = 365
CLEARED = "-"  # ``request.language_chosen`` when an account chose no language: the device forgets its own
NAMES = {SOURCE: "English"}  # not "British English": the only English there is


class _Catalogs:
    """The offered languages and the catalogs' modification times, read at most once a ``RECHECK_S``; when a
    catalog changed (saved in the browser), every translation this process holds is dropped, so the next
    phrase is read from the new file."""

    def __init__(self):
        self.lock = threading.Lock()
        self.checked = 0.0
        self.stamps: dict[str, float] = {}
        self.codes: tuple[str, ...] = (SOURCE,)

    def refresh(self, now: float | None = None) -> tuple[str, ...]:
        now = time.monotonic() if now is None else now
        if now - self.checked < RECHECK_S:
            return self.codes
        with self.lock:
            if now - self.checked < RECHECK_S:
                return self.codes
            stamps = _catalog_stamps()
            if stamps != self.stamps:
                if self.stamps:
                    _forget_translations()
                self.stamps = stamps
                found = {Path(path).parents[1].name for path in stamps if path.endswith("/django.mo")}
                self.codes = (SOURCE, *sorted(translation.to_language(name) for name in found))
            self.checked = now
        return self.codes


def _catalog_stamps() -> dict[str, float]:
    stamps = {}
    for root in settings.LOCALE_PATHS:
        for path in Path(root).glob("*/LC_MESSAGES/*.mo"):
            try:
                stamps[str(path)] = path.stat().st_mtime
            except FileNotFoundError:  # replaced while we looked
                continue
    return stamps


def _forget_translations() -> None:
    """Drop the catalogs this process has read (Django's and the gettext module's caches)."""
    trans_real._translations = {}
    trans_real._default = None
    gettext_module._translations.clear()
    trans_real.translation_catalog_exists.cache_clear()


_catalogs = _Catalogs()


def offered() -> list[tuple[str, str]]:
    """(code, the language's own name) of every language offered, English first."""
    return [(code, NAMES.get(code) or LANG_INFO.get(code, {}).get("name_local", code)) for code in _catalogs.refresh()]


def catalogs_changed_at() -> float | None:
    """The newest catalog's modification time (as last read, at most ``RECHECK_S`` ago); None: no catalog."""
    _catalogs.refresh()
    return max(_catalogs.stamps.values(), default=None)


def offered_codes() -> tuple[str, ...]:
    return _catalogs.refresh()


def pick(*candidates: str) -> str:
    """The first candidate that names an offered language (``de-AT`` is ``de``, ``en-us`` English), else
    ``settings.LANGUAGE_CODE``."""
    codes = offered_codes()
    for candidate in candidates:
        code = (candidate or "").strip().lower().replace("_", "-")
        if not code or code == "*":
            continue
        if code in codes:
            return code
        generic = code.split("-")[0]
        for offered_code in codes:
            if offered_code == generic or offered_code.split("-")[0] == generic:
                return offered_code
    return settings.LANGUAGE_CODE


def accepted(header: str) -> list[str]:
    """The codes of an ``Accept-Language`` header, most wanted first."""
    return [code for code, _quality in trans_real.parse_accept_lang_header(header or "")]


def choose(*, cookie: str = "", campaign: str = "", accept: str = "", campaign_first: bool = False) -> str:
    """The language of a page: the device's, the campaign's, the browser's, in that order; ``campaign_first``
    for what a campaign shows everyone in its own (the projector, the printed sheets)."""
    if campaign_first:
        return pick(campaign, cookie, *accepted(accept))
    return pick(cookie, campaign, *accepted(accept))


def of_request(request, campaign: str = "", campaign_first: bool = False) -> str:
    return choose(
        cookie=request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, ""),
        campaign=campaign,
        accept=request.META.get("HTTP_ACCEPT_LANGUAGE", ""),
        campaign_first=campaign_first,
    )


def of_scope(scope: dict, campaign: str = "", campaign_first: bool = False) -> str:
    """A socket's language, decided as its page's request was (the same cookie and header)."""
    headers = {name.decode("latin-1").lower(): value.decode("latin-1") for name, value in scope.get("headers", ())}
    cookies = SimpleCookie()
    try:
        cookies.load(headers.get("cookie", ""))
    except Exception:  # a cookie header we cannot read chooses nothing
        cookies = SimpleCookie()
    cookie = cookies.get(settings.LANGUAGE_COOKIE_NAME)
    return choose(
        cookie=cookie.value if cookie else "",
        campaign=campaign,
        accept=headers.get("accept-language", ""),
        campaign_first=campaign_first,
    )


def use(request, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = language


def use_campaign_language(request, campaign_language: str) -> None:
    """What a campaign shows everyone in its own language (the projector, the printed sheets): the
    campaign's, else this device's, else the browser's."""
    use(request, of_request(request, campaign_language, campaign_first=True))


def remember(response, language: str) -> None:
    """The device keeps ``language`` (an account's choice): the cookie every request is read by."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=COOKIE_DAYS * 24 * 3600,
        samesite="Lax",
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=False,  # read by nobody's script, but nothing secret: the language
    )


def may_translate(user) -> bool:
    """Who translates in the browser (rosetta's ``ROSETTA_ACCESS_CONTROL_FUNCTION``): staff, as for the catalogs."""
    return bool(getattr(user, "is_authenticated", False) and user.is_active and user.is_staff)


# A %-directive: its name (if any) and its conversion ("%(title)s", "%(count)d", "%s", "%%", "% a").
DIRECTIVE = re.compile(r"%(?:\((\w*)\))?[#0\- +]*(?:\*|\d+)?(?:\.(?:\*|\d+))?(.?)", re.DOTALL)
NUMBERS = set("diouxXeEfFgG")


def unsayable(entry: polib.POEntry) -> bool:
    """Whether ``entry``'s translation would fail, or say garbage, where its phrase is said: a value its phrase
    does not give ("%(titel)s" for "%(title)s"), a number's place for a name, or a "%" that is no "%%" and names
    no value ("%s", "100 % sûr") all do in ``%``-formatting with the phrase's values. A phrase naming no value is
    said unformatted unless it is marked python-format."""
    given, unnamed = {}, _unnamed(entry.msgid_plural or entry.msgid)
    for name, conversion in DIRECTIVE.findall(entry.msgid + (entry.msgid_plural or "")):
        if name:
            given[name] = 1 if conversion in NUMBERS else "x"
    texts = (entry.msgstr, *entry.msgstr_plural.values())
    if unnamed:  # "%s" given in order: as many as the phrase's
        return any(_unnamed(text) != unnamed for text in texts if text)
    if not given and "python-format" not in entry.flags:
        return False
    for text in texts:
        for name, conversion in DIRECTIVE.findall(text):
            if conversion != "%" and name not in given:  # "%%" is a percent sign
                return True
        try:
            text % given  # formatting it with the phrase's values is the test
        except (KeyError, ValueError, TypeError):
            return True
    return False


def _unnamed(text: str) -> int:
    return sum(1 for name, conversion in DIRECTIVE.findall(text) if not name and conversion != "%")


def addable() -> list[tuple[str, str]]:
    """(code, its own name) of the languages Django knows that Muster does not offer yet."""
    codes = set(offered_codes())
    known = [(code, LANG_INFO.get(code, {}).get("name_local", name)) for code, name in settings.LANGUAGES]
    return sorted(
        ((code, name) for code, name in known if code not in codes and code.split("-")[0] != "en"),
        key=lambda pair: pair[1].casefold(),
    )


def add(code: str) -> list[Path]:
    """A new language's catalogs (issue 41): every phrase of the shipped German catalogs, untranslated, with
    the language's plural rule (from Django's own catalog of it), written and compiled in the first of
    ``settings.LOCALE_PATHS``. Offered at once; every phrase reads in English until it is translated (in
    rosetta). Returns the catalogs written. A language offered already, or unknown, raises ValueError."""
    if code not in dict(settings.LANGUAGES) or code in offered_codes():
        raise ValueError(code)
    folder = Path(settings.LOCALE_PATHS[0]) / translation.to_locale(code) / "LC_MESSAGES"
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for template in sorted((SHIPPED / "de" / "LC_MESSAGES").glob("*.po")):
        source = polib.pofile(str(template))
        catalog = polib.POFile(wrapwidth=0)
        catalog.metadata = {
            "Project-Id-Version": "Muster",
            "Content-Type": "text/plain; charset=UTF-8",
            "Content-Transfer-Encoding": "8bit",
            "Language": code,
            "Plural-Forms": plural_forms(code),
        }
        forms = int(re.search(r"nplurals\s*=\s*(\d+)", catalog.metadata["Plural-Forms"]).group(1))
        for entry in source:
            if entry.obsolete:
                continue
            catalog.append(
                polib.POEntry(
                    msgctxt=entry.msgctxt,
                    msgid=entry.msgid,
                    msgid_plural=entry.msgid_plural,
                    msgstr="",
                    msgstr_plural=dict.fromkeys(range(forms), "") if entry.msgid_plural else {},
                    occurrences=entry.occurrences,
                    comment=entry.comment,
                    flags=[flag for flag in entry.flags if flag != "fuzzy"],
                )
            )
        path = folder / template.name
        catalog.save(str(path))
        catalog.save_as_mofile(str(path.with_suffix(".mo")))
        written.append(path)
    _catalogs.checked = 0.0  # offered from the next request on
    return written


def catalogs_of(code: str) -> list[Path]:
    """The catalogs (.po) of an offered language, in every folder of ``settings.LOCALE_PATHS``."""
    folder = translation.to_locale(code)
    return sorted(path for root in settings.LOCALE_PATHS for path in (Path(root) / folder).glob("LC_MESSAGES/*.po"))


def plural_forms(code: str) -> str:
    """The ``Plural-Forms`` header of Django's own catalog of ``code``; two forms when Django has none."""
    django_po = Path(django.__file__).parent / "conf" / "locale" / translation.to_locale(code) / "LC_MESSAGES"
    for name in ("django.po", "djangojs.po"):
        if (django_po / name).exists():
            header = polib.pofile(str(django_po / name)).metadata.get("Plural-Forms", "")
            if "nplurals" in header:
                return header
    return "nplurals=2; plural=(n != 1);"


class LanguageMiddleware:
    """Activates the request's language (``of_request``); a view may change it for a campaign's page
    (``use_campaign_language``). The answer says which language it is in and that it varies."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        use(request, of_request(request))
        response = self.get_response(request)
        patch_vary_headers(response, ("Accept-Language", "Cookie"))
        response.headers.setdefault("Content-Language", request.LANGUAGE_CODE)
        if not response.streaming:  # its words are made: the thread's next work starts in the site's language
            translation.deactivate()
        chosen = getattr(request, "language_chosen", "")  # an account's choice made or read at login
        if chosen == CLEARED:
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME, samesite="Lax")
        elif chosen:
            remember(response, chosen)
        return response
