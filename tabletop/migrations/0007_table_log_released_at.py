from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tabletop', '0006_dungeon'),
    ]

    operations = [
        migrations.AddField(
            model_name='table',
            name='log_released_at',
            field=models.DateTimeField(blank=True, help_text='When a seat first downloaded the full log; from then on the game is closed for good (no undo).', null=True),
        ),
    ]
