from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "api"
    verbose_name = "API"

    def ready(self) -> None:
        # Registers the OpenAPI description of the table-secret header (drf-spectacular
        # finds authentication extensions by import).
        from api import schema  # noqa: F401
