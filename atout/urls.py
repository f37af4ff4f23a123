"""The site's URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, reverse_lazy
from django.views.generic import TemplateView

from accounts import signup_views
from accounts import views as account_views
from accounts.forms import LoginForm
from atout import views
from push import urls as push_urls
from results import urls as results_urls
from rounds import urls as rounds_urls
from scoring import urls as scoring_urls
from seasons import urls as seasons_urls
from tournaments import club_urls
from tournaments import urls as tournaments_urls

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers ask for /favicon.ico whatever the page names: send them to the icon.
    path("favicon.ico", views.favicon, name="favicon"),
    # The organiser's own account: API tokens, password.
    path("manage/account/", include("accounts.urls")),
    # The director's pages: the tournaments' and the rounds' actions (above scoring), one namespace.
    path("manage/", include((tournaments_urls.urlpatterns + rounds_urls.urlpatterns, "manage"))),
    # A club's public page and logo; the links of invitations to join a club.
    path("", include(club_urls.urlpatterns)),
    path("", include(scoring_urls.embed_patterns)),
    # Before any other /t/<slug>/ include: the draw's paths must win over theirs.
    path("t/<slug:slug>/", include((scoring_urls.draw_patterns, "draw"))),
    # After the draw's include: the live ranking, rounds, tables and exports (scoring).
    path("t/<slug:slug>/", include((scoring_urls.public_patterns, "public"))),
    # The public rankings' files (scoring/live_files.py), served here when no proxy does.
    path("live/<slug:slug>/<str:name>", scoring_urls.live_file, name="live_file"),
    path("s/<slug:slug>/", include((seasons_urls.season_patterns, "season"))),
    # A club's seasons: created from the club's page, edited at /manage/s/<slug>/.
    path("manage/", include((seasons_urls.season_manage_patterns, "season_manage"))),
    # Results files: a tournament's download, their schema, a season's import.
    path("", include((results_urls.urlpatterns, "results"))),
    # A player's tournaments: the organisers' page and the public one.
    path("", include(scoring_urls.history_patterns)),
    path("manage/t/<slug:slug>/standings/", include((scoring_urls.standings_manage_patterns, "standings_manage"))),
    path("manage/t/<slug:slug>/hands/", include((scoring_urls.hands_patterns, "hands"))),
    path("r/", include((scoring_urls.referee_patterns, "referee"))),
    path("soiree/", include((scoring_urls.soiree_patterns, "soiree"))),
    # « Ma soirée »'s notifications (push/): the service worker at the root, subscribing
    # after either address of the page.
    path("", include(push_urls.root_patterns)),
    path("soiree/<str:token>/push/", include((push_urls.by_link_patterns, "soiree_push"))),
    path("t/<slug:slug>/c/<int:number>/soiree/push/", include((push_urls.public_patterns, "public_push"))),
    # The door's self check-in, under its secret link (a tablet at the entrance).
    path("door/", include("tournaments.door_urls")),
    path("api/", include("api.urls")),
    # The language switch: a plain link, no CSRF token (see atout.views.switch_language).
    path("language/", views.switch_language, name="switch_language"),
    # Django's set_language (a POST with a CSRF token), kept for compatibility.
    path("i18n/", include("django.conf.urls.i18n")),
    # The login tells an account waiting for its address's confirmation so (accounts.forms).
    path("login/", auth_views.LoginView.as_view(authentication_form=LoginForm), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    # A forgotten password: a link by e-mail, then a new password (Django's views, our pages).
    # Throttled per address and per client, as the login is (accounts.views.PasswordReset).
    path("login/reset/", account_views.PasswordReset.as_view(), name="password_reset"),
    path("login/reset/sent/", auth_views.PasswordResetDoneView.as_view(), name="password_reset_done"),
    path(
        "login/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(success_url=reverse_lazy("password_reset_complete")),
        name="password_reset_confirm",
    ),
    path("login/reset/done/", auth_views.PasswordResetCompleteView.as_view(), name="password_reset_complete"),
    # Open sign-up (settings.OPEN_SIGNUP) and the first run's administrator (accounts.signup_views).
    path("signup/", signup_views.signup_form, name="signup"),
    path("signup/sent/", signup_views.signup_sent, name="signup_sent"),
    path("signup/resend/", signup_views.signup_resend, name="signup_resend"),
    path("signup/confirm/<str:token>/", signup_views.signup_confirm, name="signup_confirm"),
    path("setup/", signup_views.setup, name="setup"),
    path("confidentialite/", TemplateView.as_view(template_name="privacy.html"), name="privacy"),
    path("admin/", admin.site.urls),
]

handler400 = views.bad_request
handler403 = views.permission_denied
# A database out of reach answers 503 "try again" rather than 500 (atout.views).
handler500 = "atout.views.server_error"
