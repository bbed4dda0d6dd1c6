"""Every page renders from templates parsed once per process (issue 26): Django's cached loader, under
template_partials' loader (which finds ``page.html#region``), whether DEBUG is off (make run, production)
or on (development, where Django's autoreloader empties it when a template changes)."""

import copy

import pytest
from django.conf import settings
from django.template import engines
from django.template.backends.django import DjangoTemplates
from django.template.loaders.cached import Loader as CachedLoader
from template_partials.loader import Loader as PartialsLoader


def loader_kinds(engine) -> list[list[type]]:
    return [[type(inner) for inner in loader.loaders] for loader in engine.template_loaders
            if isinstance(loader, PartialsLoader)]


def test_the_sites_engine_loads_through_the_cached_loader_and_parses_a_page_once():
    engine = engines["django"].engine
    assert [type(loader) for loader in engine.template_loaders] == [PartialsLoader]
    assert loader_kinds(engine) == [[CachedLoader]]
    assert engine.get_template("tabletop/table.html") is engine.get_template("tabletop/table.html")


@pytest.mark.parametrize("debug", [False, True])
def test_the_settings_give_the_cached_loader_with_debug_off_and_on(debug):
    params = copy.deepcopy(settings.TEMPLATES[0])
    params.pop("BACKEND")
    params["OPTIONS"]["debug"] = debug
    backend = DjangoTemplates({**params, "NAME": f"check-{debug}", "APP_DIRS": False})
    assert loader_kinds(backend.engine) == [[CachedLoader]]
