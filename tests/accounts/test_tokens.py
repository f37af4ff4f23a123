"""Named API tokens: made on the account page (the key shown once), stored as hashes,
their last use recorded by the API, revoked at once; the tokens of before keep working."""

from __future__ import annotations

import hashlib
import importlib
import re
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.services import api_token_create, api_token_revoke
from tests.factories import ClubFactory, UserFactory
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
API = "/api/v1"
NEW = {"club": "bc-rodez", "name": "Concours de Noël", "date": "2026-12-19", "game": "belote_classique"}


@pytest.fixture
def directrice():
    club = ClubFactory(name="Belote Club de Rodez", slug="bc-rodez")
    user = UserFactory(username="directrice")
    club.organisers.add(user)
    return user


def calling_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_new_token_gives_its_key_once_and_the_database_keeps_only_its_hash(directrice) -> None:
    made = api_token_create(by=directrice, name="Tableur du club")
    assert re.fullmatch(r"[0-9a-f]{40}", made.key)
    stored = ApiToken.objects.get(pk=made.token.pk)
    assert stored.key_hash == hashlib.sha256(made.key.encode()).hexdigest()
    assert made.key not in {stored.name, stored.prefix, stored.key_hash} and made.key.startswith(stored.prefix)


def test_the_api_takes_any_of_a_users_named_tokens_and_records_which_one_was_used(directrice) -> None:
    laptop = api_token_create(by=directrice, name="Portable")
    phone = api_token_create(by=directrice, name="Téléphone")
    assert calling_with(laptop.key).post(f"{API}/tournaments/", NEW, format="json").status_code == 201
    laptop.token.refresh_from_db()
    phone.token.refresh_from_db()
    assert laptop.token.last_used_at is not None and phone.token.last_used_at is None
    assert Tournament.objects.get().created_by == directrice


def test_the_last_use_is_written_once_a_minute_at_most(directrice) -> None:
    made = api_token_create(by=directrice, name="Script")
    client = calling_with(made.key)
    client.post(f"{API}/tournaments/", NEW, format="json")
    first = ApiToken.objects.get(pk=made.token.pk).last_used_at
    client.post(f"{API}/tournaments/", {**NEW, "name": "Autre"}, format="json")
    assert ApiToken.objects.get(pk=made.token.pk).last_used_at == first
    earlier = timezone.now() - timedelta(minutes=2)
    ApiToken.objects.filter(pk=made.token.pk).update(last_used_at=earlier)
    client.post(f"{API}/tournaments/", {**NEW, "name": "Encore"}, format="json")
    assert ApiToken.objects.get(pk=made.token.pk).last_used_at > earlier


def test_a_revoked_token_a_wrong_key_or_an_inactive_user_gets_401(directrice) -> None:
    made = api_token_create(by=directrice, name="Ancien")
    api_token_revoke(by=directrice, token=made.token)
    for key in (made.key, "0" * 40, "pas-une-clé"):
        answer = calling_with(key).post(f"{API}/tournaments/", NEW, format="json")
        assert answer.status_code == 401 and answer.headers["WWW-Authenticate"] == "Token", key
    kept = api_token_create(by=directrice, name="Gardé")
    directrice.is_active = False
    directrice.save()
    assert calling_with(kept.key).post(f"{API}/tournaments/", NEW, format="json").status_code == 401
    assert not Tournament.objects.exists()


def test_the_account_page_shows_a_new_key_once_then_the_tokens_last_use(directrice) -> None:
    client = Client()
    client.force_login(directrice)
    url = reverse("accounts:account")
    made = client.post(url, {"name": "Tableur du club"})
    key = re.search(r'id="new-token-key">([0-9a-f]{40})<', made.content.decode()).group(1)
    assert "ne sera plus affichée" in made.content.decode()
    listed = client.get(url).content.decode()
    assert key not in listed and "Tableur du club" in listed and "jamais" in listed
    calling_with(key).post(f"{API}/tournaments/", NEW, format="json")
    assert "jamais" not in client.get(url).content.decode()
    twice = client.post(url, {"name": "Tableur du club"})
    assert re.search(r'id="field-name">.*déjà un jeton de ce nom', twice.content.decode(), re.S)
    assert ApiToken.objects.filter(user=directrice).count() == 1


def test_a_user_revokes_their_own_tokens_and_never_anothers(directrice) -> None:
    own = api_token_create(by=directrice, name="Mien")
    others = api_token_create(by=UserFactory(username="voisin"), name="Sien")
    client = Client()
    client.force_login(directrice)
    assert client.post(reverse("accounts:token_revoke", args=[others.token.pk])).status_code == 404
    assert client.post(reverse("accounts:token_revoke", args=[own.token.pk])).status_code == 302
    assert list(ApiToken.objects.values_list("name", flat=True)) == ["Sien"]
    assert Client().get(reverse("accounts:account")).status_code == 302


def test_a_token_made_in_the_admin_before_named_tokens_keeps_working(directrice) -> None:
    migration = importlib.import_module("accounts.migrations.0002_tokens_of_before")
    key = "a" * 40
    with connection.cursor() as cursor:
        cursor.execute(
            'CREATE TABLE authtoken_token ("key" varchar(40) PRIMARY KEY, created timestamptz, user_id bigint)'
        )
        cursor.execute("INSERT INTO authtoken_token VALUES (%s, now(), %s)", [key, directrice.pk])
    migration.copy_tokens_of_before(apps, SimpleNamespace(connection=connection))
    assert ApiToken.objects.get(user=directrice).name == "Jeton repris de l’administration"
    assert calling_with(key).post(f"{API}/tournaments/", NEW, format="json").status_code == 201
