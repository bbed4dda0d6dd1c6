"""A look-alike key per account (issue 34), filled for the accounts there are: the oldest account keeps
a key two old names share; the younger keeps its name and gets no key (the next sign-up tries again)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from people.names import name_key


def fill(apps, schema_editor):
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    NameKey = apps.get_model("people", "NameKey")
    taken = set()
    rows = []
    for pk, username in User.objects.order_by("pk").values_list("pk", "username").iterator():
        key = name_key(username)
        if key not in taken:
            taken.add(key)
            rows.append(NameKey(user_id=pk, username=username, key=key))
    NameKey.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ('people', '0001_initial'),
    ]

    operations = [
        migrations.CreateModel(
            name='NameKey',
            fields=[
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='name_key', serialize=False, to=settings.AUTH_USER_MODEL)),
                ('username', models.CharField(max_length=150)),
                ('key', models.CharField(max_length=600, unique=True)),
            ],
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
