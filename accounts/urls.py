"""An organiser's account page, mounted at /manage/account/ (namespace "accounts")."""

from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("", views.account, name="account"),
    path("tokens/<int:token_id>/revoke/", views.token_revoke, name="token_revoke"),
    path("password/", views.PasswordChange.as_view(), name="password_change"),
]
