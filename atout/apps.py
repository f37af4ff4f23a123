from django.apps import AppConfig


class AtoutConfig(AppConfig):
    name = "atout"
    verbose_name = "Atout"
