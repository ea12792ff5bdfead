"""Load the demo data once: demo logins (and, as the data model grows, a demo federation)."""

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand

# Fixed, documented demo logins (README.md). Only this command ever creates them.
DEMO_ADMIN = ("admin", "demo-admin")


class Command(BaseCommand):
    help = "Creates the demo logins (idempotent) and prints them."

    def handle(self, *args, **options) -> None:
        user_model = get_user_model()
        username, password = DEMO_ADMIN
        if not user_model.objects.filter(username=username).exists():
            user_model.objects.create_superuser(username=username, email="", password=password)
            self.stdout.write(self.style.SUCCESS(f"Demo admin created: {username}"))
        self.stdout.write("")
        self.stdout.write("Demo logins (only for the demo database):")
        self.stdout.write(f"  admin (Django admin /admin/):  {username} / {password}")
        self.stdout.write("Site: http://127.0.0.1:8000/")
        self.stdout.write("")
