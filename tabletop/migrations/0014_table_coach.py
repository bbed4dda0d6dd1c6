"""The coach switch of a table (issue 27, ruling CO1): the tables already there get it as a new table
would, on without stakes or a battle behind them (a what-if included), off at a staked table or an
Army battle (whose result reaches the campaign's armies)."""

from django.db import migrations, models


def switch_on_practice_tables(apps, schema_editor):
    Table = apps.get_model("tabletop", "Table")
    Table.objects.filter(stake__isnull=True).exclude(game="army", what_if=False).update(coach=True)


class Migration(migrations.Migration):

    dependencies = [
        ('tabletop', '0013_projector_link'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='coach',
            field=models.BooleanField(default=False, help_text="Players may ask the computer what it would do: its top three moves from their own seat's view (issue 27, ruling CO1). On when a table opens without stakes and for a what-if; the GM switches it."),
        ),
        migrations.RunPython(switch_on_practice_tables, migrations.RunPython.noop),
    ]
