# Issue 41: an upload's refusal kept as words, said in the reader's language

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('archive', '0002_importjob_heartbeat'),
    ]

    operations = [
        migrations.AddField(
            model_name='importjob',
            name='refusal_words',
            field=models.JSONField(blank=True, default=list),
        ),
    ]
