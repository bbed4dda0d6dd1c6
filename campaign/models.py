from django.conf import settings
from django.db import models


class Campaign(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=80, unique=True)
    description = models.TextField(blank=True)
    current_day = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Day(models.Model):
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="days")
    number = models.PositiveIntegerField()
    opened_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["campaign", "number"]
        constraints = [models.UniqueConstraint(fields=["campaign", "number"], name="unique_day_number")]

    def __str__(self) -> str:
        return f"{self.campaign} day {self.number}"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class Membership(models.Model):
    class Role(models.TextChoices):
        GM = "gm", "Game master"
        PLAYER = "player", "Player"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships")
    campaign = models.ForeignKey(Campaign, on_delete=models.CASCADE, related_name="memberships")
    role = models.CharField(max_length=10, choices=Role.choices, default=Role.PLAYER)
    character_name = models.CharField(max_length=120, blank=True)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["campaign", "role", "user__username"]
        constraints = [models.UniqueConstraint(fields=["user", "campaign"], name="one_membership_per_campaign")]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.campaign}"

    @property
    def is_gm(self) -> bool:
        return self.role == self.Role.GM

    @property
    def display_name(self) -> str:
        return self.character_name or self.user.get_full_name() or self.user.username
