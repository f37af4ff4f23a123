"""push/'s addresses, mounted by atout/urls.py (see push/views.py)."""

from django.urls import path

from push import views

# At the site's root: the service worker's scope is the whole site.
root_patterns = [
    path("sw.js", views.service_worker, name="push_worker"),
    path("push/key/", views.key, name="push_key"),
]
# After /soiree/<token>/, namespace "soiree_push".
by_link_patterns = [
    path("", views.subscribe_by_link, name="subscribe"),
    path("stop/", views.unsubscribe_by_link, name="unsubscribe"),
]
# After /t/<slug>/c/<number>/soiree/push/, namespace "public_push".
public_patterns = [
    path("", views.subscribe_public, name="subscribe"),
    path("stop/", views.unsubscribe_public, name="unsubscribe"),
]
