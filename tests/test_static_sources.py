"""make run collects static files only when they changed (muster/static_sources.py)."""

import json
import os

from django.conf import settings
from django.test import override_settings

from muster import static_sources

COMPRESSED = {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"}
PRODUCTION = {**settings.STORAGES, "staticfiles": COMPRESSED}


def sources(tmp_path):
    folder = tmp_path / "sources"
    (folder / "css").mkdir(parents=True)
    (folder / "css" / "site.css").write_text("body { color: #222; }\n" * 40)
    return folder


def settings_for(tmp_path, folder, storages=PRODUCTION):
    return override_settings(
        STATIC_ROOT=tmp_path / "static",
        STATICFILES_DIRS=[folder],
        STATICFILES_FINDERS=["django.contrib.staticfiles.finders.FileSystemFinder"],
        STORAGES=storages,
    )


def test_a_second_start_with_nothing_changed_collects_nothing_and_an_edit_collects_again(tmp_path):
    folder = sources(tmp_path)
    with settings_for(tmp_path, folder):
        assert static_sources.collect() is True
        manifest = json.loads((tmp_path / "static" / "staticfiles.json").read_text())
        assert "css/site.css" in manifest["paths"]
        assert static_sources.collect() is False

        css = folder / "css" / "site.css"
        css.write_text("body { color: #000; }\n")
        assert static_sources.collect() is True
        changed = json.loads((tmp_path / "static" / "staticfiles.json").read_text())["paths"]["css/site.css"]
        assert changed != manifest["paths"]["css/site.css"]
        assert static_sources.collect() is False

        (folder / "css" / "print.css").write_text("nav { display: none; }\n")
        assert static_sources.collect() is True
        assert "css/print.css" in json.loads((tmp_path / "static" / "staticfiles.json").read_text())["paths"]


def test_the_same_size_touched_later_a_lost_manifest_or_another_storage_collect_again(tmp_path):
    folder = sources(tmp_path)
    css = folder / "css" / "site.css"
    with settings_for(tmp_path, folder):
        assert static_sources.collect() is True
        later = css.stat().st_mtime_ns + 5_000_000_000
        os.utime(css, ns=(later, later))
        assert static_sources.collect() is True
        (tmp_path / "static" / "staticfiles.json").unlink()
        assert static_sources.collect() is True
        assert (tmp_path / "static" / "staticfiles.json").exists()
    with settings_for(tmp_path, folder, storages=settings.STORAGES):
        assert static_sources.collect() is True


def test_the_fingerprint_is_kept_beside_the_static_root_never_where_it_is_served(tmp_path):
    folder = sources(tmp_path)
    with settings_for(tmp_path, folder):
        static_sources.collect()
        assert static_sources.stamp_path() == tmp_path / "static.collected"
        assert static_sources.stamp_path().read_text() == static_sources.fingerprint()
        assert sorted(path.name for path in (tmp_path / "static").iterdir() if path.name.startswith(".")) == []
