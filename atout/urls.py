"""The site's URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from atout import views
from rounds import urls as rounds_urls
from tournaments import urls as tournaments_urls

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page names: send them to the icon.
    path("favicon.ico", views.favicon, name="favicon"),
    # The director's pages: the tournaments' and the rounds' actions (above scoring), one namespace.
    path("manage/", include((tournaments_urls.urlpatterns + rounds_urls.urlpatterns, "manage"))),
    # Before any other /t/<slug>/ include: the draw's paths must win over theirs.
    path("t/<slug:slug>/", include("tournaments.public_urls")),
    # After the draw's include: the live ranking, rounds, tables and exports (scoring).
    path("t/<slug:slug>/", include("scoring.public_urls")),
    path("s/<slug:slug>/", include("scoring.season_urls")),
    path("manage/t/<slug:slug>/standings/", include("scoring.standings_manage_urls")),
    path("manage/t/<slug:slug>/hands/", include("scoring.manage_urls")),
    path("r/", include("scoring.referee_urls")),
    path("api/", include("api.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]

handler400 = views.bad_request
# A database out of reach answers 503 "try again" rather than 500 (atout.views).
handler500 = "atout.views.server_error"
