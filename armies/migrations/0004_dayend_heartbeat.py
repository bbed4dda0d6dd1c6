from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('armies', '0003_battle_result'),
    ]

    operations = [
        migrations.AddField(
            model_name='dayend',
            name='heartbeat_at',
            field=models.DateTimeField(blank=True, help_text='Last sign of life of the worker running it; a stale one may be resumed.', null=True),
        ),
    ]
