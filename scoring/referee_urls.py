"""The referee's URLs: everything under a table's secret link, `/r/<token>/`."""

from django.urls import path

from scoring.views import referee as views

app_name = "referee"

urlpatterns = [
    path("<str:token>/", views.table_page, name="table"),
    path("<str:token>/sheet/", views.sheet_part, name="sheet"),
    path("<str:token>/clock/", views.clock_part, name="clock"),
    path("<str:token>/validate/", views.validate, name="validate"),
    path("<str:token>/hands/", views.submit, name="submit"),
    path("<str:token>/last/", views.correct_last, name="correct_last"),
    path("<str:token>/undo/", views.undo, name="undo"),
    path("<str:token>/hands/<int:number>/confirm/", views.confirm, name="confirm"),
]
